import CFiles
import Foundation
import Synchronization

/// Writing beneath a confined folder: folders made a component at a time relative to the one
/// before, files written to a fresh temporary file (`O_CREAT|O_EXCL|O_NOFOLLOW`) and renamed over
/// the name — which replaces a link put there rather than writing through it — and removal that
/// never follows a link.
extension ConfinedFolder {
    /// Makes `path` and each folder on the way that is missing.
    public func makeFolders(_ path: String, links: Links? = nil) throws(FileRefusal) {
        var walked: [String] = []
        do throws(FileRefusal) {
            for name in path.split(separator: "/").map(String.init) where name != "." {
                guard name != ".." else { throw refusal(path, .badName) }
                walked.append(name)
                let (parent, last) = Self.split(walked.joined(separator: "/"))
                let dir = try resolve(parent, oPath | O_DIRECTORY, links: links)
                defer { close(dir.fd) }
                if mkdirat(dir.fd, last, 0o755) != 0 && errno != EEXIST { throw refusal(path, .system(errno)) }
            }
            // Then checked as a whole, so a link among them is refused with its name.
            close(try resolve(path, oPath | O_DIRECTORY, links: links).fd)
        } catch { throw refusal(path, error.reason) }
    }

    /// Writes `bytes` as `path` (its folders made): unchanged bytes leave the file as it is.
    public func write(_ bytes: [UInt8], to path: String) throws(FileRefusal) {
        let (parent, name) = Self.split(path)
        guard !name.isEmpty, name != ".", name != ".." else { throw refusal(path, .badName) }
        let dir: Opened
        do throws(FileRefusal) {
            if !parent.isEmpty { try makeFolders(parent) }
            dir = try resolve(parent, oPath | O_DIRECTORY)
        } catch { throw refusal(path, error.reason) }
        defer { close(dir.fd) }
        let existing = openat(dir.fd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        if existing >= 0 {
            let file = OpenFile(fd: existing, size: 0, name: join(path))
            var info = stat()
            if fstat(existing, &info) == 0, info.st_mode & S_IFMT == S_IFREG, Int(info.st_size) == bytes.count,
               file.readAll(limit: bytes.count) == bytes { return }
        }
        // Unique per process and write: lanes (threads or worker processes) may write one file at once.
        let temp = ".\(name.prefix(200)).\(getpid())-\(Self.serial.add(1, ordering: .relaxed).newValue).tmp"
        let fd = openat(dir.fd, temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw refusal(path, errno == ENAMETOOLONG ? .tooLong : .system(errno)) }
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + written, $0.count - written) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { let code = errno; close(fd); unlinkat(dir.fd, temp, 0); throw refusal(path, .system(code)) }
            written += n
        }
        guard close(fd) == 0 else { let code = errno; unlinkat(dir.fd, temp, 0); throw refusal(path, .system(code)) }
        guard renameat(dir.fd, temp, dir.fd, name) == 0 else { let code = errno; unlinkat(dir.fd, temp, 0); throw refusal(path, .system(code)) }
    }

    public func write(_ text: String, to path: String) throws(FileRefusal) { try write(Array(text.utf8), to: path) }
    public func write(_ bytes: [UInt8], to url: URL) throws(FileRefusal) { try write(bytes, to: try relative(url)) }
    public func write(_ text: String, to url: URL) throws(FileRefusal) { try write(Array(text.utf8), to: try relative(url)) }

    /// Removes `path` — a file, a link (never what it points to) or a folder with everything in
    /// it. Nothing there is no error.
    public func remove(_ path: String) throws(FileRefusal) {
        let (parent, name) = Self.split(path)
        guard !name.isEmpty, name != ".", name != ".." else { throw refusal(path, .badName) }
        let dir: Opened
        do { dir = try resolve(parent, oPath | O_DIRECTORY) } catch { if error.isMissing { return }; throw error }
        defer { close(dir.fd) }
        if Self.removeEntry(name, in: dir.fd) != 0 && errno != ENOENT { throw refusal(path, .system(errno)) }
    }

    public func remove(_ url: URL) throws(FileRefusal) { try remove(try relative(url)) }

    /// Moves `from` to `to` (both beneath this folder), replacing what `to` held when it is a file.
    public func move(_ from: String, to: String) throws(FileRefusal) {
        let (fromParent, fromName) = Self.split(from), (toParent, toName) = Self.split(to)
        if !toParent.isEmpty { try makeFolders(toParent) }
        let a = try resolve(fromParent, oPath | O_DIRECTORY)
        defer { close(a.fd) }
        let b = try resolve(toParent, oPath | O_DIRECTORY)
        defer { close(b.fd) }
        guard renameat(a.fd, fromName, b.fd, toName) == 0 else { throw refusal(from, .system(errno)) }
    }

    /// Makes `to` a second name of the file `from` (a hard link, both beneath this folder; no byte
    /// is read or copied), replacing what `to` held. A file written over `from` later (written
    /// files are renamed into place) leaves `to` as `from` was.
    public func link(_ from: String, to: String) throws(FileRefusal) {
        let (fromParent, fromName) = Self.split(from), (toParent, toName) = Self.split(to)
        guard !fromName.isEmpty, !toName.isEmpty, ![".", ".."].contains(fromName), ![".", ".."].contains(toName) else { throw refusal(to, .badName) }
        if !toParent.isEmpty { try makeFolders(toParent) }
        let a = try resolve(fromParent, oPath | O_DIRECTORY)
        defer { close(a.fd) }
        let b = try resolve(toParent, oPath | O_DIRECTORY)
        defer { close(b.fd) }
        let temp = ".\(toName.prefix(200)).\(getpid())-\(Self.serial.add(1, ordering: .relaxed).newValue).tmp"
        guard linkat(a.fd, fromName, b.fd, temp, 0) == 0 else { throw refusal(from, .system(errno)) }
        guard renameat(b.fd, temp, b.fd, toName) == 0 else { let code = errno; unlinkat(b.fd, temp, 0); throw refusal(to, .system(code)) }
    }

    /// Removes temp files a killed run left behind (`.NAME.PID-N.tmp`), anywhere beneath `path`.
    public func removeLeftovers(under path: String = "") {
        for file in files(under: path, hidden: true).files {
            let name = Self.split(file).name
            if name.hasPrefix("."), name.hasSuffix(".tmp") { try? remove(file) }
        }
    }

    /// unlinkat, and for a folder its contents first, every step relative to an open descriptor
    /// with O_NOFOLLOW.
    private static func removeEntry(_ name: String, in parent: Int32) -> Int32 {
        if unlinkat(parent, name, 0) == 0 { return 0 }
        guard errno == EISDIR || errno == EPERM else { return -1 }
        let dir = openat(parent, name, oPath | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard dir >= 0 else { return -1 }
        for child in (try? names(in: dir)) ?? [] { _ = removeEntry(child, in: dir) }
        close(dir)
        return unlinkat(parent, name, AT_REMOVEDIR)
    }

    static let serial = Atomic<Int>(0)
}

extension ConfinedFolder {
    /// A new empty file (replacing what is there, a link included), open for writing: for a child
    /// process's standard output.
    public func create(_ path: String, mode: mode_t = 0o644) throws(FileRefusal) -> FileHandle {
        let (parent, name) = Self.split(path)
        guard !name.isEmpty, name != ".", name != ".." else { throw refusal(path, .badName) }
        let dir = try resolve(parent, oPath | O_DIRECTORY)
        defer { close(dir.fd) }
        unlinkat(dir.fd, name, 0)
        let fd = openat(dir.fd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        guard fd >= 0 else { throw refusal(path, .system(errno)) }
        return FileHandle(fileDescriptor: fd, closeOnDealloc: true)
    }
}
