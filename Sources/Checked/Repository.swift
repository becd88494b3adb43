import Foundation

/// The repository an Xcode app is read from, which may be a stranger's (a pull request from a
/// fork): every file the Xcode model names is handed out by `file(_:relativeTo:namedIn:problems:)`,
/// resolved as macOS would open it, and never when it lies outside `root`.
///
/// The root is the nearest folder at or above the one the user pointed at that holds `.git` (a
/// checkout, a worktree or a submodule), else that folder itself: a project's `$(SRCROOT)/../Shared`
/// is the repository's, a runner's home beside the checkout is not.
public struct Repository: Sendable, Equatable {
    /// The real path (symlinks resolved) of the repository's folder.
    public let root: URL

    /// Symlinks followed in one path before it is a loop (Linux's own limit).
    static let maxLinks = 40

    private let root_: String

    public init(root: URL) {
        root_ = Confinement.resolve(root.standardizedFileURL.path) ?? root.standardizedFileURL.path
        self.root = URL(fileURLWithPath: root_)
    }

    /// The repository around `folder` (a folder, or an `.xcodeproj`/`.xcworkspace`/spec inside one).
    public init(around folder: URL) {
        var start = folder.standardizedFileURL
        var isFolder: ObjCBool = false
        if !FileManager.default.fileExists(atPath: start.path, isDirectory: &isFolder) || !isFolder.boolValue
            || ["xcodeproj", "xcworkspace"].contains(start.pathExtension) { start = start.deletingLastPathComponent() }
        var dir = start
        while true {
            if FileManager.default.fileExists(atPath: dir.appendingPathComponent(".git").path) { self.init(root: dir); return }
            let up = dir.deletingLastPathComponent()
            if up.path == dir.path { break }
            dir = up
        }
        self.init(root: start)
    }

    /// Why a path gives no file.
    public enum Refusal: Error, Equatable {
        case outside(resolved: String)
        /// Several entries differ from the spelling only in case.
        case ambiguous([String])
        case loop
        case tooLong
        case nul
    }

    /// A path resolved: the file to open, and — when a folder or file is spelled in another case
    /// than on disk — the first such, as spelled and as on disk (real paths).
    public struct Resolved: Equatable, Sendable {
        public var url: URL
        public var respelled: (spelled: String, onDisk: String)?
        public static func == (a: Resolved, b: Resolved) -> Bool { a.url == b.url && a.respelled?.spelled == b.respelled?.spelled && a.respelled?.onDisk == b.respelled?.onDisk }
    }

    /// `path` (relative to `base`, or absolute) as the kernel resolves it — symlinks followed, `..`
    /// after them — where a component that does not exist as spelled is the one entry that matches
    /// it ignoring case (as a macOS volume finds it). The file need not exist; it must lie inside `root`.
    public func resolve(_ path: String, relativeTo base: URL) -> Result<Resolved, Refusal> {
        guard !path.contains("\0") else { return .failure(.nul) }
        let full = path.hasPrefix("/") ? path : base.standardizedFileURL.path + "/" + path
        guard full.utf8.count < Int(PATH_MAX) else { return .failure(.tooLong) }
        var current = "" // the real path so far ("" is /)
        var rest = ArraySlice(full.split(separator: "/").map(String.init))
        var missing: [String] = [] // components below the first that does not exist, as spelled
        var links = 0
        var respelled: (spelled: String, onDisk: String)?
        while let name = rest.popFirst() {
            if name == "." { continue }
            if name == ".." {
                if missing.isEmpty { current = String(current[..<(current.lastIndex(of: "/") ?? current.startIndex)]) } else { missing.removeLast() }
                continue
            }
            if !missing.isEmpty { missing.append(name); continue }
            guard name.utf8.count <= Int(NAME_MAX) else { return .failure(.tooLong) }
            let next = current + "/" + name
            var info = stat()
            if lstat(next, &info) == 0 {
                guard info.st_mode & S_IFMT == S_IFLNK else { current = next; continue }
                links += 1
                guard links <= Self.maxLinks else { return .failure(.loop) }
                guard let target = Self.readLink(next) else { missing.append(name); continue }
                if target.hasPrefix("/") { current = "" }
                rest = ArraySlice(target.split(separator: "/").map(String.init)) + rest
                continue
            }
            if errno == ENAMETOOLONG { return .failure(.tooLong) }
            // Matched ignoring case only inside the repository: a folder outside it is not even listed.
            if errno == ENOENT, inside(current.isEmpty ? "/" : current) {
                let names = ((try? FileManager.default.contentsOfDirectory(atPath: current.isEmpty ? "/" : current)) ?? [])
                let lower = name.lowercased()
                let matches = names.filter { $0.lowercased() == lower }.sorted()
                if matches.count > 1 { return .failure(.ambiguous(matches.map { current + "/" + $0 })) }
                if let match = matches.first {
                    if respelled == nil { respelled = (next, current + "/" + match) }
                    rest.insert(match, at: rest.startIndex)
                    continue
                }
            }
            missing.append(name)
        }
        let resolved = ([current.isEmpty ? "" : current] + missing).joined(separator: "/")
        let final = resolved.isEmpty ? "/" : resolved
        guard inside(final) else { return .failure(.outside(resolved: final)) }
        let url = URL(fileURLWithPath: final)
        return .success(Resolved(url: url, respelled: respelled))
    }

    /// `path` as a file inside the repository, or nil; what stops it, or a spelling that differs
    /// in case, is said in `problems` as `source: …` (source: the file that names the path).
    public func file(_ path: String, relativeTo base: URL, namedIn source: String, problems: inout [String]) -> URL? {
        switch resolve(path, relativeTo: base) {
        case .success(let found):
            if let (spelled, onDisk) = found.respelled {
                // Said once per folder (or file) spelled differently, not for each file inside it.
                let said = "\(source): \(relative(spelled)) is spelled \(relative(onDisk)) on disk; read as a macOS volume (which ignores case) finds it, but Linux and case-sensitive volumes do not: rename one to match"
                if !problems.contains(said) { problems.append(said) }
            }
            return found.url
        case .failure(let refusal):
            let why: String
            switch refusal {
            case .outside(let resolved): why = "\(path) lies outside the repository \(root.path) (it resolves to \(resolved)); not read"
            case .ambiguous(let names): why = "\(path) matches \(names.map(relative).joined(separator: " and ")), which differ only in case; not read"
            case .loop: why = "\(path): more than \(Self.maxLinks) symbolic links (a loop?); not read"
            case .tooLong: why = "a path longer than the system allows (\(path.utf8.count) bytes); not read"
            case .nul: why = "a path with a NUL byte; not read"
            }
            let said = "\(source): \(why)"
            if !problems.contains(said) { problems.append(said) }
            return nil
        }
    }

    /// Whether a real path is the root or lies below it.
    public func inside(_ real: String) -> Bool {
        real == root_ || real.hasPrefix(root_ == "/" ? "/" : root_ + "/")
    }

    /// Whether `url` (symlinks resolved) lies inside the repository.
    public func contains(_ url: URL) -> Bool {
        Confinement.resolve(url.standardizedFileURL.path).map(inside) ?? false
    }

    /// A real path inside the repository as a path from its root.
    public func relative(_ real: String) -> String {
        inside(real) && real != root_ ? String(real.dropFirst(root_ == "/" ? 1 : root_.count + 1)) : real
    }

    static func readLink(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink(path, &buffer, Int(PATH_MAX))
        guard n > 0 else { return nil }
        return String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
