import Foundation

/// The folders one input may lead into — a project folder and the repository `"xcode"` names, a
/// project's media roots — each held open. A URL is opened beneath the deepest folder that holds
/// it by name; one held by none is refused before anything is opened.
public struct ConfinedRoots: Sendable {
    public let folders: [ConfinedFolder]

    public init(_ folders: [ConfinedFolder]) {
        // Deepest first, so a URL is read beneath the narrowest folder that names it.
        self.folders = folders.sorted { $0.url.path.count > $1.url.path.count }
    }

    /// The folders at these paths (as the person named them), those that exist.
    public init(trusted urls: [URL], links: ConfinedFolder.Links = .followedInside) {
        self.init(urls.compactMap { try? ConfinedFolder(trusted: $0, links: links) })
    }

    public static let none = ConfinedRoots([])

    /// The folder that holds `url` by name, and the path beneath it.
    public func locate(_ url: URL) -> (folder: ConfinedFolder, path: String)? {
        for folder in folders { if let path = folder.relativePath(url) { return (folder, path) } }
        return nil
    }

    private func located(_ url: URL) throws(FileRefusal) -> (folder: ConfinedFolder, path: String) {
        guard let found = locate(url) else { throw FileRefusal(folder: folders.first?.url.path ?? "/", path: url.path, .outside) }
        return found
    }

    public func read(_ url: URL, limit: Int = ConfinedFolder.defaultReadLimit) throws(FileRefusal) -> [UInt8] {
        let (folder, path) = try located(url)
        return try folder.read(path, limit: limit)
    }

    public func open(_ url: URL) throws(FileRefusal) -> OpenFile {
        let (folder, path) = try located(url)
        return try folder.open(path)
    }

    public func kind(_ url: URL) -> ConfinedFolder.Kind? { locate(url).flatMap { $0.folder.kind($0.path) } }
    public func isFile(_ url: URL) -> Bool { if case .file? = kind(url) { return true } else { return false } }
    public func isFolder(_ url: URL) -> Bool { kind(url) == .folder }
    public func exists(_ url: URL) -> Bool { kind(url) != nil }

    /// A folder beneath one of the roots, held open.
    public func folder(_ url: URL) throws(FileRefusal) -> ConfinedFolder {
        let (folder, path) = try located(url)
        return try folder.folder(path)
    }

    /// The names in a folder, sorted (none when it is refused or missing).
    public func names(_ url: URL) -> [String] {
        guard let (folder, path) = locate(url) else { return [] }
        return (try? folder.names(path)) ?? []
    }

    /// `path` (relative to `base`, or absolute) as a URL inside one of the folders: nil when it
    /// lies outside all of them by name, or its open is refused (a link leading out). A file that
    /// does not exist (yet) is still named: reading it then says so.
    public func file(_ path: String, relativeTo base: URL) -> URL? {
        guard !path.isEmpty, !path.contains("\0") else { return nil }
        let url = (path.hasPrefix("/") ? URL(fileURLWithPath: path) : base.appendingPathComponent(path)).standardizedFileURL
        guard let (folder, relative) = locate(url) else { return nil }
        // The path as given (its `..` after links are the kernel's to take) must resolve beneath the folder too.
        let given = path.hasPrefix("/") ? relative : (folder.relativePath(base).map { $0.isEmpty ? path : $0 + "/" + path } ?? relative)
        for candidate in Set([relative, given]) {
            do { close(try folder.resolve(candidate, oPath).fd) } catch {
                guard error.isMissing || error.reason == .notAFile else { return nil }
            }
        }
        return url
    }
}
