import Foundation

/// Each `url(…)` in CSS text mapped by `rewrite` and written quoted: a page's images, as the
/// template names them, become the copies written beside the page, in its style sheets and
/// `style` attributes as in its `src`s. What is not a whole `url(…)` is kept as it is.
public func rewritingCSSURLs(_ css: String, _ rewrite: (String) -> String) -> String {
    guard css.range(of: "url(", options: .caseInsensitive) != nil else { return css }
    var out = "", rest = Substring(css)
    while let open = rest.range(of: "url(", options: .caseInsensitive) {
        guard let (url, after) = cssURL(rest[open.upperBound...]) else { break }
        out += rest[..<open.lowerBound]
        out += "url(\"" + rewrite(url).replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\")"
        rest = after
    }
    return out + rest
}

/// The URL after `url(` (quoted or not, a `)` inside quotes being the URL's) and the text after
/// its `)`; nil when the function is not closed.
private func cssURL(_ text: Substring) -> (String, Substring)? {
    let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" }
    var at = text.drop(while: blank)
    let inner: Substring
    if let quote = at.first, quote == "\"" || quote == "'" {
        guard let end = at.dropFirst().firstIndex(of: quote) else { return nil }
        inner = at[at.index(after: at.startIndex)..<end]
        at = at[at.index(after: end)...].drop(while: blank)
    } else {
        guard let end = at.firstIndex(of: ")") else { return nil }
        inner = at[..<end]
        at = at[end...]
    }
    guard at.first == ")" else { return nil }
    return (inner.trimmingCharacters(in: .whitespacesAndNewlines), at.dropFirst())
}
