import Checked
import Templating
import Typography

/// A CSS length before layout: absolute points, a percentage of the containing block, or auto.
public enum Length: Sendable, Equatable {
    case points(Double)
    case percent(Double)
    case auto
    /// `min-content`, `max-content`, `fit-content`, `stretch` (Sizing 3 §3.2, Sizing 4 §6.1):
    /// sizes from the content or the containing block, which layout puts in before it sizes a box.
    case intrinsic(IntrinsicSize)
    /// A math function with a percentage in it (one without is read as points).
    case calc(CalcReference)

    /// Resolves against the containing block's size; auto gives nil.
    @inlinable public func resolve(_ base: Double?) -> Double? {
        switch self {
        case .points(let p): return p
        case .percent(let p): return base.map { $0 * p / 100 }
        case .calc(let e): return e.resolve(base)
        case .auto, .intrinsic: return nil
        }
    }
    public static let zero = Length.points(0)

    public enum IntrinsicSize: String, Sendable {
        case minContent = "min-content", maxContent = "max-content", fitContent = "fit-content", stretch
        /// The keyword, with the prefixed spellings browsers accept.
        static func parse(_ t: String) -> IntrinsicSize? {
            IntrinsicSize(rawValue: t) ?? ["-webkit-fill-available": .stretch, "-moz-available": .stretch, "-webkit-max-content": .maxContent,
                                           "-webkit-min-content": .minContent, "-webkit-fit-content": .fitContent][t]
        }
    }

    /// Parses px, the other absolute units (CSS Values 4 §6.2: 1in = 96px = 72pt = 6pc = 2.54cm),
    /// em, rem, ch, ex (when `font` has them), %, 0, and calc(), min(), max() and clamp() over them.
    static func parse(_ text: String, font: FontRelative, allowAuto: Bool = true) -> Length? {
        let t = text.trimmed.lowercased()
        if t == "auto" { return allowAuto ? .auto : nil }
        if t == "0" { return .points(0) }
        if ["calc(", "min(", "max(", "clamp("].contains(where: { t.hasPrefix($0) }) {
            guard let e = CalcExpression.parse(t, unit: { parse($0, font: font, allowAuto: false) }) else { return nil }
            return e.hasPercent ? CalcReference.intern(e).map { .calc($0) } : e.resolve(nil).map { .points($0.clampedLength) }
        }
        let units: [(String, Double?)] = [("px", 1), ("pt", 4 / 3), ("pc", 16), ("in", 96), ("cm", 96 / 2.54), ("mm", 96 / 25.4), ("q", 96 / 101.6),
                                          ("rem", font.rem), ("em", font.em), ("ch", font.ch), ("ex", font.ex), ("%", -1)]
        for (unit, factor) in units where t.hasSuffix(unit) {
            guard let factor, let n = Double(decimal: t.dropLast(unit.count)) else { return nil }
            return factor < 0 ? .percent(n.clampedLength) : .points((n * factor).clampedLength)
        }
        return nil
    }
}

/// What the font-relative units stand for in an element's font (CSS Values 4 §6.1.1): `ch` is
/// the advance of "0" and `ex` the x-height of its first available face, known only when the
/// resolver has the fonts (without them such lengths are not parsed, and a warning says so).
struct FontRelative {
    var em: Double, rem: Double
    var ch: Double?, ex: Double?
}

/// CSS colours: hex (3, 4, 6, 8 digits), rgb[a](), hsl[a](), named, transparent, currentColor.
public enum ColorParser {
    public static func parse(_ text: String, currentColor: RGBA) -> RGBA? {
        let t = text.trimmed.lowercased()
        if t == "currentcolor" { return currentColor }
        if t == "transparent" { return .clear }
        if t.hasPrefix("#") { return hex(String(t.dropFirst())) }
        if let open = t.firstIndex(of: "("), t.hasSuffix(")") {
            let fn = String(t[..<open])
            let args = t[t.index(after: open)..<t.index(before: t.endIndex)]
                .replacing("/", with: " ").replacing(",", with: " ")
                .split(whereSeparator: \.isWhitespace).map(String.init)
            guard args.count == 3 || args.count == 4 else { return nil }
            let alpha = args.count == 4 ? fraction(args[3], whole: 1) : 1
            switch fn {
            case "rgb", "rgba":
                guard let r = fraction(args[0], whole: 255), let g = fraction(args[1], whole: 255),
                      let b = fraction(args[2], whole: 255), let alpha else { return nil }
                return RGBA(r, g, b, alpha)
            case "hsl", "hsla":
                guard let h = Double(decimal: args[0].replacing("deg", with: "")), let s = fraction(args[1], whole: 100),
                      let l = fraction(args[2], whole: 100), let alpha else { return nil }
                return hsl(h, s, l, alpha)
            default: return nil
            }
        }
        return namedColors[t].map { hex($0)! }
    }

    /// A number out of `whole`, or a percentage; clamped to 0...1.
    static func fraction(_ s: String, whole: Double) -> Double? {
        if s.hasSuffix("%"), let v = Double(decimal: s.dropLast()) { return min(max(v / 100, 0), 1) }
        return Double(decimal: s).map { min(max($0 / whole, 0), 1) }
    }

    static func hex(_ h: String) -> RGBA? {
        guard h.allSatisfy({ $0.isASCII && $0.isHexDigit }) else { return nil }
        let digits = h.count == 3 || h.count == 4 ? h.flatMap { [$0, $0] } : Array(h)
        guard digits.count == 6 || digits.count == 8 else { return nil }
        let v = stride(from: 0, to: digits.count, by: 2).map { Double(Int(String(digits[$0...$0 + 1]), radix: 16)!) / 255 }
        return RGBA(v[0], v[1], v[2], v.count == 4 ? v[3] : 1)
    }

    static func hsl(_ hue: Double, _ s: Double, _ l: Double, _ a: Double) -> RGBA {
        let h = (hue.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360) / 360
        let q = l < 0.5 ? l * (1 + s) : l + s - l * s, p = 2 * l - q
        func channel(_ t0: Double) -> Double {
            let t = t0 < 0 ? t0 + 1 : t0 > 1 ? t0 - 1 : t0
            if t < 1 / 6 { return p + (q - p) * 6 * t }
            if t < 1 / 2 { return q }
            if t < 2 / 3 { return p + (q - p) * (2 / 3 - t) * 6 }
            return p
        }
        return RGBA(channel(h + 1 / 3), channel(h), channel(h - 1 / 3), a)
    }

    /// The 148 named colours of CSS Color 4 §6.1.
    static let namedColors: [String: String] = [
        "aliceblue": "f0f8ff", "antiquewhite": "faebd7", "aqua": "00ffff", "aquamarine": "7fffd4", "azure": "f0ffff",
        "beige": "f5f5dc", "bisque": "ffe4c4", "black": "000000", "blanchedalmond": "ffebcd", "blue": "0000ff",
        "blueviolet": "8a2be2", "brown": "a52a2a", "burlywood": "deb887", "cadetblue": "5f9ea0", "chartreuse": "7fff00",
        "chocolate": "d2691e", "coral": "ff7f50", "cornflowerblue": "6495ed", "cornsilk": "fff8dc", "crimson": "dc143c",
        "cyan": "00ffff", "darkblue": "00008b", "darkcyan": "008b8b", "darkgoldenrod": "b8860b", "darkgray": "a9a9a9",
        "darkgreen": "006400", "darkgrey": "a9a9a9", "darkkhaki": "bdb76b", "darkmagenta": "8b008b", "darkolivegreen": "556b2f",
        "darkorange": "ff8c00", "darkorchid": "9932cc", "darkred": "8b0000", "darksalmon": "e9967a", "darkseagreen": "8fbc8f",
        "darkslateblue": "483d8b", "darkslategray": "2f4f4f", "darkslategrey": "2f4f4f", "darkturquoise": "00ced1",
        "darkviolet": "9400d3", "deeppink": "ff1493", "deepskyblue": "00bfff", "dimgray": "696969", "dimgrey": "696969",
        "dodgerblue": "1e90ff", "firebrick": "b22222", "floralwhite": "fffaf0", "forestgreen": "228b22", "fuchsia": "ff00ff",
        "gainsboro": "dcdcdc", "ghostwhite": "f8f8ff", "gold": "ffd700", "goldenrod": "daa520", "gray": "808080",
        "green": "008000", "greenyellow": "adff2f", "grey": "808080", "honeydew": "f0fff0", "hotpink": "ff69b4",
        "indianred": "cd5c5c", "indigo": "4b0082", "ivory": "fffff0", "khaki": "f0e68c", "lavender": "e6e6fa",
        "lavenderblush": "fff0f5", "lawngreen": "7cfc00", "lemonchiffon": "fffacd", "lightblue": "add8e6",
        "lightcoral": "f08080", "lightcyan": "e0ffff", "lightgoldenrodyellow": "fafad2", "lightgray": "d3d3d3",
        "lightgreen": "90ee90", "lightgrey": "d3d3d3", "lightpink": "ffb6c1", "lightsalmon": "ffa07a", "lightseagreen": "20b2aa",
        "lightskyblue": "87cefa", "lightslategray": "778899", "lightslategrey": "778899", "lightsteelblue": "b0c4de",
        "lightyellow": "ffffe0", "lime": "00ff00", "limegreen": "32cd32", "linen": "faf0e6", "magenta": "ff00ff",
        "maroon": "800000", "mediumaquamarine": "66cdaa", "mediumblue": "0000cd", "mediumorchid": "ba55d3",
        "mediumpurple": "9370db", "mediumseagreen": "3cb371", "mediumslateblue": "7b68ee", "mediumspringgreen": "00fa9a",
        "mediumturquoise": "48d1cc", "mediumvioletred": "c71585", "midnightblue": "191970", "mintcream": "f5fffa",
        "mistyrose": "ffe4e1", "moccasin": "ffe4b5", "navajowhite": "ffdead", "navy": "000080", "oldlace": "fdf5e6",
        "olive": "808000", "olivedrab": "6b8e23", "orange": "ffa500", "orangered": "ff4500", "orchid": "da70d6",
        "palegoldenrod": "eee8aa", "palegreen": "98fb98", "paleturquoise": "afeeee", "palevioletred": "db7093",
        "papayawhip": "ffefd5", "peachpuff": "ffdab9", "peru": "cd853f", "pink": "ffc0cb", "plum": "dda0dd",
        "powderblue": "b0e0e6", "purple": "800080", "rebeccapurple": "663399", "red": "ff0000", "rosybrown": "bc8f8f",
        "royalblue": "4169e1", "saddlebrown": "8b4513", "salmon": "fa8072", "sandybrown": "f4a460", "seagreen": "2e8b57",
        "seashell": "fff5ee", "sienna": "a0522d", "silver": "c0c0c0", "skyblue": "87ceeb", "slateblue": "6a5acd",
        "slategray": "708090", "slategrey": "708090", "snow": "fffafa", "springgreen": "00ff7f", "steelblue": "4682b4",
        "tan": "d2b48c", "teal": "008080", "thistle": "d8bfd8", "tomato": "ff6347", "turquoise": "40e0d0", "violet": "ee82ee",
        "wheat": "f5deb3", "white": "ffffff", "whitesmoke": "f5f5f5", "yellow": "ffff00", "yellowgreen": "9acd32",
    ]
}
