/// Element trees back to HTML text, escaped; `rewriteURL` maps each `src` and each `url()` of a
/// `style` attribute (an attachment key to the file written beside the page, for example).
extension Element {
    static let voidElements: Set<String> = ["img", "br", "hr", "input", "source", "wbr", "col", "area", "track"]

    public func html(rewriteURL: (String) -> String = { $0 }, includeSelf: Bool = true) -> String {
        var out = ""
        write(to: &out, rewriteURL: rewriteURL, includeSelf: includeSelf)
        return out
    }

    private func write(to out: inout String, rewriteURL: (String) -> String, includeSelf: Bool) {
        if includeSelf {
            out += "<" + tag
            for a in attributes {
                let value = a.name == "src" ? rewriteURL(a.value) : a.name == "style" ? rewritingCSSURLs(a.value, rewriteURL) : a.value
                out += " \(a.name)=\"\(escapeHTML(value))\""
            }
            out += ">"
            if Self.voidElements.contains(tag) { return }
        }
        for child in children {
            switch child {
            case .text(let t): out += escapeHTML(t)
            case .element(let e): e.write(to: &out, rewriteURL: rewriteURL, includeSelf: true)
            }
        }
        if includeSelf { out += "</\(tag)>" }
    }
}
