import Foundation

/// Writes a file so that a reader (or a killed run) never sees half of it: temp file, then rename.
/// There is no fsync: a rename is atomic for a killed process, and fsync per mock-up cost a
/// gallery more than a tenth of its time (it guards against power loss, which this does not).
public enum OutputFile {
    public struct WriteError: Error, CustomStringConvertible {
        public var path: String, reason: String
        public var description: String { "cannot write \(path): \(reason)" }
    }

    public static func write(_ bytes: [UInt8], to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        if let existing = FileManager.default.contents(atPath: url.path), existing.elementsEqual(bytes) { return }
        // Unique per process and write: lanes (threads or worker processes) may write one shared file at once.
        let temp = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(getpid())-\(serial.next()).tmp")
        func failure(_ path: String) -> WriteError { WriteError(path: path, reason: String(cString: strerror(errno))) }
        let fd = open(temp.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw failure(temp.path) }
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + written, $0.count - written) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { let error = failure(temp.path); close(fd); unlink(temp.path); throw error }
            written += n
        }
        guard close(fd) == 0 else { let error = failure(temp.path); unlink(temp.path); throw error }
        guard rename(temp.path, url.path) == 0 else { let error = failure(url.path); unlink(temp.path); throw error }
    }

    public static func write(_ text: String, to url: URL) throws { try write(Array(text.utf8), to: url) }

    private static let serial = Serial()
    private final class Serial: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0
        func next() -> Int { lock.withLock { value += 1; return value } }
    }

    /// Temp files a killed run left behind (`.NAME.PID-N.tmp`), removed before a new run writes.
    public static func removeLeftovers(in folder: URL) {
        let e = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        while let url = e?.nextObject() as? URL {
            if url.lastPathComponent.hasPrefix("."), url.lastPathComponent.hasSuffix(".tmp") { try? FileManager.default.removeItem(at: url) }
        }
    }
}

/// The tool's version: in reports, and in the inputs of `--incremental`.
public let pushPreviewVersion = "0.2.0"
