import Checked
import Foundation
import Payload

/// Writes `init`'s files so that running it again is safe: `.pushpreview-init.json` records a
/// digest of each file as init wrote it, and a file whose bytes no longer match (the person
/// changed it), or that init never wrote, is kept unless `force`. Files init wrote and nobody
/// touched are brought up to date.
public enum InitWriter {
    public static let manifestName = ".pushpreview-init.json"

    public struct Outcome: Sendable, Equatable {
        public var written: [String] = []
        /// Already as init would write them.
        public var unchanged: [String] = []
        /// Changed by a person (or not init's): left alone.
        public var kept: [String] = []
    }

    public static func write(_ files: [(path: String, text: String)], into folder: URL, force: Bool) throws(XcodeProject.ReadError) -> Outcome {
        try write(files.map { ($0.path, Array($0.text.utf8)) }, into: folder, force: force)
    }

    /// Text and binary files alike (a sample image).
    public static func write(_ files: [(path: String, bytes: [UInt8])], into folder: URL, force: Bool) throws(XcodeProject.ReadError) -> Outcome {
        let fm = FileManager.default
        let manifestFile = folder.appendingPathComponent(manifestName)
        var manifest: [String: String] = [:]
        if let data = fm.contents(atPath: manifestFile.path), case .object(let members)? = try? JSONParser.parse([UInt8](data), file: manifestFile.path) {
            for (key, value) in members { if let s = value.string { manifest[key] = s } }
        }
        var outcome = Outcome()
        var record = manifest
        for (path, bytes) in files {
            let file = folder.appendingPathComponent(path)
            let current = fm.contents(atPath: file.path).map { [UInt8]($0) }
            if current == bytes {
                outcome.unchanged.append(path)
                record[path] = digest(bytes)
                continue
            }
            if let current, !force, manifest[path] != digest(current) {
                outcome.kept.append(path)
                continue
            }
            do {
                try fm.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(bytes).write(to: file, options: .atomic)
            } catch { throw XcodeProject.ReadError(description: "\(file.path): cannot write: \(error.localizedDescription)") }
            outcome.written.append(path)
            record[path] = digest(bytes)
        }
        let text = JSONValue.object(record.keys.sorted().map { ($0, .string(record[$0]!)) }).pretty
        do { try Data(text.utf8).write(to: manifestFile, options: .atomic) } catch {
            throw XcodeProject.ReadError(description: "\(manifestFile.path): cannot write: \(error.localizedDescription)")
        }
        return outcome
    }

    /// Enough to tell whether a file is still init's own; bytes that are not UTF-8 (an image) by their hex.
    static func digest(_ bytes: [UInt8]) -> String {
        if let text = String(validating: bytes, as: UTF8.self) { return contentKey(text) }
        let hex = Array("0123456789abcdef".utf8)
        return contentKey(String(decoding: bytes.flatMap { [hex[Int($0 >> 4)], hex[Int($0 & 15)]] }, as: UTF8.self))
    }
}
