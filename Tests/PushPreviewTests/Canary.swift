import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A file outside the repository that tells whether anything opened it — as root too, where a
/// file without read permission proves nothing, and in the child processes a test starts: an
/// inotify watch on it counts every open of its inode, whatever path or symlink led there.
final class Canary {
    let url: URL
    private let watch: Int32

    init(_ url: URL, contents: String = "canary") {
        self.url = url
        try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: url.path, contents: Data(contents.utf8))
        watch = inotify_init1(Int32(O_NONBLOCK | O_CLOEXEC))
        precondition(watch >= 0 && inotify_add_watch(watch, url.path, Self.inOpen) >= 0, "inotify on \(url.path): \(errno)")
    }

    static let inOpen: UInt32 = 0x20 // IN_OPEN

    /// How many times it was opened since it was made; stops watching.
    func opened() -> Int {
        defer { close(watch) }
        var count = 0
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(watch, $0.baseAddress, $0.count) }
            guard n > 0 else { return count }
            var at = 0
            while at + 16 <= n { // struct inotify_event: wd, mask, cookie, len, then len bytes of name
                let mask = buffer[(at + 4)..<(at + 8)].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
                let len = buffer[(at + 12)..<(at + 16)].reversed().reduce(0) { $0 << 8 | Int($1) }
                if mask & Self.inOpen != 0 { count += 1 }
                at += 16 + len
            }
        }
    }
}
