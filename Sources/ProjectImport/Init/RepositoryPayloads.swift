import Checked
import ConfinedFiles
import Foundation
import Payload
import Formats

/// The payloads a repository already has (issue 22), which init writes into payloads/ before any
/// sample: `.apns` files anywhere in it, JSON files with an `aps` object in test, fixture, doc
/// and example folders, and userInfo dictionaries test code builds (a literal with an `"aps"`
/// key). Each is named after its source file, in path order, and written once however many
/// places hold the same payload.
struct RepositoryPayloads {
    struct Found {
        /// `payloads/NAME.apns`'s NAME.
        var name: String
        var json: JSONValue
        /// Where it was found (`FILE` or `FILE:LINE`), each place that holds it.
        var sources: [String]
        var category: String? { json["aps"]?["category"]?.string }
    }

    var found: [Found] = []
    var problems: [String] = []

    /// APNs takes at most 4 KB (5 KB for VoIP); a file much larger is not a payload to send.
    static let maxSize = 64 << 10
    static let maxFiles = 20_000
    /// Folder names (lowercased) whose JSON files may be payloads, besides those holding "test",
    /// "fixture" or "mock".
    static let dataFolders: Set<String> = ["doc", "docs", "documentation", "sample", "samples", "example", "examples", "payloads", "push", "apns", "resources"]

    /// Walks `root` (not `skipping`, init's own folder, nor what XcodeDiscovery skips);
    /// `testSources` are the test targets' files, read for literals wherever they lie.
    /// `otherApps`: folders of other apps in the same repository (a monorepo's): their payloads are
    /// not this app's, and are left out, said.
    init(repository: Repository, root: URL, skipping: URL, testSources: [URL], otherApps: [URL] = []) {
        let rootPath = root.standardizedFileURL.path, skipped = skipping.standardizedFileURL.path
        let others = Set(otherApps.map(\.standardizedFileURL.path))
        var leftOut: [String: Int] = [:]
        var candidates: [(relative: String, url: URL, kind: String)] = []
        let tests = Set(testSources.map(\.standardizedFileURL.path))
        var seenFiles = 0
        func walk(_ folder: URL, _ relative: [String], depth: Int, other: String? = nil) {
            guard depth < 12 else { return }
            for name in repository.names(folder) where !XcodeDiscovery.skipped.contains(name) && !name.hasPrefix(".") {
                let url = folder.appendingPathComponent(name), path = relative + [name]
                // A link is said when its file is read; a folder linked from elsewhere is not walked.
                guard url.path != skipped, let kind = repository.kind(url) ?? (repository.isLink(url) ? .file(size: 0) : nil) else { continue }
                if kind == .folder {
                    if repository.isLink(url) { continue }
                    let other = other ?? (others.contains(url.standardizedFileURL.path) ? path.joined(separator: "/") : nil)
                    if !name.hasSuffix(".xcassets"), !name.hasSuffix(".xcodeproj"), !name.hasSuffix(".lproj") { walk(url, path, depth: depth + 1, other: other) }
                    continue
                }
                seenFiles += 1
                guard seenFiles <= Self.maxFiles else { return }
                let ext = url.pathExtension.lowercased(), folders = relative.map { $0.lowercased() }
                let inTests = folders.contains { $0.contains("test") }
                let inData = inTests || folders.contains { $0.contains("fixture") || $0.contains("mock") || Self.dataFolders.contains($0) }
                if let other {
                    if ext == "apns" || (ext == "json" && inData && name != "package.json") { leftOut[other, default: 0] += 1 }
                    continue
                }
                if ext == "apns" { candidates.append((path.joined(separator: "/"), url, "apns")) }
                else if ext == "json", inData { candidates.append((path.joined(separator: "/"), url, "json")) }
                else if ["swift", "m", "mm"].contains(ext), inTests || tests.contains(url.standardizedFileURL.path) { candidates.append((path.joined(separator: "/"), url, "code")) }
            }
        }
        walk(URL(fileURLWithPath: rootPath), [], depth: 0)
        for (folder, n) in leftOut.sorted(by: { $0.key < $1.key }) {
            problems.append("\(folder)/: \(n) payload file\(n == 1 ? "" : "s") in another app's folder; left out, as that app's notifications are not this app's")
        }
        if seenFiles > Self.maxFiles { problems.append("\(rootPath): over \(Self.maxFiles) files; payloads were looked for in the first \(Self.maxFiles) only") }

        var byContent: [String: Int] = [:], names = Set<String>()
        func add(_ json: JSONValue, from source: String, file: String) {
            let key = json.compact
            if let k = byContent[key] { found[k].sources.append(source); return }
            let base = Self.fileName((file as NSString).lastPathComponent)
            var name = base, n = 2
            while names.contains(name.lowercased()) { name = "\(base)-\(n)"; n += 1 }
            names.insert(name.lowercased())
            byContent[key] = found.count
            found.append(Found(name: name, json: json, sources: [source]))
        }
        for c in candidates {
            let bytes: [UInt8]
            do { bytes = try repository.read(c.url, limit: Self.maxSize) } catch {
                if case .tooLarge(let size, _) = error.reason {
                    if c.kind == "apns" { problems.append("\(c.relative): \(size) bytes, over the \(Self.maxSize >> 10) KB a payload file may have here (APNs takes 4 KB); not read") }
                } else { problems.append("\(c.relative): cannot be read (\(error.why))") }
                continue
            }
            let mentionsAPS = bytes.firstRange(of: Array("\"aps\"".utf8), from: 0) != nil
            switch c.kind {
            case "code":
                guard mentionsAPS else { continue }
                for literal in PayloadLiteral.find(in: bytes) {
                    guard case .object? = literal.json["aps"] else {
                        problems.append("\(c.relative):\(literal.line): a userInfo literal whose \"aps\" is not a dictionary literal; not written")
                        continue
                    }
                    if !literal.leftOut.isEmpty {
                        problems.append("\(c.relative):\(literal.line): the userInfo literal's \(literal.leftOut.joined(separator: ", ")) \(literal.leftOut.count == 1 ? "is" : "are") not a literal; left out of its payload")
                    }
                    add(literal.json, from: "\(c.relative):\(literal.line)", file: c.relative)
                }
            default:
                let json: JSONValue
                do { json = try JSONParser.parse(bytes, file: c.relative) } catch {
                    // A JSON file in a docs folder that is not a payload is no problem; an .apns is one.
                    if c.kind == "apns" || mentionsAPS { problems.append("\(error.description); not used as a payload") }
                    continue
                }
                guard case .object? = json["aps"] else {
                    if c.kind == "apns" { problems.append("\(c.relative): has no \"aps\" object; not used as a payload") }
                    continue
                }
                add(json, from: c.relative, file: c.relative)
            }
        }
    }

    /// A payload file's name from its source's: letters, digits, `-`, `_` and `.`, the extension dropped.
    /// A name longer than `maxName` bytes is cut and ends with a digest of the whole, so it
    /// stays unique and every file system takes it (255 bytes is the usual limit, with `.apns`).
    static func fileName(_ source: String) -> String {
        let stem = (source as NSString).deletingPathExtension
        let safe = String(stem.map { $0.isLetter || $0.isNumber || "-_.".contains($0) ? $0 : "-" }).trimmingCharacters(in: CharacterSet(charactersIn: "-."))
        guard !safe.isEmpty else { return "payload" }
        guard safe.utf8.count > maxName else { return safe }
        var cut = ""
        for c in safe {
            guard cut.utf8.count + c.utf8.count <= maxName - 9 else { break }
            cut.append(c)
        }
        return cut + "-" + String(contentKey(safe).prefix(8))
    }

    static let maxName = 100
}
