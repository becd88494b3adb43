import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A glob of an XcodeGen source's `excludes` or `includes`, read as Bash 4 with globstar reads
/// it (XcodeGen's own rule): relative to the source's folder, `*`, `?` and `[a-z]` within one
/// path component, `**` any number of folders (none included), `{a,b}` either. A pattern that
/// matches a folder takes everything inside it.
struct PathGlob {
    /// Each brace alternative, split into path components.
    let alternatives: [[String]]

    init(_ pattern: String) {
        var pattern = Substring(pattern)
        while pattern.hasPrefix("./") { pattern = pattern.dropFirst(2) }
        while pattern.hasSuffix("/") { pattern = pattern.dropLast() }
        alternatives = Self.expandBraces(String(pattern)).map { $0.split(separator: "/").map(String.init) }
    }

    /// Whether the pattern matches `path` (components relative to the source's folder) or a folder above it.
    func covers(_ path: [Substring]) -> Bool {
        alternatives.contains { pattern in (1...max(path.count, 1)).contains { Self.matches(pattern, path.prefix($0)) } }
    }

    /// Dynamic programming over (pattern component, path component): `**` takes none or more.
    static func matches(_ pattern: [String], _ path: ArraySlice<Substring>) -> Bool {
        let path = Array(path)
        var reach = [[Bool]](repeating: [Bool](repeating: false, count: path.count + 1), count: pattern.count + 1)
        reach[pattern.count][path.count] = true
        for i in stride(from: pattern.count - 1, through: 0, by: -1) {
            for j in stride(from: path.count, through: 0, by: -1) {
                if pattern[i] == "**" {
                    reach[i][j] = reach[i + 1][j] || (j < path.count && reach[i][j + 1])
                } else {
                    reach[i][j] = j < path.count && reach[i + 1][j + 1] && fnmatch(pattern[i], String(path[j]), 0) == 0
                }
            }
        }
        return reach[0][0]
    }

    /// `a{b,c}d` → `abd`, `acd` (nested braces too), at most 64 alternatives.
    static func expandBraces(_ pattern: String) -> [String] {
        let chars = Array(pattern)
        guard let open = chars.firstIndex(of: "{") else { return [pattern] }
        var depth = 0, parts: [String] = [], start = open + 1
        for i in (open + 1)..<chars.count {
            switch chars[i] {
            case "{": depth += 1
            case "}" where depth > 0: depth -= 1
            case "," where depth == 0:
                parts.append(String(chars[start..<i])); start = i + 1
            case "}":
                parts.append(String(chars[start..<i]))
                let head = String(chars[..<open]), tails = expandBraces(String(chars[(i + 1)...]))
                return Array(parts.flatMap { part in expandBraces(part).flatMap { middle in tails.map { head + middle + $0 } } }.prefix(64))
            default: break
            }
        }
        return [pattern] // an unclosed brace is a plain character
    }
}
