import CFiles
import Foundation

/// The repository an Xcode app is read from, which may be a stranger's (a pull request from a
/// fork): a confined folder whose names are matched ignoring case as a macOS volume matches them.
/// Every file the Xcode model names is resolved and read through it, and never when it lies
/// outside `root`.
///
/// The root is the nearest folder at or above the one the user pointed at that holds `.git` (a
/// checkout, a worktree or a submodule), else that folder itself: a project's `$(SRCROOT)/../Shared`
/// is the repository's, a runner's home beside the checkout is not.
public struct Repository: Sendable, Equatable {
    /// The real path (symlinks resolved) of the repository's folder.
    public let root: URL
    /// The folder, held open; nil when it cannot be opened (then nothing is read).
    public let folder: ConfinedFolder?

    private let root_: String

    public init(root: URL) {
        root_ = TrustedFiles.realPath(root.standardizedFileURL.path) ?? root.standardizedFileURL.path
        self.root = URL(fileURLWithPath: root_)
        folder = try? ConfinedFolder(trusted: self.root, ignoringCase: true)
    }

    /// The repository around `folder` (a folder, or an `.xcodeproj`/`.xcworkspace`/spec inside one).
    public init(around folder: URL) {
        var start = folder.standardizedFileURL
        if !TrustedFiles.isFolder(start) || ["xcodeproj", "xcworkspace"].contains(start.pathExtension) { start = start.deletingLastPathComponent() }
        var dir = start
        while true {
            if TrustedFiles.exists(dir.appendingPathComponent(".git")) { self.init(root: dir); return }
            let up = dir.deletingLastPathComponent()
            if up.path == dir.path { break }
            dir = up
        }
        self.init(root: start)
    }

    public static func == (a: Repository, b: Repository) -> Bool { a.root_ == b.root_ }

    /// Why a path gives no file.
    public enum Refusal: Error, Equatable {
        case outside(resolved: String)
        /// A symbolic link to an absolute path (the link's path in the repository).
        case absoluteLink(String)
        /// Several entries differ from the spelling only in case.
        case ambiguous([String])
        case loop
        case tooLong
        case nul
        case unreadable(String)
    }

    /// A path resolved: the file to open, and — when a folder or file is spelled in another case
    /// than on disk — the first such, as spelled and as on disk (real paths).
    public struct Resolved: Equatable, Sendable {
        public var url: URL
        public var respelled: (spelled: String, onDisk: String)?
        public static func == (a: Resolved, b: Resolved) -> Bool { a.url == b.url && a.respelled?.spelled == b.respelled?.spelled && a.respelled?.onDisk == b.respelled?.onDisk }
    }

    /// `path` (relative to `base`, or absolute) as the kernel resolves it beneath the root —
    /// symlinks followed, `..` after them — where a component that does not exist as spelled is
    /// the one entry that matches it ignoring case. The file need not exist (the missing part is
    /// appended as spelled); it must lie inside `root`. `url` is the real path, by which the file
    /// is read again through `read`.
    public func resolve(_ path: String, relativeTo base: URL) -> Result<Resolved, Refusal> {
        guard !path.contains("\0") else { return .failure(.nul) }
        let full = path.hasPrefix("/") ? path : base.standardizedFileURL.path + "/" + path
        guard full.utf8.count < Int(PATH_MAX) else { return .failure(.tooLong) }
        guard let folder, let relative = beneath(full) else { return .failure(.outside(resolved: Self.describe(full))) }
        var existing = relative.split(separator: "/").map(String.init)
        var missing: [String] = []
        while true {
            do throws(FileRefusal) {
                let opened = try folder.resolve(existing.joined(separator: "/"), oPath)
                let real = TrustedFiles.descriptorPath(opened.fd)
                close(opened.fd)
                guard var current = real else { return .failure(.unreadable(full)) }
                for name in missing where name != "." {
                    if name == ".." { current = (current as NSString).deletingLastPathComponent } else { current += (current == "/" ? "" : "/") + name }
                }
                guard inside(current) else { return .failure(.outside(resolved: current)) }
                let respelled = opened.respelled.map { (spelled: join($0.spelled), onDisk: join($0.onDisk)) }
                return .success(Resolved(url: URL(fileURLWithPath: current), respelled: respelled))
            } catch {
                switch error.reason {
                case .missing:
                    guard let last = existing.popLast() else { return .failure(.unreadable(full)) }
                    missing.insert(last, at: 0)
                case .outside, .link: return .failure(.outside(resolved: Self.describe(full)))
                case .absoluteLink(let link):
                    // One that points outside is said as any path that leads out is; one that points inside, as itself.
                    let target = Beneath.readLink(folder.fd, link).map { URL(fileURLWithPath: $0).standardizedFileURL.path } ?? ""
                    return .failure(inside(target) ? .absoluteLink(join(link)) : .outside(resolved: Self.describe(full)))
                case .ambiguous(let names): return .failure(.ambiguous(names.map(join)))
                case .loop: return .failure(.loop)
                case .tooLong: return .failure(.tooLong)
                case .badName: return .failure(.nul)
                case .notAFolder(let component): return .failure(.unreadable(join(component) + " is not a folder"))
                default: return .failure(.unreadable(error.description))
                }
            }
        }
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
            case .absoluteLink(let link): why = "\(path): \(relative(link)) is a symbolic link to an absolute path, which is not followed (it would not resolve the same on another machine); not read"
            case .ambiguous(let names): why = "\(path) matches \(names.map(relative).joined(separator: " and ")), which differ only in case; not read"
            case .loop: why = "\(path): more than \(ConfinedFolder.maxLinks) symbolic links (a loop?); not read"
            case .tooLong: why = "a path longer than the system allows (\(path.utf8.count) bytes); not read"
            case .nul: why = "a path with a NUL byte; not read"
            case .unreadable(let what): why = "\(path): \(what); not read"
            }
            let said = "\(source): \(why)"
            if !problems.contains(said) { problems.append(said) }
            return nil
        }
    }

    // MARK: Reading what was resolved

    /// The bytes of a file inside the repository (a `Resolved.url`, or any path beneath the root,
    /// as named or through a link to it), opened beneath the root.
    public func read(_ url: URL, limit: Int = ConfinedFolder.defaultReadLimit) throws(FileRefusal) -> [UInt8] {
        let (folder, path) = try located(url)
        return try folder.read(path, limit: limit)
    }

    /// What `read` gives, or nil (missing, refused, too large).
    public func contents(_ url: URL, limit: Int = ConfinedFolder.defaultReadLimit) -> [UInt8]? { try? read(url, limit: limit) }

    /// A file inside the repository, open (for a reader that needs a descriptor).
    public func open(_ url: URL) throws(FileRefusal) -> OpenFile {
        let (folder, path) = try located(url)
        return try folder.open(path)
    }

    /// A folder inside the repository, held open.
    public func folder(_ url: URL) throws(FileRefusal) -> ConfinedFolder {
        let (folder, path) = try located(url)
        return try folder.folder(path)
    }

    /// What is at `url`, as the repository's folder sees it (nil: nothing there, or refused).
    public func kind(_ url: URL) -> ConfinedFolder.Kind? { (try? located(url)).flatMap { $0.folder.kind($0.path) } }
    public func exists(_ url: URL) -> Bool { kind(url) != nil }
    public func isFile(_ url: URL) -> Bool { if case .file? = kind(url) { return true } else { return false } }
    public func isFolder(_ url: URL) -> Bool { kind(url) == .folder }
    /// Whether the last component of `url` is itself a symbolic link.
    public func isLink(_ url: URL) -> Bool { (try? located(url)).map { $0.folder.isLink($0.path) } ?? false }
    /// The names in a folder, sorted (none when it is missing or refused).
    public func names(_ url: URL) -> [String] { (try? located(url)).flatMap { try? $0.folder.names($0.path) } ?? [] }

    private func located(_ url: URL) throws(FileRefusal) -> (folder: ConfinedFolder, path: String) {
        guard let folder else { throw FileRefusal(folder: root.path, path: url.path, .missing) }
        guard let path = beneath(url.standardizedFileURL.path) else { throw FileRefusal(folder: root.path, path: url.path, .outside) }
        return (folder, path)
    }

    /// Whether a real path is the root or lies below it.
    public func inside(_ real: String) -> Bool {
        real == root_ || real.hasPrefix(root_ == "/" ? "/" : root_ + "/")
    }

    /// Whether `url` resolves (links followed beneath the root) to a place inside the repository.
    public func contains(_ url: URL) -> Bool {
        if case .success = resolve(url.path, relativeTo: root) { return true }
        return false
    }

    /// A real path inside the repository as a path from its root.
    public func relative(_ real: String) -> String {
        inside(real) && real != root_ ? String(real.dropFirst(root_ == "/" ? 1 : root_.count + 1)) : real
    }

    /// An absolute path (not standardized: its `..` are the kernel's to take) as a path beneath the root.
    private func beneath(_ full: String) -> String? {
        if full == root_ { return "" }
        let prefix = root_ == "/" ? "/" : root_ + "/"
        if full.hasPrefix(prefix) { return String(full.dropFirst(prefix.count)) }
        // The path as given may spell the root through a link (a temporary folder, a home): its real folder decides.
        let standardized = URL(fileURLWithPath: full).standardizedFileURL.path
        var folder = (standardized as NSString).deletingLastPathComponent
        var rest = [(standardized as NSString).lastPathComponent]
        while folder != "/" && !folder.isEmpty {
            if let real = TrustedFiles.realPath(folder), inside(real) {
                let head = real == root_ ? [] : [relative(real)]
                return (head + rest).joined(separator: "/")
            }
            rest.insert((folder as NSString).lastPathComponent, at: 0)
            folder = (folder as NSString).deletingLastPathComponent
        }
        return nil
    }

    private func join(_ relative: String) -> String { relative.isEmpty ? root_ : root_ == "/" ? "/" + relative : root_ + "/" + relative }

    /// Where a refused path would lead, for the message only (nothing is opened).
    private static func describe(_ full: String) -> String {
        TrustedFiles.realPath(full) ?? URL(fileURLWithPath: full).standardizedFileURL.path
    }
}
