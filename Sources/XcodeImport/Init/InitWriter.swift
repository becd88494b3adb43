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

    /// Writes into `folder` through `OutputFolder`: a symlinked folder or subfolder is an error
    /// before anything is written, and no file is written through a link.
    public static func write(_ files: [(path: String, text: String)], into folder: URL, force: Bool) throws(XcodeProject.ReadError) -> Outcome {
        try write(files.map { ($0.path, Array($0.text.utf8)) }, into: folder, force: force)
    }

    /// Text and binary files alike (a sample image).
    public static func write(_ files: [(path: String, bytes: [UInt8])], into folder: URL, force: Bool) throws(XcodeProject.ReadError) -> Outcome {
        do { return try write(files, into: OutputFolder(folder), force: force) } catch { throw XcodeProject.ReadError(description: error.description) }
    }

    static func write(_ files: [(path: String, bytes: [UInt8])], into top: OutputFolder, force: Bool) throws(OutputFolder.Refused) -> Outcome {
        var manifest: [String: String] = [:]
        if let data = top.read(manifestName), case .object(let members)? = try? JSONParser.parse(data, file: top.path + "/" + manifestName) {
            for (key, value) in members { if let s = value.string { manifest[key] = s } }
        }
        // Every folder first, so that a symlinked one stops init before it writes anything.
        var folders: [String: OutputFolder] = ["": top]
        func folder(_ relative: String) throws(OutputFolder.Refused) -> OutputFolder {
            if let known = folders[relative] { return known }
            let parent = try folder(relative.split(separator: "/").dropLast().joined(separator: "/"))
            let made = try parent.folder(String(relative.split(separator: "/").last!))
            folders[relative] = made
            return made
        }
        for (path, _) in files { _ = try folder(path.split(separator: "/").dropLast().joined(separator: "/")) }
        var outcome = Outcome()
        var record = manifest
        for (path, bytes) in files {
            let parts = path.split(separator: "/")
            let dir = try folder(parts.dropLast().joined(separator: "/")), name = String(parts.last ?? "")
            let current = dir.read(name)
            if current == bytes {
                outcome.unchanged.append(path)
                record[path] = digest(bytes)
                continue
            }
            // A file init cannot read as its own (changed, or a symlink) is kept unless forced.
            if !force, current.map({ manifest[path] != digest($0) }) ?? dir.has(name) {
                outcome.kept.append(path)
                continue
            }
            try dir.write(bytes, as: name)
            outcome.written.append(path)
            record[path] = digest(bytes)
        }
        let text = JSONValue.object(record.keys.sorted().map { ($0, .string(record[$0]!)) }).pretty
        try top.write(Array(text.utf8), as: manifestName)
        return outcome
    }

    /// Enough to tell whether a file is still init's own; bytes that are not UTF-8 (an image) by their hex.
    static func digest(_ bytes: [UInt8]) -> String {
        if let text = String(validating: bytes, as: UTF8.self) { return contentKey(text) }
        let hex = Array("0123456789abcdef".utf8)
        return contentKey(String(decoding: bytes.flatMap { [hex[Int($0 >> 4)], hex[Int($0 & 15)]] }, as: UTF8.self))
    }
}
