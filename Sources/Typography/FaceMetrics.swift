/// A face's vertical metrics as Blink takes them, read from the face's own sfnt tables (the
/// same numbers Skia's FreeType scaler gives Blink): OS/2's typographic ascender, descender and
/// line gap when its fsSelection has USE_TYPO_METRICS (bit 7), hhea's otherwise, in font units.
public struct FaceMetrics: Sendable, Equatable {
    public var unitsPerEm: Double
    /// Above the baseline, below it (positive), and the extra space between lines.
    public var ascender: Double, descender: Double, lineGap: Double
    /// OS/2 sxHeight (version 2 on); nil when the table has none or gives 0.
    public var xHeight: Double?

    public init(unitsPerEm: Double, ascender: Double, descender: Double, lineGap: Double, xHeight: Double?) {
        self.unitsPerEm = unitsPerEm; self.ascender = ascender; self.descender = descender; self.lineGap = lineGap; self.xHeight = xHeight
    }

    /// From the face's tables by tag (`head`, `hhea`, `OS/2`); nil without a usable head and hhea.
    public init?(table: (String) -> [UInt8]?) {
        guard let head = table("head").map(SfntReader.init), let upem = head.u16(18), upem > 0,
              let hhea = table("hhea").map(SfntReader.init), let a = hhea.i16(4), let d = hhea.i16(6), let g = hhea.i16(8) else { return nil }
        let os2 = table("OS/2").map(SfntReader.init)
        let typo = os2.flatMap { t in t.i16(68).flatMap { a in t.i16(70).flatMap { d in t.i16(72).map { (a, d, $0) } } } }
        let useTypo = (os2?.u16(0)).map { $0 != 0xFFFF } == true && ((os2?.u16(62) ?? 0) & 0x80) != 0
        // As FreeType fills face->ascender: hhea, unless hhea gives none (then OS/2's).
        var values = (a, d, g)
        if let typo, useTypo || (a == 0 && d == 0) { values = typo }
        unitsPerEm = Double(upem)
        ascender = Double(values.0)
        descender = -Double(values.1)
        lineGap = Double(values.2)
        let version = os2?.u16(0) ?? 0
        xHeight = version >= 2 && version != 0xFFFF ? os2?.i16(86).flatMap { $0 > 0 ? Double($0) : nil } : nil
    }

    /// From a whole font file (a TrueType collection: its face `index`).
    public init?(sfnt bytes: [UInt8], index: Int = 0) {
        let file = SfntReader(bytes)
        var start = 0
        if file.u32(0) == 0x7474_6366 { // 'ttcf'
            guard let offset = file.u32(12 + 4 * index) else { return nil }
            start = Int(offset)
        }
        guard let count = file.u16(start + 4) else { return nil }
        var tables: [String: [UInt8]] = [:]
        for i in 0..<Int(count) {
            let record = start + 12 + 16 * i
            guard let tag = file.u32(record), let offset = file.u32(record + 8), let length = file.u32(record + 12),
                  Int(offset) + Int(length) <= bytes.count else { return nil }
            let name = String(decoding: [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: tag >> $0) }, as: UTF8.self)
            tables[name] = Array(bytes[Int(offset)..<Int(offset) + Int(length)])
        }
        self.init(table: { tables[$0] })
    }

    /// At a font size in CSS pixels on a screen of `device` scale, with Blink's rounding
    /// (SimpleFontData), which it does on the font at its size in device pixels: ascent and
    /// descent each rounded to a whole device pixel, and a device pixel moved from ascent to
    /// descent when the descent was rounded down and text is positioned in subpixels, which
    /// Chromium on Linux does on screens above 1x only (Inter 14 px: baseline 14 at 1x,
    /// 13.5 at 2x, 13.333 at 3x); the line gap rounded too. Inter 16 px lines: 20 at 1x,
    /// 19.5 at 2x, 19.667 at 3x.
    public func scaled(to size: Double, on device: DeviceScale = .one) -> Scaled {
        let scale = size * device.factor / unitsPerEm
        let exactDescent = descender * scale
        var ascent = (ascender * scale).rounded(), descent = exactDescent.rounded()
        if device.factor > 1 && descent < exactDescent && ascent >= 1 { descent += 1; ascent -= 1 }
        let f = device.factor
        return Scaled(ascent: ascent / f, descent: descent / f, lineGap: (lineGap * scale).rounded() / f,
                      xHeight: xHeight.map { $0 * scale / f }, device: device)
    }

    public struct Scaled: Sendable, Equatable {
        public var ascent: Double, descent: Double, lineGap: Double
        /// Unrounded, as `ex` uses it; nil when the face has none.
        public var xHeight: Double?
        /// The screen whose device pixels the metrics are rounded to.
        public var device: DeviceScale
        /// CSS `line-height: normal`.
        public var normalLineHeight: Double { ascent + descent + lineGap }

        public init(ascent: Double, descent: Double, lineGap: Double, xHeight: Double?, device: DeviceScale = .one) {
            self.ascent = ascent; self.descent = descent; self.lineGap = lineGap; self.xHeight = xHeight; self.device = device
        }

        /// An inline box of this font with `lineHeight` (CSS 2.1 §10.8.1): the half-leading is
        /// added above and below the ascent and descent, floored to a device pixel on the ascent
        /// side as Blink does.
        public func inlineBox(lineHeight: Double) -> (above: Double, below: Double) {
            let above = ascent + device.floored((lineHeight - ascent - descent) / 2)
            return (above, lineHeight - above)
        }
    }
}

/// Big-endian reads that return nil past the end.
struct SfntReader {
    let bytes: [UInt8]
    init(_ bytes: [UInt8]) { self.bytes = bytes }
    func u16(_ at: Int) -> UInt16? { at >= 0 && at + 2 <= bytes.count ? UInt16(bytes[at]) << 8 | UInt16(bytes[at + 1]) : nil }
    func i16(_ at: Int) -> Int16? { u16(at).map { Int16(bitPattern: $0) } }
    func u32(_ at: Int) -> UInt32? { u16(at).flatMap { high in u16(at + 2).map { UInt32(high) << 16 | UInt32($0) } } }
}
