import Foundation

/// Plain relative paths in URLs a template gives for its own files.
public enum Confinement {
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
}
