import CFiles
import Foundation

/// A folder held open by its descriptor, beneath which every file an input names is opened: a
/// repository, a project, its media roots, an output folder or cache. Paths are resolved
/// relative to the descriptor with the kernel refusing any that lead out (`Beneath`), and what
/// comes back is bytes or a descriptor — never a path to open later, so nothing can be swapped
/// between a check and an open. A symbolic link is followed only where it stays inside
/// (`followedInside`, for what a repository holds) or not at all (`refused`, for what pushpreview
/// writes and caches).
public final class ConfinedFolder: @unchecked Sendable {  // owns a descriptor, immutable after init
    public enum Links: Sendable { case followedInside, refused }

    /// The folder as it was named: messages say it, and URLs beneath it map to paths beneath it.
    public let url: URL
    public let links: Links
    /// Whether a name that is not on disk as spelled is the one entry that matches it ignoring
    /// case, as a macOS volume finds it (an Xcode project's paths).
    public let ignoringCase: Bool
    let fd: Int32

    /// Symlinks followed in one path before it is a loop (Linux's own limit).
    public static let maxLinks = 40
    /// What `read` takes unless told otherwise: no input file of a project is near it.
    public static let defaultReadLimit = 256 << 20

    private init(url: URL, fd: Int32, links: Links, ignoringCase: Bool) {
        self.url = url
        self.fd = fd
        self.links = links
        self.ignoringCase = ignoringCase
    }

    deinit { close(fd) }

    /// A folder the person running pushpreview named (a command's argument, the tool's own
    /// files), opened as named: its own path may hold links, what lies beneath it is confined.
    /// `create` makes it (and its parents) when missing.
    public convenience init(trusted url: URL, links: Links = .followedInside, ignoringCase: Bool = false, create: Bool = false) throws(FileRefusal) {
        let url = url.standardizedFileURL
        if create { try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
        let fd = Glibc.open(url.path, oPath | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else {
            throw FileRefusal(folder: url.path, path: "", errno == ENOENT ? .missing : errno == ENOTDIR ? .notAFolder(url.path) : .system(errno))
        }
        self.init(url: url, fd: fd, links: links, ignoringCase: ignoringCase)
    }

    /// A folder beneath this one, confined the same way (or as `links` says, never looser).
    /// `create` makes it and the folders on the way, refusing a link at any of them.
    public func folder(_ path: String, links: Links? = nil, create: Bool = false) throws(FileRefusal) -> ConfinedFolder {
        let links = links == .refused ? .refused : self.links
        if create { try makeFolders(path, links: links) }
        let opened = try resolve(path, oPath | O_DIRECTORY, links: links)
        return ConfinedFolder(url: url.appendingPathComponent(path).standardizedFileURL, fd: opened.fd, links: links, ignoringCase: ignoringCase)
    }

    /// What a file holds; refused when it is larger than `limit` (checked before reading).
    public func read(_ path: String, limit: Int = defaultReadLimit) throws(FileRefusal) -> [UInt8] {
        let file = try open(path)
        let size = file.size
        guard size <= limit else { throw refusal(path, .tooLarge(size: size, limit: limit)) }
        guard let bytes = file.readAll(limit: limit) else { throw refusal(path, .system(errno)) }
        return bytes
    }

    /// A file's first `count` bytes (fewer when it is shorter), without reading the rest.
    public func head(_ path: String, count: Int) throws(FileRefusal) -> [UInt8] {
        let file = try open(path)
        guard let bytes = file.readAll(limit: count) else { throw refusal(path, .system(errno)) }
        return bytes
    }

    /// A regular file, open for reading: for a reader that needs a descriptor (fontconfig, by
    /// `OpenFile.path`).
    public func open(_ path: String) throws(FileRefusal) -> OpenFile {
        // O_NONBLOCK: a FIFO put where a file was expected must not hang the open.
        let opened = try resolve(path, O_RDONLY | O_NONBLOCK)
        var info = stat()
        guard fstat(opened.fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(opened.fd)
            throw refusal(path, .notAFile)
        }
        return OpenFile(fd: opened.fd, size: Int(info.st_size), name: join(path))
    }

    public enum Kind: Equatable, Sendable { case file(size: Int), folder, other }

    /// What is at `path`, links followed as the folder follows them; nil when nothing is there or
    /// the path is refused.
    public func kind(_ path: String) -> Kind? {
        guard let opened = try? resolve(path, oPath) else { return nil }
        defer { close(opened.fd) }
        var info = stat()
        guard fstat(opened.fd, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .file(size: Int(info.st_size))
        case S_IFDIR: return .folder
        default: return .other
        }
    }

    public func isFile(_ path: String) -> Bool { if case .file? = kind(path) { return true } else { return false } }
    public func isFolder(_ path: String) -> Bool { kind(path) == .folder }

    /// A path spelled in another case than on disk, as spelled and as found (see `ignoringCase`).
    public func respelling(_ path: String) -> (spelled: String, onDisk: String)? {
        guard let opened = try? resolve(path, oPath) else { return nil }
        close(opened.fd)
        return opened.respelled
    }

    /// The names in a folder beneath this one, sorted; links among them are named, not followed
    /// (`kind` of each says where one leads, or that it is refused).
    public func names(_ path: String = "") throws(FileRefusal) -> [String] {
        let opened = try resolve(path, O_RDONLY | O_DIRECTORY)
        defer { close(opened.fd) }
        do { return try Self.names(in: opened.fd) } catch { throw refusal(path, .system(error.code)) }
    }

    /// `path`'s entries with what each is (a link as where it leads, nil when it is refused or
    /// dangles), sorted by name.
    public func entries(_ path: String = "") throws(FileRefusal) -> [(name: String, kind: Kind?)] {
        try names(path).map { (name: $0, kind: kind(path.isEmpty ? $0 : path + "/" + $0)) }
    }

    /// The paths of the regular files beneath `path` (relative to this folder, sorted), folders
    /// entered to `depth`, at most `limit` files; names starting with "." skipped when `hidden` is
    /// false. Links to files inside are listed; links to folders are not entered (no cycles); links
    /// that lead out (or dangle) are `refused`, for the caller to say.
    public func files(under path: String = "", depth: Int = 16, limit: Int = 100_000, hidden: Bool = false) -> (files: [String], truncated: Bool, refused: [String]) {
        var out: [String] = [], refused: [String] = []
        var truncated = false
        func visit(_ folder: String, _ level: Int) {
            guard level <= depth, !truncated, let entries = try? names(folder) else { return }
            for name in entries where hidden || !name.hasPrefix(".") {
                let child = folder.isEmpty ? name : folder + "/" + name
                switch kind(child) {
                case .file?:
                    guard out.count < limit else { truncated = true; return }
                    out.append(child)
                case .folder? where !isLink(child): visit(child, level + 1)
                case nil where isLink(child): refused.append(child)  // a link that leads out or dangles
                default: continue
                }
            }
        }
        visit(path, 0)
        return (out, truncated, refused)
    }

    /// Whether the last component of `path` is itself a symbolic link.
    public func isLink(_ path: String) -> Bool {
        let (parent, name) = Self.split(path)
        guard let dir = try? resolve(parent, oPath | O_DIRECTORY) else { return false }
        defer { close(dir.fd) }
        var info = stat()
        return fstatat(dir.fd, name, &info, AT_SYMLINK_NOFOLLOW) == 0 && info.st_mode & S_IFMT == S_IFLNK
    }

    // MARK: URLs beneath the folder

    /// `url`'s path relative to this folder, or nil when it does not lie beneath it (as written;
    /// `..` taken lexically — the open then refuses what leads out through links).
    public func relativePath(_ url: URL) -> String? {
        let path = url.standardizedFileURL.path, root = self.url.path
        if path == root { return "" }
        let prefix = root == "/" ? "/" : root + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : nil
    }

    /// The relative path of `url`, or the refusal that it lies outside.
    public func relative(_ url: URL) throws(FileRefusal) -> String {
        guard let path = relativePath(url) else { throw FileRefusal(folder: self.url.path, path: url.path, .outside) }
        return path
    }

    public func read(_ url: URL, limit: Int = defaultReadLimit) throws(FileRefusal) -> [UInt8] { try read(try relative(url), limit: limit) }
    public func open(_ url: URL) throws(FileRefusal) -> OpenFile { try open(try relative(url)) }
    public func kind(_ url: URL) -> Kind? { relativePath(url).flatMap { kind($0) } }
    public func isFile(_ url: URL) -> Bool { relativePath(url).map { isFile($0) } ?? false }
    public func isFolder(_ url: URL) -> Bool { relativePath(url).map { isFolder($0) } ?? false }
    public func folder(_ url: URL, create: Bool = false) throws(FileRefusal) -> ConfinedFolder { try folder(try relative(url), create: create) }
    public func names(_ url: URL) throws(FileRefusal) -> [String] { try names(try relative(url)) }

    // MARK: Inside

    struct Opened { var fd: Int32; var respelled: (spelled: String, onDisk: String)? }

    /// `links`: stricter than the folder's own, for a folder about to be written into.
    func resolve(_ path: String, _ flags: Int32, mode: mode_t = 0o644, links: Links? = nil) throws(FileRefusal) -> Opened {
        switch Beneath(folder: fd, links: links ?? self.links, ignoringCase: ignoringCase).open(path, flags: flags, mode: mode) {
        case .success(let o): return Opened(fd: o.fd, respelled: o.respelled)
        case .failure(let reason): throw refusal(path, reason)
        }
    }

    func refusal(_ path: String, _ reason: FileRefusal.Reason) -> FileRefusal { FileRefusal(folder: url.path, path: path, reason) }

    func join(_ path: String) -> String { path.isEmpty ? url.path : url.path == "/" ? "/" + path : url.path + "/" + path }

    /// `a/b/c` as (`a/b`, `c`); a bare name's parent is "".
    static func split(_ path: String) -> (parent: String, name: String) {
        let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
        guard let cut = trimmed.lastIndex(of: "/") else { return ("", trimmed) }
        return (String(trimmed[..<cut]), String(trimmed[trimmed.index(after: cut)...]))
    }

    /// The entries of an open folder (not `.` and `..`), sorted.
    static func names(in folder: Int32) throws(SystemError) -> [String] {
        let fd = openat(folder, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0, let dir = fdopendir(fd) else {
            let code = errno
            if fd >= 0 { close(fd) }
            throw SystemError(code: code)
        }
        defer { closedir(dir) }
        var out: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { out.append(name) }
        }
        return out.sorted()
    }

    struct SystemError: Error { var code: Int32 }
}

/// A regular file opened through a confined folder. `path` (`/proc/self/fd/N`) names this very
/// descriptor, for a C library that opens by name; it is valid while the value lives.
public final class OpenFile: @unchecked Sendable {  // owns a descriptor
    public let fd: Int32
    public let size: Int
    /// The file as the input named it (for messages).
    public let name: String

    init(fd: Int32, size: Int, name: String) {
        self.fd = fd
        self.size = size
        self.name = name
    }

    deinit { close(fd) }

    public var path: String { "/proc/self/fd/\(fd)" }

    /// Everything from the start, at most `limit` bytes (nil on a read error), read straight
    /// into the array: a file that grew since it was opened is read to the limit, one that
    /// shrank to its end.
    public func readAll(limit: Int = ConfinedFolder.defaultReadLimit) -> [UInt8]? {
        var out = [UInt8](repeating: 0, count: min(size, limit))
        var filled = 0
        while true {
            if filled == out.count {
                guard out.count < limit else { break }
                out += [UInt8](repeating: 0, count: min(1 << 16, limit - out.count))
            }
            let n = out.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + filled, $0.count - filled, off_t(filled)) }
            if n < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            guard n >= 0 else { return nil }
            if n == 0 { break }
            filled += n
        }
        out.removeLast(out.count - filled)
        return out
    }
}

extension ConfinedFolder {
    /// A file's modification time and size (`SECONDS.NANOSECONDS-SIZE`): what changes when it is
    /// written again, for a cache of what was read from it.
    public func stamp(_ path: String) -> String? {
        guard let opened = try? resolve(path, oPath) else { return nil }
        defer { close(opened.fd) }
        var info = stat()
        guard fstat(opened.fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return "\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)-\(info.st_size)"
    }
}
