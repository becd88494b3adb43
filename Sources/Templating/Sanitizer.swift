import ConfinedFiles
import Foundation

/// Takes out of a template everything that could run code or reach the network. What it
/// removes is reported with the template's file and line, never dropped silently.
public enum Sanitizer {
    /// SVG's animation elements can rewrite any attribute (an `href`) after sanitizing.
    static let forbiddenElements: Set<String> = ["script", "iframe", "object", "embed", "link", "meta", "base",
                                                  "frame", "frameset", "applet", "form", "noscript", "template",
                                                  "set", "animate", "animatemotion", "animatetransform", "discard", "foreignobject"]
    /// Every attribute a browser reads as a URL to load, follow or ping.
    static let urlAttributes: Set<String> = ["src", "href", "srcset", "lowsrc", "dynsrc", "poster", "background", "action", "formaction",
                                             "xlink:href", "ping", "cite", "longdesc", "usemap", "data", "codebase", "archive", "manifest",
                                             "icon", "profile", "classid", "itemtype", "srcdoc", "attributionsrc"]

    /// `allowURL` gives the form of a remaining URL to keep (an attachment, a media file, a
    /// `data:` image) — what was checked is what is written — or nil to remove it.
    public static func sanitize(_ document: HTMLDocument, allowURL: (String) -> String?) -> HTMLDocument {
        var doc = document
        var warnings: [TemplateWarning] = []
        doc.body = clean(document.body, file: document.file, allowURL: allowURL, warnings: &warnings)
        for (i, sheet) in doc.styleSheets.enumerated() where Self.mentionsURL(sheet.text) {
            let filtered = CSSURLFilter.filter(sheet.text, allowURL: allowURL)
            if filtered.removed {
                warnings.append(TemplateWarning(file: doc.file, line: sheet.line, message: "removed a url() that is not an attachment, a file inside the media folders or a data: image from <style>"))
            }
            doc.styleSheets[i].text = filtered.css
        }
        doc.warnings += warnings
        return doc
    }

    /// Whether CSS text holds `url(` in any case: a byte scan (every style sheet and style
    /// attribute of every page comes here, and most have none).
    static func mentionsURL(_ css: String) -> Bool {
        var text = css
        return text.withUTF8 { bytes in
            guard bytes.count >= 4 else { return false }
            for i in 0...(bytes.count - 4) where bytes[i] | 0x20 == 0x75 && bytes[i + 1] | 0x20 == 0x72 && bytes[i + 2] | 0x20 == 0x6C && bytes[i + 3] == 0x28 {
                return true
            }
            return false
        }
    }

    private static func clean(_ element: Element, file: String, allowURL: (String) -> String?, warnings: inout [TemplateWarning]) -> Element {
        var e = element
        e.attributes = element.attributes.filter { attribute in
            let name = attribute.name
            if name.hasPrefix("on") {
                warnings.append(TemplateWarning(file: file, line: element.line, message: "removed event handler \(name) from <\(element.tag)>: templates cannot run scripts"))
                return false
            }
            if name == "http-equiv" { return false }
            return true
        }
        for (i, attribute) in e.attributes.enumerated().reversed() {
            let name = attribute.name
            let kept: String?
            if name == "style" && Self.mentionsURL(attribute.value) {
                let filtered = CSSURLFilter.filter(attribute.value, allowURL: allowURL)
                kept = filtered.removed ? nil : filtered.css
            } else if urlAttributes.contains(name) || name.hasSuffix(":href") {
                kept = name == "src" || name == "href" || name.hasSuffix(":href") || name == "poster" || name == "background" ? allowURL(attribute.value) : nil
            } else { continue }
            if let kept { e.attributes[i].value = kept; continue }
            warnings.append(TemplateWarning(file: file, line: element.line, message: "removed \(name)=\"\(attribute.value.prefix(60))\" from <\(element.tag)>: only attachments, files inside the media folders and data: images can be shown"))
            e.attributes.remove(at: i)
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

    /// The policy without a project: `data:` images as they are, and plain relative paths
    /// (percent escapes decoded, backslashes as slashes) that stay below the page; never
    /// absolute, never `..`, never a scheme.
    public static func localURL(_ url: String) -> String? {
        if url.trimmed.lowercased().hasPrefix("data:image/") { return url.trimmed }
        return Confinement.relativeURLPath(url)
    }
}

/// Finds `url(…)` in CSS text and replaces each one whose URL is not allowed by `none`.
enum CSSURLFilter {
    static func filter(_ css: String, allowURL: (String) -> String?) -> (css: String, removed: Bool) {
        var out = "", removed = false
        var rest = Substring(css)
        while let open = rest.range(of: "url(", options: .caseInsensitive) {
            let close = rest[open.upperBound...].firstIndex(of: ")") ?? rest.endIndex
            let end = close == rest.endIndex ? close : rest.index(after: close)
            var url = String(rest[open.upperBound..<close]).trimmed
            if url.count >= 2, let q = url.first, q == "\"" || q == "'", url.last == q { url = String(url.dropFirst().dropLast()) }
            out += rest[..<open.lowerBound]
            if let kept = allowURL(url), !kept.contains(where: { "\"'()\\\n".contains($0) }) { out += "url(\"\(kept)\")" } else { out += "none"; removed = true }
            rest = rest[end...]
        }
        return (out + rest, removed)
    }
}
