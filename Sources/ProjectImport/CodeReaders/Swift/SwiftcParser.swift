import Checked
import ConfinedFiles
import Foundation

/// Swift's own parser, run as `swiftc -frontend -dump-parse -dump-ast-format json`: it needs no
/// SDK, reads files that do not type-check, and after a syntax error still prints what it parsed
/// (the diagnostics go to stderr as `FILE:LINE:COL: error: …`). Files are parsed in batches, one
/// `-primary-file` each: a process costs ~0.1 s, a file ~5 ms.
///
/// SwiftSyntax was the other choice: the toolchain has its modules in `usr/lib/swift/host`, and a
/// program built with `-I`/`-L` there links them, but from SwiftPM only through `unsafeFlags` and
/// a toolchain path, and the binary would then need that toolchain's compiler-internal libraries
/// at run time. Adding the swift-syntax package would mean a download and a long build.
struct SwiftcParser {
    var swiftc: URL
    /// A batch the parser takes longer on is given up (and its files tried one by one).
    var timeout: Double = 60
    /// Source bytes per batch; the dump is ~12× that.
    var batchBytes = 2 << 20

    static let notMainFileErrors = ["expressions are not allowed at the top level", "statements are not allowed at the top level", "hashbang line is allowed only in the main file"]

    struct Parse {
        var root: SwiftASTNode?
        /// `(line, column, message)` of each error swiftc reported.
        var errors: [(line: Int, column: Int, message: String)] = []
        /// Why there is no AST, when there is none.
        var failure: String?
    }

    /// `swiftc` on `PATH`, or nil.
    static func findSwiftc(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        for folder in (environment["PATH"] ?? "").split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent("swiftc")
            if TrustedFiles.isExecutable(candidate) { return candidate }
        }
        return nil
    }

    /// Parses each source (a file's text, `#if` already decided); one `Parse` per source, in order.
    func parse(_ sources: [[UInt8]]) -> [Parse] {
        var results: [Parse] = []
        var batch: [[UInt8]] = []
        for source in sources {
            if !batch.isEmpty, batch.reduce(0, { $0 + $1.count }) + source.count > batchBytes {
                results += parseBatch(batch)
                batch = []
            }
            batch.append(source)
        }
        if !batch.isEmpty { results += parseBatch(batch) }
        return results
    }

    private func parseBatch(_ sources: [[UInt8]]) -> [Parse] {
        let failed = { (why: String) in sources.map { _ in Parse(failure: why) } }
        // A folder of the process's own (its TMPDIR), removed whichever way the parse ends.
        let folder: ConfinedFolder
        do { folder = try ConfinedFolder(trusted: ChildProcesses.temporaryFolder("pushpreview-swiftparse"), links: .refused) } catch {
            return failed("could not make a folder for swiftc's copy: \(error)")
        }
        defer { ChildProcesses.remove(folder: folder.url) }
        let inputs = sources.indices.map { folder.url.appendingPathComponent("\($0).swift") }
        let out: FileHandle, err: FileHandle
        do {
            for (i, source) in sources.enumerated() { try folder.write(source, to: "\(i).swift") }
            out = try folder.create("ast.json")
            err = try folder.create("diagnostics.txt")
        } catch {
            return failed("could not write a copy for swiftc in \(folder.url.path): \(error.why)")
        }
        let process = Process()
        process.executableURL = swiftc
        process.arguments = ["-frontend", "-dump-parse", "-dump-ast-format", "json", "-diagnostic-style", "llvm"] + inputs.flatMap { ["-primary-file", $0.path] }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = out
        process.standardError = err
        do { try process.run() } catch { return failed("could not run \(swiftc.path): \(error.localizedDescription)") }
        // swiftc runs the frontend as a child in its group: the group is what is killed.
        let group = process.processIdentifier
        ChildProcesses.started(group)
        let outputLimit = max(64 << 20, 40 * sources.reduce(0) { $0 + $1.count })
        let stopped = ChildProcesses.watch(process, name: "swiftc", seconds: timeout,
                                           written: { if case .file(let n)? = folder.kind("ast.json") { return n } else { return 0 } },
                                           limit: outputLimit)
        ChildProcesses.ended(group)
        try? out.close()
        try? err.close()
        if stopped != nil || process.terminationReason == .uncaughtSignal {
            // One file may be the cause: each on its own, so the others are still read.
            if sources.count > 1 { return sources.flatMap { parseBatch([$0]) } }
            return failed((stopped ?? "swiftc crashed (signal \(process.terminationStatus))") + "; the file is not read")
        }
        var results = sources.map { _ in Parse() }
        let index = Dictionary(uniqueKeysWithValues: inputs.enumerated().map { ($1.path, $0) })
        let messages = String(decoding: (try? folder.read("diagnostics.txt", limit: 64 << 20)) ?? [], as: UTF8.self)
        for line in messages.split(separator: "\n") {
            // FILE:LINE:COL: error: message
            let fields = line.split(separator: ":", maxSplits: 4)
            guard fields.count == 5, let k = index[String(fields[0])], let l = Int(fields[1]), let c = Int(fields[2]),
                  fields[3].trimmingCharacters(in: .whitespaces) == "error" else { continue }
            let message = fields[4].trimmingCharacters(in: .whitespaces)
            // Said of a main.swift or a script parsed beside other files; its code is still in the AST.
            if Self.notMainFileErrors.contains(where: message.hasPrefix) { continue }
            results[k].errors.append((l, c, message))
        }
        for file in SwiftASTJSON.parse((try? folder.read("ast.json", limit: outputLimit + (1 << 20))) ?? []) {
            guard let k = index[file.file] else { continue }
            results[k].root = file.node
            results[k].failure = file.failure.map { "swiftc's AST could not be read: \($0)" }
        }
        for k in results.indices where results[k].root == nil && results[k].failure == nil {
            results[k].failure = "swiftc printed no AST for it (exit status \(process.terminationStatus))"
        }
        return results
    }
}
