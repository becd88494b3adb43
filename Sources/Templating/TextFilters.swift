import CXML2
import Foundation

/// The text transforms service extensions apply, as Mustache sections that wrap text:
/// `{{#unescapeHTML}}…{{/unescapeHTML}}`, `{{#stripTags}}`, `{{#truncate:40}}`,
/// `{{#prefix:KEY}}` and `{{#suffix:KEY}}` (a string of the app's, by key, in the locale
/// drawn), `{{#hexColor:FFFFFF}}` (the text as a CSS colour when it is 6 or 8 hex digits, RRGGBB
/// or RRGGBBAA, with or without `#`, else the default given: a payload's colour put in a style
/// safely). A section's name is a filter only when the data has no key of that name. Its content
/// is rendered as text, transformed, and escaped again where the template is HTML.
/// (The body as the title when the title is empty needs no filter: `{{title}}{{^title}}{{body}}{{/title}}`.)
enum TextFilter {
    case unescapeHTML, stripTags
    case truncate(Int)
    case prefix(String), suffix(String)
    case hexColor(default: String)

    init?(_ name: String) {
        let parts = name.split(separator: ":", maxSplits: 1).map(String.init)
        switch (parts[0], parts.count) {
        case ("unescapeHTML", 1): self = .unescapeHTML
        case ("stripTags", 1): self = .stripTags
        case ("truncate", 2):
            guard let n = Int(parts[1]), n > 0, n <= 100_000 else { return nil }
            self = .truncate(n)
        case ("prefix", 2) where !parts[1].isEmpty: self = .prefix(parts[1])
        case ("suffix", 2) where !parts[1].isEmpty: self = .suffix(parts[1])
        case ("hexColor", 2) where Self.hexDigits(parts[1]) != nil: self = .hexColor(default: parts[1])
        default: return nil
        }
    }

    /// `localize` finds the app's string for a key (nil: the key is shown, as iOS shows a missing one).
    func apply(_ text: String, localize: (String) -> String?) -> String {
        switch self {
        case .unescapeHTML: return Self.unescape(text)
        case .stripTags: return Self.strip(text)
        case .truncate(let n):
            guard text.count > n else { return text }
            return String(text.prefix(n)).trimmingTrailingSpaces + "…"
        case .prefix(let key): return (localize(key) ?? key) + text
        case .suffix(let key): return text + (localize(key) ?? key)
        case .hexColor(let fallback): return "#" + (Self.hexDigits(text.trimmed) ?? Self.hexDigits(fallback)!)
        }
    }

    /// `RRGGBB` or `RRGGBBAA`, with or without a leading `#`: the digits; anything else nil.
    static func hexDigits(_ text: String) -> String? {
        let digits = text.hasPrefix("#") ? text.dropFirst() : Substring(text)
        guard digits.count == 6 || digits.count == 8, digits.allSatisfy({ $0.isASCII && $0.isHexDigit }) else { return nil }
        return String(digits)
    }

    /// Character references decoded: named ones from libxml2's HTML table, `&#N;` and `&#xH;`.
    static func unescape(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var out = "", rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            let after = rest[rest.index(after: amp)...]
            guard let semi = after.prefix(32).firstIndex(of: ";") else { out.append("&"); rest = after; continue }
            let name = String(after[..<semi])
            if let scalar = reference(name) { out.unicodeScalars.append(scalar) } else { out += "&" + name + ";" }
            rest = after[after.index(after: semi)...]
        }
        return out + rest
    }

    static func reference(_ name: String) -> Unicode.Scalar? {
        if name.hasPrefix("#x") || name.hasPrefix("#X") { return UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).flatMap(allowed) }
        if name.hasPrefix("#") { return UInt32(name.dropFirst(), radix: 10).flatMap(Unicode.Scalar.init).flatMap(allowed) }
        guard !name.isEmpty, name.utf8.allSatisfy({ ($0 >= 65 && $0 <= 90) || ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) }),
              let entity = name.withCString({ htmlEntityLookup(UnsafeRawPointer($0).assumingMemoryBound(to: xmlChar.self)) }) else { return nil }
        return Unicode.Scalar(entity.pointee.value)
    }

    /// A reference to NUL or a control character is not text.
    static func allowed(_ s: Unicode.Scalar) -> Unicode.Scalar? { s.value == 0 || (s.value < 0x20 && s != "\n" && s != "\t") ? nil : s }

    /// The text of an HTML fragment, tags gone, references decoded, script and style left out;
    /// block elements and `<br>` become line breaks.
    static func strip(_ html: String) -> String {
        guard html.contains("<") || html.contains("&") else { return html }
        guard let document = try? HTMLParser.parse(html, file: "text") else { return html }
        var out = ""
        func walk(_ e: Element) {
            for child in e.children {
                switch child {
                case .text(let t): out += t
                case .element(let c) where ["script", "style", "template"].contains(c.tag): continue
                case .element(let c) where c.tag == "br": out += "\n"
                case .element(let c):
                    walk(c)
                    if ["p", "div", "li", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "tr"].contains(c.tag), !out.hasSuffix("\n") { out += "\n" }
                }
            }
        }
        walk(document.body)
        return out.trimmingCharacters(in: .newlines)
    }
}

extension String {
    var trimmingTrailingSpaces: String { String(reversed().drop { $0 == " " }.reversed()) }
}
