import Foundation
import PushPreview

enum DiffCommand {
    static let spec = CommandSpec(
        name: "diff", synopsis: ["diff BASE NEW [options]"], summary: "compare two output folders: diff images, page, markdown",
        about: """
        Compares two output folders mock-up by mock-up (PAYLOAD/STEM.png): added, removed, changed,
        unchanged. Writes before / after / difference images, index.html and diff.json into --out.
        """,
        positionals: [.init(name: "BASE", completes: .folder), .init(name: "NEW", completes: .folder)],
        options: [
            .value("out", "DIR", "where the diff goes (default Diff)", completes: .folder),
            .value("threshold", "T", "0–1: how far apart two colours must be to count, by YIQ distance as pixelmatch (default 0.1)"),
            .value("markdown", "FILE", "also write a pull-request comment: a summary table and the images", completes: .file),
            .value("image-base-url", "URL", "where the --out folder will be uploaded, for the comment's images"),
            .flag("json", "print diff.json's entries on stdout"),
        ],
        exits: [.init(0, "nothing changed"), .init(1, "something changed (for CI)"), .init(2, "usage or unreadable folders")])

    static func run(_ argv: [String]) -> Int32 {
        let a: Arguments
        var threshold = 0.1
        do {
            a = try Arguments(argv, Self.spec)
            guard a.positionals.count == 2 else { throw Arguments.UsageError(description: "give two output folders: BASE NEW") }
            if let t = a.value("threshold") {
                guard let v = Double(t), (0...1).contains(v) else { throw Arguments.UsageError(description: "--threshold takes a number from 0 to 1") }
                threshold = v
            }
            for folder in a.positionals {
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
                    throw Arguments.UsageError(description: "\(folder): not a folder")
                }
            }
        } catch { return usageError(Self.spec, error) }
        var diff = OutputDiff(base: URL(fileURLWithPath: a.positionals[0]), new: URL(fileURLWithPath: a.positionals[1]))
        diff.threshold = threshold
        let out = URL(fileURLWithPath: a.value("out") ?? "Diff")
        do {
            let (entries, summary) = try diff.run(output: out)
            if let markdown = a.value("markdown") {
                try OutputFile.write(OutputDiff.markdown(entries, summary, imageBaseURL: a.value("image-base-url") ?? ""), to: URL(fileURLWithPath: markdown))
            }
            if a.flags.contains("json") { entries.filter { $0.kind != .unchanged }.forEach { printJSON($0) } }
            for e in entries where e.kind != .unchanged && !a.flags.contains("json") { print("\(e.kind.rawValue)\t\(e.mockup)") }
            for e in entries { if let note = e.note { printError("warning: \(note)") } }
            printError("\(summary.changed) changed, \(summary.added) added, \(summary.removed) removed, \(summary.unchanged) unchanged → \(out.path)/index.html")
            return summary.anyChange ? 1 : 0
        } catch {
            printError("pushpreview diff: \(error)")
            return 2
        }
    }
}
