import Templating

/// A parsed CSS style sheet: rules in source order, with the line each declaration came from.
public struct Stylesheet: Sendable {
    public struct Declaration: Sendable, Equatable {
        public var property: String
        public var value: String
        public var important: Bool
        public var line: Int
    }
    public struct Rule: Sendable {
        public var selectors: [Selector]
        public var declarations: [Declaration]
        /// The @media block it is in (nil: none, it always applies).
        public var media: MediaCondition?
    }

    public var file: String
    public var rules: [Rule] = []
    /// `@font-face` rules (CSS Fonts 4 §4): a family name and the `url()`s of its files.
    public struct FontFace: Sendable, Equatable {
        public var family: String
        public var sources: [String]
        public var line: Int
    }
    public var fontFaces: [FontFace] = []
    public var warnings: [TemplateWarning] = []

    /// Parses `css`; `firstLine` is where it starts in the template (for messages).
    public init(_ css: String, file: String, firstLine: Int = 1) {
        self.file = file
        var scanner = CSSScanner(css, line: firstLine)
        parseRules(&scanner, media: nil, nested: false)
    }

    private mutating func parseRules(_ s: inout CSSScanner, media: MediaCondition?, nested: Bool) {
        while true {
            s.skipWhitespaceAndComments()
            if s.atEnd { return }
            if s.peek == "}" { if nested { s.advance(); return } else { warn(s.line, "unexpected } in CSS"); s.advance(); continue } }
            if s.peek == "@" {
                let line = s.line
                let prelude = s.read(until: ["{", ";"])
                if s.atEnd { warn(line, "\(prelude.trimmed.prefix(60)) is never closed: a { … } block or ; is missing at the end"); return }
                if s.peek == ";" { s.advance(); warn(line, "\(prelude.trimmed) is not supported; ignored"); continue }
                s.advance() // {
                let lower = prelude.lowercased()
                if lower.hasPrefix("@media"), let condition = MediaCondition.parse(lower) {
                    parseRules(&s, media: condition.and(media), nested: true)
                } else if lower.trimmed == "@font-face" {
                    let body = s.read(until: ["}"], nestedBraces: true)
                    s.advance()
                    fontFace(Self.declarations(body, line: line), line: line)
                } else {
                    warn(line, "\(prelude.trimmed) is not supported (\(MediaCondition.supportedNote)); its rules are ignored")
                    s.skipBlock()
                }
                continue
            }
            let line = s.line
            let selectorText = s.read(until: ["{"])
            guard !s.atEnd else { warn(line, "rule without a { … } block: \(selectorText.trimmed)"); return }
            s.advance()
            let body = s.read(until: ["}"], nestedBraces: true)
            let bodyLine = line + selectorText.filter { $0 == "\n" }.count
            // As CSS Syntax §5.4 says, the end of the sheet closes an open block: the rule applies.
            if s.atEnd { warn(line, "the rule \(selectorText.trimmed.prefix(60)) { is never closed: a } is missing at the end") }
            s.advance()
            guard let selectors = Selector.parseList(selectorText) else {
                warn(line, "selector \"\(selectorText.trimmed)\" is not supported (type, class, id, *, descendant and > child); rule ignored")
                continue
            }
            let declarations = Self.declarations(body, line: bodyLine)
            for d in declarations where !d.property.hasPrefix("--") && !PropertyParser.supported.contains(d.property) {
                warn(d.line, Self.unsupported(d))
            }
            rules.append(Rule(selectors: selectors, declarations: declarations, media: media))
        }
    }

    private mutating func fontFace(_ declarations: [Declaration], line: Int) {
        let family = declarations.last { $0.property == "font-family" }?.value.trimmed.trimmingCharacters(in: "\"'")
        let sources = (declarations.last { $0.property == "src" }?.value).map { splitTopLevel($0, separator: ",") } ?? []
        // Each source is `url(…)` with an optional `format(…)` after it; `local(…)` is skipped.
        let urls = sources.compactMap { splitTopLevel($0.trimmed, separator: " ").first.flatMap(PropertyParser.url) }
        guard let family, !family.isEmpty, !urls.isEmpty else {
            return warn(line, "@font-face needs a font-family and a src with a url() of the font file; ignored")
        }
        for d in declarations where !["font-family", "src", "font-display"].contains(d.property) {
            warn(d.line, "@font-face \(d.property) is not supported by the PNG renderer (the file's own weight and style are used)")
        }
        fontFaces.append(FontFace(family: family, sources: urls, line: line))
    }

    /// This sheet's rules confined to the element with `id` and what is inside it: `body` and
    /// `html` mean that element, and every other selector gets it as an ancestor. A content
    /// extension's view is its own: its CSS can never restyle what the system draws around it.
    public func scoped(toID id: String) -> Stylesheet {
        var out = self
        let scope = Selector.Compound(id: id)
        out.rules = rules.map { rule in
            var r = rule
            r.selectors = rule.selectors.map { s in
                var s = s
                if let first = s.parts.first, first.id == nil, first.tag == "body" || first.tag == "html" {
                    s.parts[0] = scope
                } else {
                    s.parts.insert(scope, at: 0)
                    s.combinators.insert(.descendant, at: 0)
                }
                return s
            }
            return r
        }
        return out
    }

    /// `a: b; c: d !important` — also the content of a `style` attribute.
    public static func declarations(_ text: String, line: Int) -> [Declaration] {
        var out: [Declaration] = []
        var currentLine = line
        for part in splitTopLevel(text, separator: ";") {
            defer { currentLine += part.filter { $0 == "\n" }.count }
            let leading = part.prefix { $0.isWhitespace }.filter { $0 == "\n" }.count
            guard let colon = part.firstIndex(of: ":") else { continue }
            let property = part[..<colon].trimmed.lowercased()
            var value = part[part.index(after: colon)...].trimmed
            var important = false
            if value.lowercased().hasSuffix("!important") {
                important = true
                value = String(value.dropLast("!important".count)).trimmed
            }
            guard !property.isEmpty, !value.isEmpty else { continue }
            out.append(Declaration(property: property.hasPrefix("--") ? String(part[..<colon].trimmed) : property,
                                   value: value, important: important, line: currentLine + leading))
        }
        return out
    }

    static func unsupported(_ d: Declaration) -> String {
        "CSS \(d.property): \(d.value) is not supported by the PNG renderer; it is ignored there and the browser may differ"
    }

    private mutating func warn(_ line: Int, _ message: String) {
        warnings.append(TemplateWarning(file: file, line: line, message: message))
    }
}

/// Splits at `separator` outside parentheses and quotes.
func splitTopLevel(_ text: String, separator: Character) -> [String] {
    var parts: [String] = [], current = "", depth = 0
    var quote: Character?
    for c in text {
        if let q = quote { current.append(c); if c == q { quote = nil }; continue }
        switch c {
        case "\"", "'": quote = c
        case "(": depth += 1
        case ")": depth = max(0, depth - 1)
        case separator where depth == 0: parts.append(current); current = ""; continue
        default: break
        }
        current.append(c)
    }
    parts.append(current)
    return parts
}

struct CSSScanner {
    let chars: [Character]
    var i = 0
    var line: Int
    init(_ text: String, line: Int) { chars = Array(text); self.line = line }
    var atEnd: Bool { i >= chars.count }
    /// nil at the end: the scanner never reads past it, however the sheet is cut short.
    var peek: Character? { i < chars.count ? chars[i] : nil }
    mutating func advance() {
        guard i < chars.count else { return }
        if chars[i] == "\n" { line += 1 }
        i += 1
    }

    mutating func skipWhitespaceAndComments() {
        while !atEnd {
            if peek?.isWhitespace == true { advance() }
            else if peek == "/", i + 1 < chars.count, chars[i + 1] == "*" {
                advance(); advance()
                while !atEnd, !(peek == "*" && i + 1 < chars.count && chars[i + 1] == "/") { advance() }
                if !atEnd { advance(); advance() }
            } else { return }
        }
    }

    /// Reads up to (not including) one of `stops`, skipping comments and strings.
    mutating func read(until stops: Set<Character>, nestedBraces: Bool = false) -> String {
        var out = ""
        var depth = 0
        var quote: Character?
        while !atEnd {
            let c = chars[i]
            if let q = quote { out.append(c); advance(); if c == q { quote = nil }; continue }
            if c == "/", i + 1 < chars.count, chars[i + 1] == "*" { skipWhitespaceAndComments(); out.append(" "); continue }
            if c == "\"" || c == "'" { quote = c }
            if nestedBraces && c == "{" { depth += 1 }
            if stops.contains(c) {
                if nestedBraces && c == "}" && depth > 0 { depth -= 1 } else { return out }
            }
            out.append(c)
            advance()
        }
        return out
    }

    mutating func skipBlock() {
        var depth = 1
        while !atEnd && depth > 0 {
            if peek == "{" { depth += 1 } else if peek == "}" { depth -= 1 }
            advance()
        }
    }
}

