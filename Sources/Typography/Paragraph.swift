import Checked
/// A colour with straight alpha, components 0...1.
public struct RGBA: Sendable, Hashable, Codable {
    public var r, g, b, a: Double
    public init(_ r: Double, _ g: Double, _ b: Double, _ a: Double = 1) { self.r = r; self.g = g; self.b = b; self.a = a }
    public static let black = RGBA(0, 0, 0), white = RGBA(1, 1, 1), clear = RGBA(0, 0, 0, 0)

    /// `#rrggbb` or `rgba(…)` for CSS.
    public var css: String {
        func byte(_ v: Double) -> Int { Int(saturating: min(max(v, 0), 1) * 255, rounded: .toNearestOrAwayFromZero) }
        if a >= 1 { return "#" + [r, g, b].map { String(byte($0), radix: 16).leftPadded(2) }.joined() }
        return "rgba(\(byte(r)), \(byte(g)), \(byte(b)), \(formatNumber(a)))"
    }
}

/// How a run of text looks. Sizes are in points.
public struct TextStyle: Sendable, Hashable {
    public var family = "Inter"
    public var size = 17.0
    public var weight = 400
    public var italic = false
    public var color = RGBA.black
    public var letterSpacing = 0.0
    public var underline = false
    public var lineThrough = false
    /// This run's CSS line-height in points; nil = the paragraph's.
    public var lineHeight: Double?
    /// The line-height was given (not `normal`): fallback fonts must not make lines taller.
    public var lineHeightIsFixed = false
    /// The line height Pango is given, where it differs from the CSS one (fallback-font runs).
    var pangoLineHeight: Double?
    /// How far Pango raises this run's box (not its glyphs, which are drawn on the line's
    /// baseline): a fallback font's box lined up with the text font's under a fixed line-height.
    var pangoRise = 0.0
    /// The screen the text is laid out for: a face's metrics are rounded to its device pixels.
    public var deviceScale = DeviceScale.one
    public init() {}
}

extension StringProtocol {
    /// The direction of the first strong character (UAX #9 P2, bidi classes L, R and AL): true
    /// for a right-to-left script (Hebrew, Arabic, Syriac, Thaana, N'Ko and their presentation
    /// forms), false for another letter, nil when the text has none (digits, punctuation).
    public var firstStrongIsRightToLeft: Bool? {
        for scalar in unicodeScalars {
            let v = scalar.value
            if (0x0590...0x08FF).contains(v) || (0xFB1D...0xFDFF).contains(v) || (0xFE70...0xFEFF).contains(v) || (0x10800...0x10FFF).contains(v)
                || (0x1E800...0x1EFFF).contains(v) { return true }
            if scalar.properties.isAlphabetic { return false }
        }
        return nil
    }
}

/// A paragraph of styled runs, laid out at a width: what Pango measures and later draws.
public struct Paragraph: Sendable, Hashable {
    public enum Alignment: Sendable, Hashable { case left, center, right, justify }
    public struct Run: Sendable, Hashable {
        public var text: String
        public var style: TextStyle
        public init(_ text: String, style: TextStyle) { self.text = text; self.style = style }
    }

    public var runs: [Run]
    /// Text past this many characters in one paragraph is not laid out (a warning says so).
    public static let maxCharacters = 5_000
    /// Wrap width in points; nil = no wrapping.
    public var width: Double?
    public var alignment: Alignment = .left
    /// CSS line-height in points; nil = the font's normal line height.
    public var lineHeight: Double?
    /// The block's own font and line height, which every line box is at least as tall as (its
    /// strut, CSS 2.1 §10.8.1); nil = the first run's.
    public var strut: TextStyle?
    /// Lines shown before an ellipsis (`line-clamp`); nil = all.
    public var maxLines: Int?
    public var wraps = true
    /// Break inside a word that does not fit (`overflow-wrap: anywhere`); else it overflows.
    public var breaksWords = false
    /// Break between any two letters (`word-break: break-all`): every line is filled.
    public var breaksAll = false
    public var rightToLeft = false
    /// BCP 47 language for shaping (Turkish, Vietnamese and others have localized glyph forms).
    public var language = "en"

    /// Atomic inlines (inline-blocks, images) held by U+FFFC characters in the text: each sits on
    /// the baseline with its margin box `ascent` above and `descent` below.
    public struct InlineObject: Sendable, Hashable {
        public var byteOffset: Int
        public var width: Double, ascent: Double, descent: Double
        public init(byteOffset: Int, width: Double, ascent: Double, descent: Double) {
            self.byteOffset = byteOffset; self.width = width; self.ascent = ascent; self.descent = descent
        }
    }
    public var objects: [InlineObject] = []
    /// Under `.justify`, the last line is justified too: it is a part of a longer paragraph (slice).
    public var justifiesLastLine = false

    public init(runs: [Run], width: Double? = nil) { self.runs = runs; self.width = width }

    public var text: String { runs.map(\.text).joined() }

    /// The length of the text Pango lays out, in bytes (newlines become U+2028).
    public var byteCount: Int { runs.reduce(0) { $0 + $1.text.pangoByteCount } }

    /// The lines from byte `range.lowerBound` up to `range.upperBound` of the text Pango lays out,
    /// as a paragraph of their own (lines beside a float are laid out apart): runs cut there,
    /// newlines as U+2028, inline objects moved with their text, and the white space or forced
    /// break that ends the last line dropped, as at a paragraph's end.
    public func slice(_ range: Range<Int>) -> Paragraph {
        var out = self
        out.runs = []
        var offset = 0
        for run in runs {
            let bytes = Array(run.text.replacingNewlines().utf8)
            defer { offset += bytes.count }
            let lo = max(range.lowerBound, offset), hi = min(range.upperBound, offset + bytes.count)
            guard lo < hi else { continue }
            out.runs.append(Run(String(decoding: bytes[(lo - offset)..<(hi - offset)], as: UTF8.self), style: run.style))
        }
        out.objects = objects.filter { range.contains($0.byteOffset) }.map { object in
            var moved = object
            moved.byteOffset -= range.lowerBound
            return moved
        }
        while let last = out.runs.last {
            var text = last.text
            while let c = text.unicodeScalars.last, c == " " || c == "\u{2028}" { text.unicodeScalars.removeLast() }
            if text.isEmpty { out.runs.removeLast() } else { out.runs[out.runs.count - 1].text = text; break }
        }
        out.justifiesLastLine = range.upperBound < byteCount || justifiesLastLine
        return out
    }
}

/// What laying out a paragraph gave. Points.
public struct TextMetrics: Sendable, Equatable {
    public var width: Double
    public var height: Double
    public var lineCount: Int
    /// Distance from the top to the first baseline.
    public var baseline: Double
    /// Characters no font could draw (they show as boxes).
    public var missingGlyphs: Int
    public var ellipsized: Bool
}

extension String {
    func leftPadded(_ n: Int) -> String { String(repeating: "0", count: max(0, n - count)) + self }
}

/// Shortest decimal form, stable across platforms: 1, 0.5, 12.25.
public func formatNumber(_ v: Double) -> String {
    if v == v.rounded() && abs(v) < 1e15 { return String(Int(v)) }
    guard v.isFinite, abs(v) < 1e15 else { return "\(v)" }
    var s = String(format3: v)
    while s.hasSuffix("0") { s.removeLast() }
    if s.hasSuffix(".") { s.removeLast() }
    return s
}

extension String {
    /// Three decimals without Foundation's locale-dependent formatting.
    init(format3 v: Double) {
        let scaled = Int(saturating: abs(v) * 1000, rounded: .toNearestOrAwayFromZero)
        let sign = v < 0 && scaled != 0 ? "-" : ""
        self = "\(sign)\(scaled / 1000).\(String(scaled % 1000).leftPadded(3))"
    }
}

/// Languages written right to left (a locale's language subtag): iOS mirrors the whole
/// notification for them, and pages say `dir="rtl"`.
public func isRightToLeftLanguage(_ locale: String) -> Bool {
    ["ar", "he", "iw", "fa", "ur", "yi", "ps", "sd", "ug", "dv", "ckb", "syr"].contains(String(locale.lowercased().prefix { $0 != "-" && $0 != "_" }))
}
