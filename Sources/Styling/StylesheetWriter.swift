import Templating

/// CSS text back from a parsed sheet, for the HTML page: only the rules that apply to one
/// screen, appearance and accessibility setting (so the browser and the PNG use the same ones) and
/// only supported syntax.
extension Stylesheet {
    /// `fontURL` gives where the page finds a @font-face file (nil: the face is left out).
    /// `rewriteURL` maps each `url()` of a declaration (a page's image to the copy beside it).
    public func css(for screen: MediaFeatures, fontURL: (String) -> String? = { _ in nil }, rewriteURL: (String) -> String = { $0 }) -> String {
        let faces = fontFaces.compactMap { face in
            face.sources.lazy.compactMap(fontURL).first.map { #"@font-face { font-family: "\#(face.family)"; src: url("\#($0)") }"# }
        }
        return (faces + rules.filter { $0.applies(on: screen) }.map { rule in
            let selectors = rule.selectors.map(\.css).joined(separator: ", ")
            let body = rule.declarations.map { "\($0.property): \(rewritingCSSURLs($0.value, rewriteURL))\($0.important ? " !important" : "")" }.joined(separator: "; ")
            return "\(selectors) { \(body) }"
        }).joined(separator: "\n")
    }
}

extension Selector {
    public var css: String {
        var out = ""
        for (i, part) in parts.enumerated() {
            if i > 0 { out += combinators[i - 1] == .child ? " > " : " " }
            out += part.css
        }
        return out
    }
}

extension Selector.Compound {
    public var css: String {
        let text = (tag ?? "") + (id.map { "#" + $0 } ?? "") + classes.map { "." + $0 }.joined()
        return text.isEmpty ? "*" : text
    }
}
