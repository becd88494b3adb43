import Foundation

/// Writes a file so that a reader (or a killed run) never sees half of it: temp file, then rename.
public enum OutputFile {
    public static func write(_ bytes: [UInt8], to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        if let existing = FileManager.default.contents(atPath: url.path), existing.elementsEqual(bytes) { return }
        let temp = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp")
        try Data(bytes).write(to: temp)
        guard rename(temp.path, url.path) == 0 else {
            try? FileManager.default.removeItem(at: temp)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
    }

    public static func write(_ text: String, to url: URL) throws { try write(Array(text.utf8), to: url) }

    /// Temp files a killed run left behind (`.NAME.PID.tmp`), removed before a new run writes.
    public static func removeLeftovers(in folder: URL) {
        let e = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        while let url = e?.nextObject() as? URL {
            if url.lastPathComponent.hasPrefix("."), url.lastPathComponent.hasSuffix(".tmp") { try? FileManager.default.removeItem(at: url) }
        }
    }
}

/// The tool's version: in reports, and in the inputs of `--incremental`.
public let pushPreviewVersion = "0.2.0"
