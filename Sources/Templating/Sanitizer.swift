import Foundation

/// Takes out of a template everything that could run code or reach the network. What it
/// removes is reported with the template's file and line, never dropped silently.
public enum Sanitizer {
    static let forbiddenElements: Set<String> = ["script", "iframe", "object", "embed", "link", "meta", "base",
                                                  "frame", "frameset", "applet", "form", "noscript", "template"]
    static let urlAttributes: Set<String> = ["src", "href", "srcset", "poster", "background", "action", "formaction", "xlink:href"]

    /// `allowURL` decides which remaining URLs may stay (attachments, media, data:).
    public static func sanitize(_ document: HTMLDocument, allowURL: (String) -> Bool) -> HTMLDocument {
        var doc = document
        var warnings: [TemplateWarning] = []
        doc.body = clean(document.body, file: document.file, allowURL: allowURL, warnings: &warnings)
        for (i, sheet) in doc.styleSheets.enumerated() where sheet.text.lowercased().contains("url(") {
            let kept = CSSURLFilter.filter(sheet.text, allowURL: allowURL)
            if kept != sheet.text {
                warnings.append(TemplateWarning(file: doc.file, line: sheet.line, message: "removed a url() that is not an attachment, a media file or data: from <style>"))
                doc.styleSheets[i].text = kept
            }
        }
        doc.warnings += warnings
        return doc
    }

    private static func clean(_ element: Element, file: String, allowURL: (String) -> Bool, warnings: inout [TemplateWarning]) -> Element {
        var e = element
        e.attributes = element.attributes.filter { attribute in
            let name = attribute.name
            if name.hasPrefix("on") {
                warnings.append(TemplateWarning(file: file, line: element.line, message: "removed event handler \(name) from <\(element.tag)>: templates cannot run scripts"))
                return false
            }
            let value = attribute.value.trimmed.lowercased()
            if urlAttributes.contains(name) || (name == "style" && value.contains("url(")) {
                let ok = name == "style" ? CSSURLFilter.filter(attribute.value, allowURL: allowURL) == attribute.value : allowURL(attribute.value)
                if !ok {
                    warnings.append(TemplateWarning(file: file, line: element.line, message: "removed \(name)=\"\(attribute.value.prefix(60))\" from <\(element.tag)>: only attachments, media files and data: URLs can be shown"))
                    return false
                }
            }
            if name == "http-equiv" { return false }
            return true
        }
        e.children = element.children.compactMap { child in
            guard case .element(let c) = child else { return child }
            if forbiddenElements.contains(c.tag) {
                warnings.append(TemplateWarning(file: file, line: c.line, message: "removed <\(c.tag)>: templates cannot run scripts or load other documents"))
                return nil
            }
            return .element(clean(c, file: file, allowURL: allowURL, warnings: &warnings))
        }
        return e
    }

    /// The default policy: `data:` images and relative paths (resolved later against the
    /// attachments and media roots); never `javascript:`, never remote.
    public static func isLocalURL(_ url: String) -> Bool {
        let u = url.trimmed.lowercased()
        if u.hasPrefix("data:image/") { return true }
        if u.hasPrefix("//") || u.hasPrefix("\\\\") { return false }
        if let colon = u.firstIndex(of: ":"), !u[..<colon].contains("/") { return false } // any scheme
        return !u.contains("..")
    }
}

/// Finds `url(…)` in CSS text and replaces each one whose URL is not allowed by `none`.
enum CSSURLFilter {
    static func filter(_ css: String, allowURL: (String) -> Bool) -> String {
        var out = ""
        var rest = Substring(css)
        while let open = rest.range(of: "url(", options: .caseInsensitive) {
            let close = rest[open.upperBound...].firstIndex(of: ")") ?? rest.endIndex
            let end = close == rest.endIndex ? close : rest.index(after: close)
            var url = String(rest[open.upperBound..<close]).trimmed
            if url.count >= 2, let q = url.first, q == "\"" || q == "'", url.last == q { url = String(url.dropFirst().dropLast()) }
            out += rest[..<open.lowerBound]
            out += allowURL(url) ? rest[open.lowerBound..<end] : "none"
            rest = rest[end...]
        }
        return out + rest
    }
}
