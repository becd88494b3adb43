import Foundation

/// The one rule for every path an input names — a project's `appIcon`, `enrich.data`,
/// `decrypt.keys`, its app group and download cache, a payload's attachment, a template's image or
/// partial: the path is resolved the way the kernel will open it (symlinks followed, `..` after
/// them), relative and absolute alike, and must then lie inside one of the allowed folders
/// (themselves resolved). What is returned is the resolved file, so what is opened is what was
/// checked. The files an Xcode project names go through `Repository`, the same rule with the
/// repository as the one folder and case matched as a macOS volume matches it.
public enum Confinement {
    /// `path` (relative to `base`, or absolute) inside one of `roots`; nil when it lies outside
    /// them. The file need not exist yet (a cache entry about to be written).
    public static func file(_ path: String, relativeTo base: URL, within roots: [URL]) -> URL? {
        guard !path.isEmpty, !path.contains("\0") else { return nil }
        let candidate = path.hasPrefix("/") ? path : base.path + "/" + path
        guard let resolved = resolve(candidate) else { return nil }
        for root in roots {
            guard let r = resolve(root.path) else { continue }
            if resolved == r || resolved.hasPrefix(r == "/" ? "/" : r + "/") { return URL(fileURLWithPath: resolved) }
        }
        return nil
    }

    /// A URL a template gives for one of its own files, as a path relative to the project: percent
    /// escapes decoded and backslashes read as slashes (as browsers read them); nil for anything
    /// that is not a plain relative path (absolute, `..`, a scheme, `//host`).
    public static func relativeURLPath(_ url: String) -> String? {
        var u = url.trimmingCharacters(in: .whitespacesAndNewlines)
        if let cut = u.firstIndex(where: { $0 == "?" || $0 == "#" }) { u = String(u[..<cut]) }
        guard let decoded = u.removingPercentEncoding?.replacingOccurrences(of: "\\", with: "/"), !decoded.isEmpty,
              !decoded.contains("\0"), !decoded.hasPrefix("/"), !decoded.contains(":") else { return nil }
        let parts = decoded.split(separator: "/", omittingEmptySubsequences: false)
        guard !parts.contains("..") else { return nil }
        return parts.filter { !$0.isEmpty && $0 != "." }.joined(separator: "/")
    }

    /// The real path of `path`: symlinks resolved as the kernel resolves them; for a path that
    /// does not exist yet, its nearest existing folder resolved and the rest appended.
    static func resolve(_ path: String) -> String? {
        if let real = realpath(path, nil) {
            defer { free(real) }
            return String(cString: real)
        }
        guard errno == ENOENT else { return nil }
        let url = URL(fileURLWithPath: path)
        let last = url.lastPathComponent
        let parent = url.deletingLastPathComponent().path
        guard last != "..", last != ".", !last.isEmpty, parent != path, let base = resolve(parent) else { return nil }
        return (base == "/" ? "" : base) + "/" + last
    }
}
