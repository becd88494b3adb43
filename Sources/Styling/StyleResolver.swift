import Templating
import Typography

/// An element with its computed style, and its children.
public struct StyledElement: Sendable {
    public var element: Element
    public var style: ComputedStyle
    public var children: [StyledNode]
    /// This element's number in document order (from 1; 0 for boxes layout makes up), so that
    /// layout can remember what it measured.
    public var serial: Int
    public init(element: Element, style: ComputedStyle, children: [StyledNode], serial: Int = 0) {
        self.element = element; self.style = style; self.children = children; self.serial = serial
    }
}

public enum StyledNode: Sendable {
    case element(StyledElement)
    case text(String)
}

public enum Appearance: String, Sendable, CaseIterable, Codable { case light, dark }

/// The cascade (CSS Cascade 4 §6): matching rules sorted by importance, specificity and order,
/// inline `style` last; inherited properties flow down; `var()` resolves against custom properties.
public struct StyleResolver: Sendable {
    public let sheets: [Stylesheet]
    /// The screen the @media rules are asked about.
    public let media: MediaFeatures
    /// The screen the page is laid out for (DeviceScale): every computed style carries it.
    public let deviceScale: DeviceScale
    public static let rootFontSize = 16.0

    /// Every rule in cascade order, with where its declarations start in that order.
    private let rules: [(rule: Stylesheet.Rule, file: String, order: Int)]
    /// The rules an element can match, by the id (`#x`), class (`.x`) or tag of their selectors'
    /// rightmost compounds; `anyElement`: those with a bare `*` there. An element is matched
    /// against its candidates only, not against every rule of every sheet.
    private let byKey: [String: [Int]], anyElement: [Int]
    private let declarationCount: Int
    /// How many of `rules` are the user-agent sheet's: they lose to every author declaration
    /// whatever their specificity (CSS Cascade 4 §6.1, origin before specificity).
    private let userAgentRules: Int

    /// `sheets` in cascade order; the user-agent sheet is put first. `deviceScale`: the device's
    /// (2 or 3) for a mock-up; 1 lays out as a screen of CSS pixels.
    public init(sheets: [Stylesheet], media: MediaFeatures, deviceScale: DeviceScale = .one) {
        self.sheets = [UserAgentStyle.sheet] + sheets
        self.media = media
        self.deviceScale = deviceScale
        var rules: [(rule: Stylesheet.Rule, file: String, order: Int)] = [], byKey: [String: [Int]] = [:], any: [Int] = [], order = 0
        var userAgentRules = 0
        for (number, sheet) in self.sheets.enumerated() {
            defer { if number == 0 { userAgentRules = rules.count } }
            for rule in sheet.rules {
                defer { order += rule.declarations.count }
                guard rule.applies(on: media) else { continue }
                let i = rules.count
                rules.append((rule, sheet.file, order))
                for selector in rule.selectors {
                    let last = selector.parts.last!
                    if let key = last.id.map({ "#" + $0 }) ?? last.classes.first.map({ "." + $0 }) ?? last.tag {
                        if byKey[key]?.last != i { byKey[key, default: []].append(i) }
                    } else if any.last != i { any.append(i) }
                }
            }
        }
        self.rules = rules; self.byKey = byKey; anyElement = any; declarationCount = order
        self.userAgentRules = userAgentRules
    }

    /// For a screen with no accessibility setting.
    public init(sheets: [Stylesheet], appearance: Appearance, deviceScale: DeviceScale = .one) {
        self.init(sheets: sheets, media: MediaFeatures(appearance: appearance), deviceScale: deviceScale)
    }

    /// `fonts` measure the `ch` and `ex` units; without them those lengths are warned about.
    public func resolve(_ body: Element, file: String, fonts: FontSystem? = nil) -> (StyledElement, [TemplateWarning]) {
        var warnings: [TemplateWarning] = []
        var root = ComputedStyle()
        root.display = .block
        root.deviceScale = deviceScale
        var serial = 0
        let styled = resolve(body, parent: root, parentDeclared: [:], ancestors: [], file: file, fonts: fonts, serial: &serial, warnings: &warnings)
        return (styled, warnings)
    }

    /// `parentDeclared`: the parent's cascaded value of each property it declares, which `inherit`
    /// takes for a property that is not inherited.
    private func resolve(_ element: Element, parent: ComputedStyle, parentDeclared: [String: String], ancestors: [Selector.Subject], file: String, fonts: FontSystem?,
                         serial: inout Int, warnings: inout [TemplateWarning]) -> StyledElement {
        serial += 1
        let number = serial
        var matched: [(decl: Stylesheet.Declaration, author: Bool, rank: Int, order: Int, file: String)] = []
        var order = declarationCount
        let subject = Selector.Subject(element)
        var candidates = anyElement + (byKey[subject.tag] ?? [])
        if let id = subject.id { candidates += byKey["#" + id] ?? [] }
        for name in subject.classes { candidates += byKey["." + name] ?? [] }
        for i in Set(candidates).sorted() {
            let (rule, file, first) = rules[i]
            let best = rule.selectors.filter { $0.matches(subject, ancestors: ancestors[...]) }.map(\.specificity).max()
            guard let specificity = best else { continue }
            for (j, d) in rule.declarations.enumerated() { matched.append((d, i >= userAgentRules, specificity, first + j, file)) }
        }
        for d in UserAgentStyle.presentationalHints(of: element) { matched.append((d, false, 0, order, element.file ?? file)); order += 1 }
        if let inline = element[attribute: "style"] {
            for d in Stylesheet.declarations(inline, line: element.line) { matched.append((d, true, 1_000_000, order, element.file ?? file)); order += 1 }
        }
        matched.sort { ($0.decl.important ? 1 : 0, $0.author ? 1 : 0, $0.rank, $0.order) < ($1.decl.important ? 1 : 0, $1.author ? 1 : 0, $1.rank, $1.order) }

        var style = parent.inherited()
        let parser = PropertyParser(rootFontSize: Self.rootFontSize, parent: parent, fonts: fonts)
        for m in matched where m.decl.property.hasPrefix("--") { style.customProperties[m.decl.property] = m.decl.value }
        // The font first: em, ch and ex lengths in the same rule depend on it.
        // Flow-relative properties map to physical sides by the element's own direction.
        let rightToLeft = matched.last { $0.decl.property == "direction" }.map { $0.decl.value.trimmed.lowercased() == "rtl" } ?? parent.rightToLeft
        let font: Set<String> = ["font", "font-size", "font-family", "font-weight", "font-style"]
        // Each declaration in cascade order, its variables substituted and its sides physical.
        var cascaded: [(property: String, value: String, m: (decl: Stylesheet.Declaration, author: Bool, rank: Int, order: Int, file: String))] = []
        for m in matched.filter({ font.contains($0.decl.property) }) + matched.filter({ !font.contains($0.decl.property) && !$0.decl.property.hasPrefix("--") }) {
            let value = substituteVariables(m.decl.value, style.customProperties)
            let physical = LogicalProperties.physical(m.decl.property, value, rightToLeft: rightToLeft) ?? [(m.decl.property, value)]
            for (property, value) in physical {
                // A CSS-wide keyword (CSS Cascade 4 §7.3) wins over what came before it: the value
                // is then the parent's (inherit), the initial one, or either as the property goes.
                if let keyword = CSSWideKeyword(rawValue: value.trimmed.lowercased()) {
                    // An element starts with its parent's inherited properties and the initial
                    // value of the rest, so only the other two cases are declared again.
                    cascaded.removeAll { $0.property == property }
                    // A shorthand declared earlier, or a longhand of this one, is not taken apart.
                    if let other = cascaded.last(where: { property.hasPrefix($0.property + "-") || $0.property.hasPrefix(property + "-") })?.property {
                        let warning = TemplateWarning(file: m.file, line: m.decl.line, message: "\(property): \(keyword.rawValue) after \(other) in the same element's rules is not supported; \(other) is applied as declared")
                        if !warnings.contains(warning) { warnings.append(warning) }
                    }
                    let inherited = ComputedStyle.inheritedProperties.contains(property)
                    switch keyword.resolved(inherited: inherited) {
                    case .inherit: if !inherited, let given = parentDeclared[property] { cascaded.append((property, given, m)) }
                    case .initial:
                        guard inherited else { continue }
                        if let initial = ComputedStyle.initialValues[property] { cascaded.append((property, initial, m)) } else {
                            let warning = TemplateWarning(file: m.file, line: m.decl.line, message: "\(property): initial is not supported; the parent's value is kept")
                            if !warnings.contains(warning) { warnings.append(warning) }
                        }
                    case .unset: break
                    }
                } else {
                    cascaded.append((property, value, m))
                }
            }
        }
        var declared: [String: String] = [:]
        var refused: Set<Int> = []
        for (property, value, m) in cascaded {
            declared[property] = value
            // Unknown properties in sheets were reported when the sheet was read; inline ones and
            // those an attribute gives here.
            let fromAttribute = !m.author && m.file != UserAgentStyle.file
            if !parser.apply(property, value, to: &style), !refused.contains(m.order),
               PropertyParser.supported.contains(m.decl.property) || m.rank == 1_000_000 || fromAttribute {
                refused.insert(m.order)
                let warning = TemplateWarning(file: m.file, line: m.decl.line, message: Stylesheet.unsupported(m.decl))
                if !warnings.contains(warning) { warnings.append(warning) }
            }
        }
        if let number = style.lineHeightNumber { style.lineHeight = (number * style.fontSize).clampedLength }
        style.borderWidth = style.borderWidth.map(deviceScale.lineWidth)
        if style.legacyBox && !(style.legacyBoxVertical && style.lineClamp != nil) { legacyFlexBox(&style, element, file: file, warnings: &warnings) }
        // CSS 2.1 §9.7: an absolute box does not float, nor does a flex or grid item (Flexbox §4);
        // a float is a block-level box.
        if style.position == .absolute || parent.display == .flex || parent.display == .grid { style.float = nil }
        if style.float != nil {
            if style.display == .inline || style.display == .inlineBlock { style.display = .block }
            style.inlineLevel = false
        }
        // An inline box's edges take room in its line (layout), but nothing paints its box.
        if style.display == .inline, parent.display != .flex, parent.display != .grid,
           style.backgroundColor.a > 0 || style.backgroundGradient != nil || style.backgroundImage != nil || !style.boxShadows.isEmpty
            || zip(style.borderWidth, style.borderColor).contains(where: { $0 > 0 && $1.a > 0 }) {
            let warning = TemplateWarning(file: element.file ?? file, line: element.line,
                                          message: "<\(element.tag)>: backgrounds, borders and shadows of inline boxes are not drawn (display: inline); display: inline-block draws them")
            if !warnings.contains(warning) { warnings.append(warning) }
        }

        var children: [StyledNode] = []
        let path = ancestors + [subject]
        var ordinal = 0
        for child in element.children {
            switch child {
            case .text(let t): children.append(.text(t))
            case .element(let e):
                var styled = resolve(e, parent: style, parentDeclared: declared, ancestors: path, file: file, fonts: fonts, serial: &serial, warnings: &warnings)
                // The list-item counter (CSS Lists 3 §4.4): each item among its siblings from 1.
                if styled.style.listItem && styled.style.display != .none { ordinal += 1; styled.style.listOrdinal = ordinal }
                // display: contents (Display 3 §2.5): no box of its own, its children in its place.
                if styled.style.display == .contents { children += styled.children } else { children.append(.element(styled)) }
            }
        }
        if style.display != .inline, style.display != .flex, style.display != .grid { warnFloatsInLines(children, file: file, warnings: &warnings) }
        return StyledElement(element: element, style: style, children: children, serial: number)
    }

    /// `display: -webkit-box` or `-webkit-inline-box` outside the line-clamp idiom: Blink lays it out
    /// as a flex container (inline-level for the inline one) in the direction -webkit-box-orient gives,
    /// with the legacy box's own rules, which are not laid out here (so a warning says so).
    private func legacyFlexBox(_ style: inout ComputedStyle, _ element: Element, file: String, warnings: inout [TemplateWarning]) {
        let inline = style.display == .inlineBlock
        style.display = .flex
        style.inlineLevel = inline
        style.flexDirection = style.legacyBoxVertical ? .column : .row
        let value = inline ? "-webkit-inline-box" : "-webkit-box"
        let warning = TemplateWarning(file: element.file ?? file, line: element.line,
                                      message: "<\(element.tag)>: display: \(value) without -webkit-box-orient: vertical and -webkit-line-clamp is laid out as \(inline ? "inline-flex" : "flex") with items that never grow or shrink and inline children kept in lines; the rest of Blink's legacy box model is not supported")
        if !warnings.contains(warning) { warnings.append(warning) }
    }

    /// Layout places a float met in a block's inline content at the top of the paragraph it is in,
    /// which is where Chromium puts it when nothing in its line comes before it; one after text, an
    /// inline box or a line break is warned about.
    private func warnFloatsInLines(_ nodes: [StyledNode], file: String, warnings: inout [TemplateWarning]) {
        var lineStarted = false
        func walk(_ nodes: [StyledNode]) {
            for node in nodes {
                switch node {
                case .text(let t): if t.contains(where: { !$0.isWhitespace }) { lineStarted = true }
                case .element(let e):
                    let s = e.style
                    if s.display == .none || s.position == .absolute { continue }
                    if s.float != nil {
                        guard lineStarted else { continue }
                        let warning = TemplateWarning(file: e.element.file ?? file, line: e.element.line,
                                                      message: "<\(e.element.tag)>: float after other content of its line is not supported; it is placed at the top of its paragraph, Chromium places it on the line it comes in")
                        if !warnings.contains(warning) { warnings.append(warning) }
                    } else if s.display == .inline && e.element.tag != "br" {
                        // Its start margin, border or padding takes room in the line (auto is 0).
                        let start = s.rightToLeft ? 1 : 3
                        if ![.zero, .auto].contains(s.margin[start]) || s.padding[start] != .zero || s.borderWidth[start] > 0 { lineStarted = true }
                        walk(e.children)
                    } else if s.display == .inline || s.display == .inlineBlock || s.inlineLevel {
                        lineStarted = true
                    } else {
                        lineStarted = false // a block box ends the paragraph
                    }
                }
            }
        }
        walk(nodes)
    }

    /// Replaces `var(--name, fallback)` (CSS Variables 1 §3), nested up to a fixed depth.
    func substituteVariables(_ value: String, _ properties: [String: String], depth: Int = 0) -> String {
        // Every declaration comes here: most have no var(), found without Foundation's search.
        guard depth < 16, value.utf8.contains(0x28), let start = value.range(of: "var(") else { return value }
        var level = 1
        var end = start.upperBound
        while end < value.endIndex, level > 0 {
            if value[end] == "(" { level += 1 } else if value[end] == ")" { level -= 1 }
            if level > 0 { end = value.index(after: end) }
        }
        let inner = String(value[start.upperBound..<end])
        let parts = inner.split(separator: ",", maxSplits: 1).map { String($0).trimmed }
        let replacement = properties[parts.first ?? ""] ?? (parts.count > 1 ? parts[1] : "")
        let after = end < value.endIndex ? value[value.index(after: end)...] : ""
        return substituteVariables(value[..<start.lowerBound] + replacement + after, properties, depth: depth + 1)
    }
}

/// The part of a browser's default style sheet that templates rely on (HTML §15.3).
enum UserAgentStyle {
    static let file = "user-agent.css"
    static let sheet = Stylesheet("""
    body, div, p, section, header, footer, article, main, nav, aside, figure, h1, h2, h3, h4, h5, h6, ul, ol, blockquote { display: block }
    p, blockquote, figure, ul, ol { margin: 1em 0 }
    li { display: list-item }
    ul, ol { padding-inline-start: 40px }
    ul { list-style-type: disc }
    ol { list-style-type: decimal }
    ul ul, ol ul { list-style-type: circle }
    ul ul ul, ul ol ul, ol ul ul, ol ol ul { list-style-type: square }
    ul ul, ul ol, ol ul, ol ol { margin-top: 0; margin-bottom: 0 }
    pre { display: block; margin: 1em 0; white-space: pre; font-family: monospace }
    h1 { font-size: 2em; margin: 0.67em 0; font-weight: bold }
    h2 { font-size: 1.5em; margin: 0.83em 0; font-weight: bold }
    h3 { font-size: 1.17em; margin: 1em 0; font-weight: bold }
    b, strong { font-weight: bold }
    i, em { font-style: italic }
    u { text-decoration: underline }
    s, del { text-decoration: line-through }
    img, svg { display: inline-block }
    head, title, style, script, template { display: none }
    """, file: file)

    /// What an element's attributes say of its style, which the sheet cannot say (it has no
    /// attribute selectors): `dir`, and an image's width, height and align (HTML §15.4.3, §15.3.3).
    static func presentationalHints(of element: Element) -> [Stylesheet.Declaration] {
        var hints = direction(of: element)
        func hint(_ property: String, _ value: String) { hints.append(.init(property: property, value: value, important: false, line: element.line)) }
        if element.tag == "img" || element.tag == "svg" {
            for name in ["width", "height"] { if let value = element[attribute: name].flatMap(dimension) { hint(name, value) } }
        }
        if element.tag == "img", let align = element[attribute: "align"]?.lowercased() {
            switch align {
            case "left", "right": hint("float", align)
            case "top", "middle", "bottom": hint("vertical-align", align)
            default: break
            }
        }
        return hints
    }

    /// HTML's rules for parsing dimension values (§2.3.4.4): leading white space, digits with an
    /// optional fraction, then a percentage sign or nothing that counts; anything after is ignored.
    static func dimension(_ text: String) -> String? {
        let rest = text.drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\u{0C}" || $0 == "\r" }
        let whole = rest.prefix { $0.isASCII && $0.isNumber }
        guard !whole.isEmpty else { return nil }
        var number = String(whole), after = rest.dropFirst(whole.count)
        if after.first == "." {
            let fraction = after.dropFirst().prefix { $0.isASCII && $0.isNumber }
            if !fraction.isEmpty { number += "." + fraction }
            after = after.dropFirst(1 + fraction.count)
        }
        return number + (after.first == "%" ? "%" : "px")
    }

    /// The `dir` attribute's rules (`dir=auto` reads the text): `[dir=ltr i], [dir=rtl i], bdi { direction: …; unicode-bidi: isolate }`
    /// (HTML §15.3.5); `auto` takes the direction of the first strong character of the element's
    /// text, left-to-right when there is none (HTML §3.2.6.4, the directionality of an element).
    private static func direction(of element: Element) -> [Stylesheet.Declaration] {
        // <bdi> is `auto` unless its dir is a valid state (HTML §4.5.24), and isolated either way (§15.3.5).
        let given = element[attribute: "dir"]?.lowercased()
        guard let dir = ["ltr", "rtl", "auto"].contains(given ?? "") ? given : element.tag == "bdi" ? "auto" : nil else { return [] }
        let rightToLeft = dir == "auto" ? firstStrongIsRightToLeft(in: element) ?? false : dir == "rtl"
        return [.init(property: "direction", value: rightToLeft ? "rtl" : "ltr", important: false, line: element.line),
                .init(property: "unicode-bidi", value: "isolate", important: false, line: element.line)]
    }

    /// The first strong character of an element's text in tree order, leaving out `bdi`, `script`,
    /// `style` and `textarea` elements and those with a `dir` of their own (HTML's contained
    /// text auto directionality).
    static func firstStrongIsRightToLeft(in element: Element) -> Bool? {
        for child in element.children {
            switch child {
            case .text(let text): if let found = text.firstStrongIsRightToLeft { return found }
            case .element(let e):
                if ["bdi", "script", "style", "textarea"].contains(e.tag) || ["ltr", "rtl", "auto"].contains(e[attribute: "dir"]?.lowercased() ?? "") { continue }
                if let found = firstStrongIsRightToLeft(in: e) { return found }
            }
        }
        return nil
    }
}

/// The values every property takes (CSS Cascade 4 §7.3).
enum CSSWideKeyword: String {
    case inherit, initial, unset

    /// `unset` is `inherit` for an inherited property and `initial` for the rest.
    func resolved(inherited: Bool) -> CSSWideKeyword {
        self == .unset ? (inherited ? .inherit : .initial) : self
    }
}
