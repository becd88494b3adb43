import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A folder `init` writes into, held open by descriptor so that what was checked is what is
/// written into: the folder and each subfolder are opened with `O_NOFOLLOW` (a symlink already
/// there — `pushpreview/Templates` → elsewhere — is an error, and nothing is written), files are
/// read with `O_NOFOLLOW` and written to a fresh temporary file (`O_CREAT|O_EXCL|O_NOFOLLOW`)
/// renamed over the name, which replaces a link rather than writing through it.
final class OutputFolder {
    let path: String
    let fd: Int32

    struct Refused: Error, CustomStringConvertible { var description: String }

    /// The folder at `url`, made if it is missing (its parents too: the path the person gave).
    convenience init(_ url: URL) throws(Refused) {
        let path = url.standardizedFileURL.path
        try? FileManager.default.createDirectory(atPath: url.deletingLastPathComponent().path, withIntermediateDirectories: true)
        let parent = open(url.deletingLastPathComponent().path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard parent >= 0 else { throw Refused(description: "\(url.deletingLastPathComponent().path): cannot be opened: \(String(cString: strerror(errno)))") }
        defer { close(parent) }
        try self.init(at: parent, name: url.lastPathComponent, path: path)
    }

    /// `name` in the folder `parent`, made if missing; a symlink or a file there is refused.
    init(at parent: Int32, name: String, path: String) throws(Refused) {
        self.path = path
        guard !name.isEmpty, name != ".", name != "..", !name.contains("/"), !name.contains("\0") else { throw Refused(description: "\(path): not a folder name init writes") }
        if mkdirat(parent, name, 0o755) != 0 && errno != EEXIST { throw Refused(description: "\(path): cannot be made: \(String(cString: strerror(errno)))") }
        let fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else {
            let why = errno == ELOOP || errno == ENOTDIR && Self.isLink(parent, name)
                ? "a symbolic link; init writes only into folders of its own (remove the link, or give --out a real folder)"
                : errno == ENOTDIR ? "not a folder" : String(cString: strerror(errno))
            throw Refused(description: "\(path): \(why); nothing written")
        }
        self.fd = fd
    }

    deinit { close(fd) }

    static func isLink(_ parent: Int32, _ name: String) -> Bool {
        var info = stat()
        return fstatat(parent, name, &info, AT_SYMLINK_NOFOLLOW) == 0 && info.st_mode & S_IFMT == S_IFLNK
    }

    /// The subfolder `name`, made if missing.
    func folder(_ name: String) throws(Refused) -> OutputFolder {
        try OutputFolder(at: fd, name: name, path: path + "/" + name)
    }

    /// What `name` holds, if it is a plain file (a symlink reads as nil: it is not init's).
    func read(_ name: String, limit: Int = 64 << 20) -> [UInt8]? {
        let file = openat(fd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard file >= 0 else { return nil }
        defer { close(file) }
        var info = stat()
        guard fstat(file, &info) == 0, info.st_mode & S_IFMT == S_IFREG, Int(info.st_size) <= limit else { return nil }
        var out: [UInt8] = [], buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(file, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return n == 0 ? out : nil }
            out += buffer[..<n]
        }
    }

    /// Whether an entry (of any kind, a dangling symlink too) is there.
    func has(_ name: String) -> Bool {
        var info = stat()
        return fstatat(fd, name, &info, AT_SYMLINK_NOFOLLOW) == 0
    }

    /// Writes `bytes` as `name`: a new temporary file beside it, renamed over it.
    func write(_ bytes: [UInt8], as name: String) throws(Refused) {
        let temp = ".\(name).\(getpid()).tmp"
        unlinkat(fd, temp, 0) // a leftover of a killed run (a symlink is removed, not followed)
        let file = openat(fd, temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard file >= 0 else { throw Refused(description: "\(path)/\(name): cannot write: \(String(cString: strerror(errno)))") }
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(file, $0.baseAddress! + done, bytes.count - done) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                let why = String(cString: strerror(errno))
                close(file); unlinkat(fd, temp, 0)
                throw Refused(description: "\(path)/\(name): cannot write: \(why)")
            }
            done += n
        }
        close(file)
        guard renameat(fd, temp, fd, name) == 0 else {
            let why = String(cString: strerror(errno))
            unlinkat(fd, temp, 0)
            throw Refused(description: "\(path)/\(name): cannot write: \(why)")
        }
    }
}
