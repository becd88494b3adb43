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

    /// Resolves against the containing block's size; auto gives nil.
    public func resolve(_ base: Double?) -> Double? {
        switch self {
        case .points(let p): return p
        case .percent(let p): return base.map { $0 * p / 100 }
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

    /// Parses px, pt (1pt = 1px: a notification point), em, rem, % and 0.
    static func parse(_ text: String, fontSize: Double, rootFontSize: Double, allowAuto: Bool = true) -> Length? {
        let t = text.trimmed.lowercased()
        if t == "auto" { return allowAuto ? .auto : nil }
        if t == "0" { return .points(0) }
        for (unit, factor) in [("px", 1.0), ("pt", 1.0), ("rem", rootFontSize), ("em", fontSize), ("%", -1)] where t.hasSuffix(unit) {
            guard let n = Double(decimal: t.dropLast(unit.count)) else { return nil }
            return factor < 0 ? .percent(n.clampedLength) : .points((n * factor).clampedLength)
        }
        return nil
    }
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

    static let namedColors: [String: String] = [
        "black": "000000", "white": "ffffff", "red": "ff0000", "green": "008000", "blue": "0000ff", "yellow": "ffff00",
        "orange": "ffa500", "purple": "800080", "gray": "808080", "grey": "808080", "silver": "c0c0c0", "maroon": "800000",
        "olive": "808000", "lime": "00ff00", "aqua": "00ffff", "cyan": "00ffff", "teal": "008080", "navy": "000080",
        "fuchsia": "ff00ff", "magenta": "ff00ff", "pink": "ffc0cb", "gold": "ffd700", "brown": "a52a2a",
        "lightgray": "d3d3d3", "lightgrey": "d3d3d3", "darkgray": "a9a9a9", "darkgrey": "a9a9a9", "whitesmoke": "f5f5f5",
        "gainsboro": "dcdcdc", "dimgray": "696969", "crimson": "dc143c", "tomato": "ff6347", "coral": "ff7f50",
        "salmon": "fa8072", "indigo": "4b0082", "violet": "ee82ee", "skyblue": "87ceeb", "steelblue": "4682b4",
        "royalblue": "4169e1", "dodgerblue": "1e90ff", "seagreen": "2e8b57", "forestgreen": "228b22", "khaki": "f0e68c",
        "beige": "f5f5dc", "ivory": "fffff0", "lavender": "e6e6fa", "chocolate": "d2691e", "tan": "d2b48c",
    ]
}
