import Checked
import Typography
import Templating

/// Applies one declaration to a computed style. Returns false for a property or value the
/// engine does not support, so the caller can warn instead of silently differing from a browser.
struct PropertyParser {
    let rootFontSize: Double
    let parent: ComputedStyle
    /// Measures `ch` and `ex` in a font; nil = those units are unsupported.
    let fonts: FontSystem?

    /// The font-relative units of `style`'s font, measuring only when `text` may use ch or ex.
    func units(_ text: String, _ style: ComputedStyle) -> FontRelative {
        var units = FontRelative(em: style.fontSize, rem: rootFontSize)
        if let fonts, text.lowercased().contains("ch") || text.lowercased().contains("ex") {
            let measured = fonts.fontRelativeUnits(style.textStyle)
            units.ch = measured.ch
            units.ex = measured.ex
        }
        return units
    }

    /// Every property `apply` knows; any other is reported when a style sheet is read.
    static let supported: Set<String> = Set([
        "display", "position", "top", "right", "bottom", "left", "inset", "width", "height", "min-width", "min-height",
        "max-width", "max-height", "margin", "margin-top", "margin-right", "margin-bottom", "margin-left",
        "padding", "padding-top", "padding-right", "padding-bottom", "padding-left",
        "border", "border-top", "border-right", "border-bottom", "border-left", "border-width", "border-color", "border-style",
        "border-radius", "border-top-left-radius", "border-top-right-radius", "border-bottom-right-radius", "border-bottom-left-radius",
        "corner-shape", "corner-top-left-shape", "corner-top-right-shape", "corner-bottom-right-shape", "corner-bottom-left-shape",
        "box-sizing", "aspect-ratio", "overflow", "float", "clear", "opacity", "background-color", "background", "background-image", "box-shadow",
        "background-size", "background-position", "background-repeat", "object-position",
        "object-fit", "flex-direction", "flex-wrap", "flex-flow", "justify-content", "align-items", "align-content", "align-self",
        "flex-grow", "flex-shrink", "flex-basis", "flex", "gap", "row-gap", "column-gap", "order", "color", "font-family",
        "font", "font-size", "font-weight", "font-style", "line-height", "letter-spacing", "text-align", "text-transform", "unicode-bidi",
        "text-decoration", "text-decoration-line", "white-space", "overflow-wrap", "word-wrap", "word-break", "direction",
        "-webkit-line-clamp", "line-clamp", "text-overflow", "-webkit-box-orient",
        "grid-template-columns", "grid-template-rows", "grid-template-areas", "grid-auto-columns", "grid-auto-rows", "grid-auto-flow",
        "grid-column", "grid-row", "grid-column-start", "grid-column-end", "grid-row-start", "grid-row-end", "grid-area",
        "justify-items", "justify-self", "place-items", "place-self",
        "text-shadow", "transform", "transform-origin", "filter", "backdrop-filter", "-webkit-backdrop-filter",
        "list-style", "list-style-type", "list-style-position", "list-style-image",
    ]).union(["top", "right", "bottom", "left"].flatMap { side in ["width", "color", "style"].map { "border-\(side)-\($0)" } })
        .union(LogicalProperties.names)

    func apply(_ property: String, _ raw: String, to s: inout ComputedStyle) -> Bool {
        let v = raw.trimmed
        let lower = v.lowercased()
        func length(_ t: String, auto: Bool = true) -> Length? { Length.parse(t, font: units(t, s), allowAuto: auto) }
        /// A length or percentage that is not negative (a negative size or padding is invalid, CSS 2.1 §8.4).
        func nonNegative(_ t: String, auto: Bool) -> Length? {
            guard let l = length(t, auto: auto), (l.resolve(100) ?? 0) >= 0 else { return nil }
            return l
        }
        /// A box size: a length, a percentage, or a sizing keyword; never negative.
        func size(_ t: String, auto: Bool = true) -> Length? {
            if let k = Length.IntrinsicSize.parse(t.trimmed.lowercased()) { return .intrinsic(k) }
            return nonNegative(t, auto: auto)
        }
        func points(_ t: String) -> Double? { if case .points(let p)? = length(t, auto: false) { return p }; return nil }
        func color(_ t: String) -> RGBA? { ColorParser.parse(t, currentColor: s.color) }
        func set<T>(_ value: T?, _ assign: (T) -> Void) -> Bool { guard let value else { return false }; assign(value); return true }
        /// A gap: `normal` (0), or a length or percentage that is not negative.
        func gap(_ t: String) -> Length? {
            if t.lowercased() == "normal" { return .zero }
            guard let l = length(t, auto: false), (l.resolve(100) ?? 0) >= 0 else { return nil }
            return l
        }
        func sides<T>(_ t: String, _ parse: (String) -> T?) -> [T]? {
            let parts = splitTopLevel(String(t.map { $0.isWhitespace ? " " : $0 }), separator: " ").map(\.trimmed).filter { !$0.isEmpty }.map { parse($0) }
            guard (1...4).contains(parts.count), parts.allSatisfy({ $0 != nil }) else { return nil }
            let p = parts.map { $0! }
            switch p.count {
            case 1: return [p[0], p[0], p[0], p[0]]
            case 2: return [p[0], p[1], p[0], p[1]]
            case 3: return [p[0], p[1], p[2], p[1]]
            default: return p
            }
        }
        let sideIndex = ["top": 0, "right": 1, "bottom": 2, "left": 3]
        /// An alignment keyword other than justify-content's physical `left` and `right`: invalid for
        /// align-*, and not laid out for justify-items and justify-self (so warned about).
        func alignment(_ t: String) -> ComputedStyle.Align? {
            guard let a = ComputedStyle.Align(rawValue: t), a != .left, a != .right else { return nil }
            return a
        }
        func side(_ t: String) -> ComputedStyle.FloatSide? {
            switch t {
            case "inline-start": parent.rightToLeft ? .right : .left
            case "inline-end": parent.rightToLeft ? .left : .right
            default: ComputedStyle.FloatSide(rawValue: t)
            }
        }

        switch property {
        case "display":
            // The legacy boxes as the line-clamp idiom has them; StyleResolver decides the rest.
            let outer: [String: (ComputedStyle.Display, Bool)] = ["inline-flex": (.flex, true), "inline-grid": (.grid, true),
                                                                   "-webkit-box": (.block, false), "-webkit-inline-box": (.inlineBlock, false),
                                                                   "flow-root": (.block, false)]
            if lower == "list-item" {
                s.display = .block; s.inlineLevel = false; s.legacyBox = false; s.flowRoot = false; s.listItem = true
                return true
            }
            guard let (display, inline) = outer[lower] ?? ComputedStyle.Display(rawValue: lower).map({ ($0, false) }) else { return false }
            s.display = display
            s.inlineLevel = inline
            s.legacyBox = lower.hasPrefix("-webkit-")
            s.listItem = false
            // A legacy flexbox starts its own formatting context, as flow-root does.
            s.flowRoot = lower == "flow-root" || lower == "-webkit-box"
            return true
        case "position": return set(ComputedStyle.Position(rawValue: lower)) { s.position = $0 }
        // The flow-relative values take the containing block's direction (Logical Properties 1 §2.1).
        case "float":
            if lower == "none" { s.float = nil; return true }
            return set(side(lower)) { s.float = $0 }
        case "clear":
            if lower == "none" || lower == "both" { s.clear = lower == "none" ? .none : .both; return true }
            return set(side(lower)) { s.clear = $0 == .left ? .left : .right }
        case "top": return set(length(v)) { s.top = $0 }
        case "right": return set(length(v)) { s.right = $0 }
        case "bottom": return set(length(v)) { s.bottom = $0 }
        case "left": return set(length(v)) { s.left = $0 }
        case "inset": return set(sides(v) { length($0) }) { s.top = $0[0]; s.right = $0[1]; s.bottom = $0[2]; s.left = $0[3] }
        case "width": return set(size(v)) { s.width = $0 }
        case "height": return set(size(v)) { s.height = $0 }
        case "min-width": return set(size(v)) { s.minWidth = $0 }
        case "min-height": return set(size(v)) { s.minHeight = $0 }
        case "max-width": return set(lower == "none" ? .auto : size(v, auto: false)) { s.maxWidth = $0 }
        case "max-height": return set(lower == "none" ? .auto : size(v, auto: false)) { s.maxHeight = $0 }
        case "margin": return set(sides(v) { length($0) }) { s.margin = $0 }
        case "padding": return set(sides(v) { nonNegative($0, auto: false) }) { s.padding = $0 }
        case "margin-top", "margin-right", "margin-bottom", "margin-left":
            return set(length(v)) { s.margin[sideIndex[String(property.dropFirst(7))]!] = $0 }
        case "padding-top", "padding-right", "padding-bottom", "padding-left":
            return set(nonNegative(v, auto: false)) { s.padding[sideIndex[String(property.dropFirst(8))]!] = $0 }
        case "border", "border-top", "border-right", "border-bottom", "border-left":
            guard let (width, colour) = border(v, currentColor: s.color, points: points) else { return false }
            let which = property == "border" ? [0, 1, 2, 3] : [sideIndex[String(property.dropFirst(7))]!]
            for i in which { s.borderWidth[i] = width; s.borderColor[i] = colour }
            return true
        case "border-top-width", "border-right-width", "border-bottom-width", "border-left-width":
            return set(Self.lineWidth(v, points)) { s.borderWidth[sideIndex[String(property.dropFirst(7).dropLast(6))]!] = max(0, $0) }
        case "border-top-color", "border-right-color", "border-bottom-color", "border-left-color":
            return set(color(v)) { s.borderColor[sideIndex[String(property.dropFirst(7).dropLast(6))]!] = $0 }
        case "border-top-style", "border-right-style", "border-bottom-style", "border-left-style":
            if lower == "none" || lower == "hidden" { s.borderWidth[sideIndex[String(property.dropFirst(7).dropLast(6))]!] = 0 }
            return ["solid", "none", "hidden"].contains(lower)
        case "border-width": return set(sides(v, { Self.lineWidth($0, points) })) { s.borderWidth = $0 }
        case "border-color": return set(sides(v, color)) { s.borderColor = $0 }
        case "border-style":
            // One to four sides (CSS Backgrounds 3 §3.2): a side with none or hidden has no border.
            guard let styles = sides(v, { ["solid", "none", "hidden"].contains($0.lowercased()) ? $0.lowercased() : nil }) else { return false }
            for (i, style) in styles.enumerated() where style != "solid" { s.borderWidth[i] = 0 }
            return true
        case "border-radius": return set(sides(v) { length($0, auto: false) }) { s.borderRadius = $0 }
        case "border-top-left-radius": return set(length(v, auto: false)) { s.borderRadius[0] = $0 }
        case "border-top-right-radius": return set(length(v, auto: false)) { s.borderRadius[1] = $0 }
        case "border-bottom-right-radius": return set(length(v, auto: false)) { s.borderRadius[2] = $0 }
        case "border-bottom-left-radius": return set(length(v, auto: false)) { s.borderRadius[3] = $0 }
        case "corner-shape": return set(sides(v, Self.cornerShape)) { s.cornerShape = $0 }
        case "corner-top-left-shape", "corner-top-right-shape", "corner-bottom-right-shape", "corner-bottom-left-shape":
            let corner = ["top-left", "top-right", "bottom-right", "bottom-left"].firstIndex { property == "corner-\($0)-shape" }!
            return set(Self.cornerShape(v)) { s.cornerShape[corner] = $0 }
        case "box-sizing": s.borderBoxSizing = lower == "border-box"; return lower == "border-box" || lower == "content-box"
        case "aspect-ratio":
            let parts = lower.split(separator: "/").compactMap { Double(decimal: $0.trimmed) }
            return set(parts.count == 2 && parts[1] > 0 ? parts[0] / parts[1] : parts.count == 1 ? parts[0] : nil) { s.aspectRatio = $0 }
        // auto and scroll clip as hidden does in a still picture: iOS overlays its scroll bars (and
        // the fidelity Chromium hides them), so they take no room.
        case "overflow": s.overflowHidden = lower != "visible"; return ["hidden", "clip", "visible", "auto", "scroll"].contains(lower)
        case "opacity": return set(Double(decimal: lower).map { min(max($0, 0), 1) }) { s.opacity = $0 }
        case "background-color": return set(color(v)) { s.backgroundColor = $0 }
        case "background-image":
            if lower == "none" { s.backgroundGradient = nil; s.backgroundImage = nil; return true }
            if let g = Gradient.parse(v, currentColor: s.color, length: { length($0) }) { s.backgroundGradient = g; return true }
            return set(Self.url(v)) { s.backgroundImage = $0 }
        case "background": return backgroundShorthand(v, &s)
        case "background-size": return set(backgroundSize(lower, length: { length($0) })) { s.backgroundSize = $0 }
        case "background-position": return set(Self.position(lower, length: { length($0) })) { s.backgroundPosition = $0 }
        case "background-repeat": s.backgroundRepeat = lower != "no-repeat"; return ["repeat", "no-repeat"].contains(lower)
        case "object-position": return set(Self.position(lower, length: { length($0) })) { s.objectPosition = $0 }
        case "box-shadow": return set(BoxShadow.parseList(v, currentColor: s.color, points: points)) { s.boxShadows = $0 }
        case "text-shadow": return set(BoxShadow.parseList(v, currentColor: s.color, text: true, points: points)) { s.textShadows = $0 }
        case "transform": return set(TransformFunction.parseList(v) { length($0) }) { s.transforms = $0 }
        case "transform-origin":
            let words = lower.split(whereSeparator: \.isWhitespace).prefix(2).joined(separator: " ") // a z offset is ignored
            return set(Self.position(words) { length($0) }) { s.transformOrigin = $0 }
        case "filter": return set(BlurFilter.parse(v) { length($0) }) { s.filterBlur = $0 }
        case "backdrop-filter", "-webkit-backdrop-filter":
            guard let parsed = BackdropTone.parse(v, length: { length($0) }) else { return false }
            s.backdropBlur = parsed?.blur
            s.backdropTone = parsed.map { $0.tone.isIdentity ? nil : $0.tone } ?? nil
            return true
        case "object-fit": return set(ComputedStyle.ObjectFit(rawValue: lower)) { s.objectFit = $0 }
        case "flex-direction": return set(ComputedStyle.FlexDirection(rawValue: lower)) { s.flexDirection = $0 }
        case "flex-wrap": return setWrap(lower, &s)
        case "flex-flow":
            var ok = true
            for part in lower.split(whereSeparator: \.isWhitespace).map(String.init) {
                if let d = ComputedStyle.FlexDirection(rawValue: part) { s.flexDirection = d }
                else if !setWrap(part, &s) { ok = false }
            }
            return ok
        case "justify-content": return set(ComputedStyle.Align(rawValue: lower)) { s.justifyContent = $0 }
        case "align-items": return set(alignment(lower)) { s.alignItems = $0 }
        case "align-content": return set(alignment(lower)) { s.alignContent = $0 }
        case "align-self": return set(alignment(lower)) { s.alignSelf = $0 }
        case "flex-grow": return set(Double(decimal: lower).map { min(max($0, 0), .maxLength) }) { s.flexGrow = $0 }
        case "flex-shrink": return set(Double(decimal: lower).map { min(max($0, 0), .maxLength) }) { s.flexShrink = $0 }
        case "flex-basis": return set(lower == "content" ? .intrinsic(.maxContent) : size(v)) { s.flexBasis = $0 }
        case "flex":
            let parts = lower.split(whereSeparator: \.isWhitespace).map(String.init)
            if lower == "none" { s.flexGrow = 0; s.flexShrink = 0; s.flexBasis = .auto; return true }
            if lower == "auto" { s.flexGrow = 1; s.flexShrink = 1; s.flexBasis = .auto; return true }
            guard let grow = parts.first.flatMap({ Double(decimal: $0) }).map({ min(max($0, 0), .maxLength) }) else { return false }
            s.flexGrow = grow
            s.flexShrink = parts.count > 1 ? min(max(Double(decimal: parts[1]) ?? 1, 0), .maxLength) : 1
            let basis = parts.count > 1 && Double(decimal: parts[1]) == nil ? parts[1] : parts.count > 2 ? parts[2] : "0"
            return set(length(basis)) { s.flexBasis = $0 }
        case "gap": return set(sides(v) { gap($0) }) { s.rowGap = $0[0]; s.columnGap = $0[1] }
        case "row-gap": return set(gap(v)) { s.rowGap = $0 }
        case "column-gap": return set(gap(v)) { s.columnGap = $0 }
        case "order": return set(Int(lower)) { s.order = $0 }
        case "grid-template-columns": return set(GridParser.trackList(v) { length($0) }) { s.grid.columns = $0 }
        case "grid-template-rows": return set(GridParser.trackList(v) { length($0) }) { s.grid.rows = $0 }
        case "grid-template-areas": return set(GridParser.areas(v)) { s.grid.areas = $0 }
        case "grid-auto-columns": return set(GridParser.track(lower) { length($0) }) { s.grid.autoColumns = $0 }
        case "grid-auto-rows": return set(GridParser.track(lower) { length($0) }) { s.grid.autoRows = $0 }
        case "grid-auto-flow":
            guard ["row", "column"].contains(lower) else { return false }
            s.grid.flowColumn = lower == "column"
            return true
        case "grid-column": return set(GridParser.lines(v)) { s.grid.columnStart = $0.0; s.grid.columnEnd = $0.1 }
        case "grid-row": return set(GridParser.lines(v)) { s.grid.rowStart = $0.0; s.grid.rowEnd = $0.1 }
        case "grid-column-start": return set(GridParser.line(v)) { s.grid.columnStart = $0 }
        case "grid-column-end": return set(GridParser.line(v)) { s.grid.columnEnd = $0 }
        case "grid-row-start": return set(GridParser.line(v)) { s.grid.rowStart = $0 }
        case "grid-row-end": return set(GridParser.line(v)) { s.grid.rowEnd = $0 }
        case "grid-area":
            let parts = v.split(separator: "/").map { $0.trimmed }
            let lines = parts.map { GridParser.line($0) }
            guard (1...4).contains(parts.count), lines.allSatisfy({ $0 != nil }) else { return false }
            let l = lines.map { $0! }
            s.grid.rowStart = l[0]
            s.grid.columnStart = l.count > 1 ? l[1] : (l[0].isArea ? l[0] : .auto)
            s.grid.rowEnd = l.count > 2 ? l[2] : (l[0].isArea ? l[0] : .auto)
            s.grid.columnEnd = l.count > 3 ? l[3] : (l.count > 1 && l[1].isArea ? l[1] : l.count == 1 && l[0].isArea ? l[0] : .auto)
            return true
        case "justify-items": return set(alignment(lower == "legacy" ? "normal" : lower)) { s.justifyItems = $0 }
        case "justify-self": return set(alignment(lower)) { s.justifySelf = $0 }
        case "place-items", "place-self":
            let parts = lower.split(whereSeparator: \.isWhitespace).compactMap { alignment(String($0)) }
            guard (1...2).contains(parts.count), parts.count == lower.split(whereSeparator: \.isWhitespace).count else { return false }
            if property == "place-items" { s.alignItems = parts[0]; s.justifyItems = parts.last! } else { s.alignSelf = parts[0]; s.justifySelf = parts.last! }
            return true
        case "color": return set(color(v)) { s.color = $0 }
        case "font-family":
            // The whole list, in order: Pango tries each family as a browser does.
            let families = v.split(separator: ",").map { $0.trimmed.trimmingCharacters(in: "\"'") }.filter { !$0.isEmpty }
            return set(families.isEmpty ? nil : families.joined(separator: ",")) { s.fontFamily = $0 }
        case "font-size":
            let base = parent.fontSize
            guard let size = Length.parse(v, font: units(v, parent), allowAuto: false) else { return false }
            // Blink caps a computed font size at 10,000 px (kMaximumAllowedFontSize); negatives are invalid.
            guard let resolved = size.resolve(base), resolved >= 0 else { return false }
            s.fontSize = min(resolved, 10_000)
            return true
        case "font-weight":
            let named = ["normal": 400, "bold": 700, "bolder": min(900, parent.fontWeight + 300), "lighter": max(100, parent.fontWeight - 300)]
            return set(named[lower] ?? Int(lower).flatMap { (1...1000).contains($0) ? $0 : nil }) { s.fontWeight = $0 }
        case "font": return font(v, &s)
        case "font-style": s.italic = lower == "italic" || lower == "oblique"; return ["italic", "oblique", "normal"].contains(lower)
        case "line-height":
            if lower == "normal" { s.lineHeight = nil; s.lineHeightNumber = nil; return true }
            if let n = Double(decimal: lower) { s.lineHeight = (n * s.fontSize).clampedLength; s.lineHeightNumber = n; return true }
            guard let l = length(v, auto: false) else { return false }
            s.lineHeight = l.resolve(s.fontSize)
            s.lineHeightNumber = nil
            return true
        case "letter-spacing": if lower == "normal" { s.letterSpacing = 0; return true }; return set(points(v)) { s.letterSpacing = $0 }
        case "text-align": return set(ComputedStyle.TextAlign(rawValue: lower)) { s.textAlign = $0 }
        case "text-transform": return set(ComputedStyle.TextTransform(rawValue: lower)) { s.textTransform = $0 }
        case "text-decoration", "text-decoration-line":
            s.underline = lower.contains("underline"); s.lineThrough = lower.contains("line-through")
            return lower == "none" || s.underline || s.lineThrough
        case "white-space": return set(ComputedStyle.WhiteSpace(rawValue: lower)) { s.whiteSpace = $0 }
        case "overflow-wrap", "word-wrap", "word-break":
            // break-word breaks a word only where a line needs it; anywhere (and break-all,
            // drawn as anywhere) also lets min-content sizes break there.
            guard ["normal", "anywhere", "break-word", "break-all"].contains(lower) else { return false }
            s.breaksWords = lower != "normal"
            s.breaksAnywhere = lower == "anywhere" || lower == "break-all"
            if property == "word-break" { s.breaksAll = lower == "break-all" }
            return true
        case "direction": s.rightToLeft = lower == "rtl"; return lower == "rtl" || lower == "ltr"
        // Markers outside the item's first line, of the types below; an image or an inside
        // marker is refused (warned) rather than drawn wrong.
        case "list-style-type": return set(ComputedStyle.ListStyleType(rawValue: lower)) { s.listStyleType = $0 }
        case "list-style-position": return lower == "outside"
        case "list-style-image": return lower == "none"
        case "list-style":
            var type: ComputedStyle.ListStyleType?, nones = 0
            for word in lower.split(whereSeparator: \.isWhitespace) {
                if word == "none" { nones += 1 } else if word == "outside" { continue }
                else if let t = ComputedStyle.ListStyleType(rawValue: String(word)), type == nil { type = t } else { return false }
            }
            // `none` is the type's when no type is given, else the image's.
            guard nones <= (type == nil ? 2 : 1) else { return false }
            s.listStyleType = type ?? (nones > 0 ? .none : .disc)
            return true
        case "unicode-bidi":
            s.bidiPlaintext = lower == "plaintext"; s.bidiIsolate = lower == "isolate"
            return ["normal", "plaintext", "isolate"].contains(lower)
        case "-webkit-line-clamp", "line-clamp": if lower == "none" { s.lineClamp = nil; return true }; return set(Int(lower).flatMap { $0 > 0 ? min($0, 10_000) : nil }) { s.lineClamp = $0 }
        case "text-overflow": s.textOverflowEllipsis = lower == "ellipsis"; return lower == "ellipsis" || lower == "clip"
        case "-webkit-box-orient":
            guard ["horizontal", "vertical", "inline-axis", "block-axis"].contains(lower) else { return false }
            s.legacyBoxVertical = lower == "vertical" || lower == "block-axis"
            return true
        default: return false
        }
    }

    /// The `font` shorthand (CSS Fonts 4 §2.8): [style] [weight] size[/line-height] family, the
    /// longhands it leaves out reset to their initial values.
    func font(_ v: String, _ s: inout ComputedStyle) -> Bool {
        // White space around the slash is allowed ("16px / 32px serif", CSS Fonts 4 §2.9).
        let v = v.replacingOccurrences(of: #"\s*/\s*"#, with: "/", options: .regularExpression)
        var words = v.split(whereSeparator: \.isWhitespace).map(String.init)[...]
        var style = "normal", weight = "normal"
        // Style, variant and weight, each at most once, in any order, up to three words in all
        // (CSS Fonts 4 §2.9): "600 400 17px Inter" is not a font, as Chromium also says.
        var seen: Set<String> = [], leading = 0
        while let w = words.first?.lowercased(), ["normal", "italic", "oblique", "bold", "bolder", "lighter", "small-caps"].contains(w) || Int(w) != nil {
            let kind = w == "italic" || w == "oblique" ? "style" : w == "small-caps" ? "variant" : w == "normal" ? "" : "weight"
            leading += 1
            guard leading <= 3, kind.isEmpty || seen.insert(kind).inserted else { return false }
            if kind == "style" { style = w } else if kind == "weight" { weight = w }
            words.removeFirst()
        }
        guard let sizeWord = words.popFirst(), !words.isEmpty else { return false }
        // size[/line-height], both present when the slash is: "/20px" and "15px/" are not fonts.
        let sizeParts = sizeWord.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard sizeParts.allSatisfy({ !$0.isEmpty }) else { return false }
        var out = s
        guard apply("font-style", style, to: &out), apply("font-weight", weight, to: &out), apply("font-size", sizeParts[0], to: &out),
              apply("line-height", sizeParts.count > 1 ? sizeParts[1] : "normal", to: &out),
              apply("font-family", words.joined(separator: " "), to: &out) else { return false }
        s = out
        return true
    }

    /// flex-wrap's keywords; false for anything else.
    func setWrap(_ keyword: String, _ s: inout ComputedStyle) -> Bool {
        guard ["wrap", "nowrap", "wrap-reverse"].contains(keyword) else { return false }
        s.flexWrap = keyword != "nowrap"
        s.flexWrapReverse = keyword == "wrap-reverse"
        return true
    }

    /// A `<corner-shape-value>` (Borders 4 §3.7) as its superellipse parameter: `round` 1,
    /// `squircle` 2, `square` ∞, `bevel` 0, `scoop` -1, `notch` -∞, or `superellipse(K)`.
    static func cornerShape(_ v: String) -> Double? {
        let t = v.trimmed.lowercased()
        let keywords: [String: Double] = ["round": 1, "squircle": 2, "square": .infinity, "bevel": 0, "scoop": -1, "notch": -.infinity]
        if let k = keywords[t] { return k }
        guard t.hasPrefix("superellipse("), t.hasSuffix(")") else { return nil }
        let argument = t.dropFirst("superellipse(".count).dropLast().trimmed
        switch argument {
        case "infinity": return .infinity
        case "-infinity": return -.infinity
        default: return Double(decimal: argument).flatMap { $0.isFinite ? $0 : nil }
        }
    }

    /// `url(x)`, `url("x")` → x.
    static func url(_ v: String) -> String? {
        let t = v.trimmed
        guard t.lowercased().hasPrefix("url("), t.hasSuffix(")") else { return nil }
        var inner = String(t.dropFirst(4).dropLast()).trimmed
        if inner.count >= 2, let q = inner.first, q == "\"" || q == "'", inner.last == q { inner = String(inner.dropFirst().dropLast()) }
        return inner
    }

    func backgroundSize(_ v: String, length: (String) -> Length?) -> ComputedStyle.BackgroundSize? {
        if v == "cover" { return .cover }
        if v == "contain" { return .contain }
        let parts = v.split(separator: " ").map { length(String($0)) }
        guard (1...2).contains(parts.count), parts.allSatisfy({ $0 != nil }) else { return nil }
        return parts.count == 1 && parts[0] == .auto ? .auto : .explicit(parts[0]!, parts.count > 1 ? parts[1]! : .auto)
    }

    /// Keywords (left, center, right, top, bottom), percentages or lengths; one value centres the other axis.
    static func position(_ v: String, length: (String) -> Length?) -> [Length]? {
        let keyword: [String: (axis: Int?, value: Length)] = ["left": (0, .percent(0)), "right": (0, .percent(100)), "top": (1, .percent(0)),
                                                              "bottom": (1, .percent(100)), "center": (nil, .percent(50))]
        var out: [Length?] = [nil, nil]
        var free: [Length] = []
        for part in v.split(separator: " ").map(String.init) {
            if let k = keyword[part] { if let axis = k.axis { out[axis] = k.value } else { free.append(k.value) } }
            else if let l = length(part), l != .auto { free.append(l) }
            else { return nil }
        }
        for l in free { if out[0] == nil { out[0] = l } else if out[1] == nil { out[1] = l } else { return nil } }
        return [out[0] ?? .percent(50), out[1] ?? .percent(50)]
    }

    /// The `background` shorthand: colour, url(), position [/ size], repeat, in any order.
    /// `background` sets every longhand, those it does not name to their initial values
    /// (Backgrounds 3 §3.10): `background: transparent` takes an image away too. (A function of
    /// its own: the style copies it makes stay out of `apply`'s frame, which recursion repeats.)
    func backgroundShorthand(_ v: String, _ s: inout ComputedStyle) -> Bool {
        let initial = Self.initialStyle
        var t = s
        t.backgroundColor = initial.backgroundColor; t.backgroundGradient = initial.backgroundGradient; t.backgroundImage = initial.backgroundImage
        t.backgroundSize = initial.backgroundSize; t.backgroundPosition = initial.backgroundPosition; t.backgroundRepeat = initial.backgroundRepeat
        let style = s
        let length = { (text: String) in Length.parse(text, font: units(text, style)) }
        if v.lowercased() == "none" { s = t; return true }
        if let g = Gradient.parse(v, currentColor: s.color, length: length) { t.backgroundGradient = g; s = t; return true }
        if let c = ColorParser.parse(v, currentColor: s.color) { t.backgroundColor = c; s = t; return true }
        guard background(v, &t, length: length) else { return false }
        s = t
        return true
    }
    private static let initialStyle = ComputedStyle()

    func background(_ v: String, _ s: inout ComputedStyle, length: (String) -> Length?) -> Bool {
        // A slash outside url() separates position from size.
        let tokens = splitTopLevel(v, separator: "/").map(\.trimmed).enumerated().flatMap { i, part in
            (i > 0 ? ["/"] : []) + splitTopLevel(part, separator: " ").map(\.trimmed).filter { !$0.isEmpty }
        }
        var positionWords: [String] = [], sizeWords: [String] = []
        var afterSlash = false
        for token in tokens {
            let lower = token.lowercased()
            if token == "/" { afterSlash = true; continue }
            if afterSlash, sizeWords.count < 2, lower == "cover" || lower == "contain" || length(lower) != nil {
                sizeWords.append(lower)
                continue
            }
            afterSlash = false
            if let u = Self.url(token) { s.backgroundImage = u }
            else if lower == "no-repeat" || lower == "repeat" { s.backgroundRepeat = lower == "repeat" }
            else if let c = ColorParser.parse(token, currentColor: s.color) { s.backgroundColor = c }
            else { positionWords.append(lower) }
        }
        if !positionWords.isEmpty {
            guard let p = Self.position(positionWords.joined(separator: " "), length: length) else { return false }
            s.backgroundPosition = p
        }
        if !sizeWords.isEmpty {
            guard let size = backgroundSize(sizeWords.joined(separator: " "), length: length) else { return false }
            s.backgroundSize = size
        }
        return s.backgroundImage != nil
    }

    /// A border width: a length, or thin, medium or thick, which Chromium draws 1, 3 and 5 px wide.
    private static func lineWidth(_ v: String, _ points: (String) -> Double?) -> Double? {
        ["thin": 1, "medium": 3, "thick": 5][v.trimmed.lowercased()] ?? points(v)
    }

    private func border(_ v: String, currentColor: RGBA, points: (String) -> Double?) -> (Double, RGBA)? {
        var width = 3.0, colour = currentColor, none = false
        for part in splitTopLevel(v, separator: " ").map(\.trimmed).filter({ !$0.isEmpty }) {
            let lower = part.lowercased()
            if lower == "none" || lower == "hidden" { none = true }
            else if lower == "solid" { continue }
            else if let w = Self.lineWidth(part, points) { width = w }
            else if let c = ColorParser.parse(part, currentColor: currentColor) { colour = c }
            else { return nil }
        }
        return (none ? 0 : width, colour)
    }
}

extension String {
    func trimmingCharacters(in set: String) -> String {
        var s = Substring(self)
        while let f = s.first, set.contains(f) { s.removeFirst() }
        while let l = s.last, set.contains(l) { s.removeLast() }
        return String(s)
    }
}
