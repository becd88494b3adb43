import Checked
import ConfinedFiles
import Foundation
import Payload
import Formats

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

    /// Writes into `folder` through a confined folder that follows no link: a symlinked folder or
    /// subfolder is an error before anything is written, and no file is written through a link.
    public static func write(_ files: [(path: String, text: String)], into folder: URL, force: Bool) throws(XcodeProject.ReadError) -> Outcome {
        try write(files.map { ($0.path, Array($0.text.utf8)) }, into: folder, force: force)
    }

    /// Text and binary files alike (a sample image).
    public static func write(_ files: [(path: String, bytes: [UInt8])], into folder: URL, force: Bool) throws(XcodeProject.ReadError) -> Outcome {
        do throws(FileRefusal) {
            // The folder the person named is made (its parents too); the last component must not be a link.
            let parent = try ConfinedFolder(trusted: folder.standardizedFileURL.deletingLastPathComponent(), create: true)
            return try write(files, into: try parent.folder(folder.standardizedFileURL.lastPathComponent, links: .refused, create: true), force: force)
        } catch {
            switch error.reason {
            case .link(let component), .absoluteLink(let component):
                let link = error.folder + (component.isEmpty ? "" : "/" + component)
                throw XcodeProject.ReadError(description: "\(link): a symbolic link; init writes only into folders of its own (remove the link, or give --out a real folder); nothing written")
            default: throw XcodeProject.ReadError(description: "\(error.fullPath): \(error.why); nothing written")
            }
        }
    }

    static func write(_ files: [(path: String, bytes: [UInt8])], into top: ConfinedFolder, force: Bool) throws(FileRefusal) -> Outcome {
        var manifest: [String: String] = [:]
        if let data = try? top.read(manifestName, limit: 4 << 20), case .object(let members)? = try? JSONParser.parse(data, file: top.url.path + "/" + manifestName) {
            for (key, value) in members { if let s = value.string { manifest[key] = s } }
        }
        // Every folder first, so that a symlinked one stops init before it writes anything.
        for (path, _) in files {
            let parent = path.split(separator: "/").dropLast().joined(separator: "/")
            if !parent.isEmpty { try top.makeFolders(parent) }
        }
        var outcome = Outcome()
        var record = manifest
        for (path, bytes) in files {
            // A link where a file goes reads as nothing init wrote (it is not followed).
            let current = top.isLink(path) ? nil : try? top.read(path, limit: 64 << 20)
            if current == bytes {
                outcome.unchanged.append(path)
                record[path] = digest(bytes)
                continue
            }
            // A file init cannot read as its own (changed, or a symlink) is kept unless forced.
            if !force, current.map({ manifest[path] != digest($0) }) ?? (top.kind(path) != nil || top.isLink(path)) {
                outcome.kept.append(path)
                continue
            }
            try top.write(bytes, to: path)
            outcome.written.append(path)
            record[path] = digest(bytes)
        }
        let text = JSONValue.object(record.keys.sorted().map { ($0, .string(record[$0]!)) }).pretty
        try top.write(Array(text.utf8), to: manifestName)
        return outcome
    }

    /// Enough to tell whether a file is still init's own; bytes that are not UTF-8 (an image) by their hex.
    static func digest(_ bytes: [UInt8]) -> String {
        if let text = String(validating: bytes, as: UTF8.self) { return contentKey(text) }
        let hex = Array("0123456789abcdef".utf8)
        return contentKey(String(decoding: bytes.flatMap { [hex[Int($0 >> 4)], hex[Int($0 & 15)]] }, as: UTF8.self))
    }
}
