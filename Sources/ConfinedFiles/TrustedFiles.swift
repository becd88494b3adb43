import Foundation

/// Paths nobody else chose: what the person running pushpreview named on the command line, the
/// tool's own files (`Templates/`, fonts), temporary folders it made, `/proc`. These are opened as
/// named. Everything an input names — a repository's, a project's or a request's path — goes
/// through a `ConfinedFolder` instead (`make test` fails on a file-system call anywhere else).
public enum TrustedFiles {
    /// A regular file, open for reading.
    public static func open(_ url: URL) throws(FileRefusal) -> OpenFile {
        let path = url.path
        let fd = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw FileRefusal(folder: path, path: "", errno == ENOENT ? .missing : .system(errno)) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { close(fd); throw FileRefusal(folder: path, path: "", .notAFile) }
        return OpenFile(fd: fd, size: Int(info.st_size), name: path)
    }

    public static func read(_ url: URL, limit: Int = ConfinedFolder.defaultReadLimit) throws(FileRefusal) -> [UInt8] {
        let path = url.path
        let file = try open(url)
        guard file.size <= limit else { throw FileRefusal(folder: path, path: "", .tooLarge(size: file.size, limit: limit)) }
        guard let bytes = file.readAll(limit: limit) else { throw FileRefusal(folder: path, path: "", .system(errno)) }
        return bytes
    }

    public static func text(_ url: URL) -> String? { (try? read(url)).map { String(decoding: $0, as: UTF8.self) } }

    public static func exists(_ url: URL) -> Bool { FileManager.default.fileExists(atPath: url.path) }

    public static func isFolder(_ url: URL) -> Bool {
        var folder: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &folder) && folder.boolValue
    }

    public static func isExecutable(_ url: URL) -> Bool { FileManager.default.isExecutableFile(atPath: url.path) }

    /// The names in a folder, sorted (none when it cannot be listed).
    public static func names(in url: URL) -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted() }

    /// The regular files beneath a folder (hidden ones skipped), sorted by path.
    public static func files(under url: URL) -> [URL] {
        guard let folder = try? ConfinedFolder(trusted: url) else { return [] }
        return folder.files(under: "", limit: 1_000_000).files.map { url.appendingPathComponent($0) }
    }

    public static func makeFolder(_ url: URL) throws {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// A new folder of the process's own under the temporary folder (TMPDIR).
    public static func temporaryFolder(_ prefix: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
        return url
    }

    /// Removes a file or folder of the process's own (links themselves, never what they point to).
    public static func remove(_ url: URL) { try? FileManager.default.removeItem(at: url) }

    public static func write(_ bytes: [UInt8], to url: URL) throws {
        let folder = try ConfinedFolder(trusted: url.deletingLastPathComponent(), links: .refused, create: true)
        try folder.write(bytes, to: url.lastPathComponent)
    }

    /// Where `--out` leads, made if missing. A relative path is made beneath the current folder
    /// with no link followed at any component (a clone that commits `Output` as a link to a folder
    /// elsewhere has it refused); an absolute one is the person's own, taken as named.
    public static func outputFolder(_ path: String) throws(FileRefusal) -> URL {
        if path.hasPrefix("/") { return URL(fileURLWithPath: path).standardizedFileURL }
        let here = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let cwd = try ConfinedFolder(trusted: here, links: .refused)
        try cwd.makeFolders(path)
        return here.appendingPathComponent(path).standardizedFileURL
    }

    /// A file `--out` names: its folder as `outputFolder` makes it, the file written beneath it.
    public static func writeOutput(_ bytes: [UInt8], to path: String) throws(FileRefusal) -> URL {
        let (parent, name) = ConfinedFolder.split(path)
        let folder = try outputFolder(parent.isEmpty ? (path.hasPrefix("/") ? "/" : ".") : parent)
        try ConfinedFolder(trusted: folder, links: .refused).write(bytes, to: name)
        return folder.appendingPathComponent(name)
    }

    /// The real path of an existing path (links resolved), for messages and for finding a root.
    public static func realPath(_ path: String) -> String? {
        guard let real = realpath(path, nil) else { return nil }
        defer { free(real) }
        return String(cString: real)
    }

    /// The real path of what a descriptor has open.
    static func descriptorPath(_ fd: Int32) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/self/fd/\(fd)", &buffer, Int(PATH_MAX))
        guard n > 0 else { return nil }
        return String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
