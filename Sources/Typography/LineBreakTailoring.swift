internal import CPango

/// Where Chromium's line breaking differs from Pango's UAX #14 and CSS Text 4's spacing of CJK
/// punctuation, named once (measured against Chromium 156 on the line-break-text fixtures):
/// - no break after "/" before a letter or digit: a URL is one word (Pango breaks after each "/");
/// - `line-break: normal` (CSS Text 3 §5.3, UAX #14 LB1's CJ → ID): a line may start with a small
///   kana or the prolonged sound mark, which Pango's strict rule keeps off a line's start;
/// - `text-spacing-trim: normal` (CSS Text 4 §8.1, trim-adjacent): a fullwidth closing
///   punctuation before another closing one, or an opening one after another opening one, is
///   set half-width (the face's `halt` glyph), so "。」" takes a character and a half.
public enum LineBreakTailoring {
    /// Small kana and the prolonged sound mark (UAX #14 class CJ).
    static func isSmallKana(_ v: UInt32) -> Bool {
        [0x3041, 0x3043, 0x3045, 0x3047, 0x3049, 0x3063, 0x3083, 0x3085, 0x3087, 0x308E, 0x3095, 0x3096,
         0x30A1, 0x30A3, 0x30A5, 0x30A7, 0x30A9, 0x30C3, 0x30E3, 0x30E5, 0x30E7, 0x30EE, 0x30F5, 0x30F6, 0x30FC].contains(v)
            || (0x31F0...0x31FF).contains(v) || (0xFF67...0xFF70).contains(v)
    }

    /// Kana and ideographs (UAX #14 ID), after which a break before a small kana is allowed.
    static func isIdeographic(_ v: UInt32) -> Bool {
        (0x3040...0x30FF).contains(v) || (0x3400...0x4DBF).contains(v) || (0x4E00...0x9FFF).contains(v)
            || (0xF900...0xFAFF).contains(v) || (0xFF66...0xFF9F).contains(v)
    }

    /// `text` with a zero-width space before each small kana that follows a kana or ideograph:
    /// the break opportunity Chromium's `line-break: normal` has there and Pango's rules lack.
    public static func breakingBeforeSmallKana(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { isSmallKana($0.value) }) else { return text }
        var out = String.UnicodeScalarView(), previous: UInt32 = 0
        for scalar in text.unicodeScalars {
            if isSmallKana(scalar.value) && isIdeographic(previous) { out.append("\u{200B}") }
            out.append(scalar)
            previous = scalar.value
        }
        return String(out)
    }

    static let closing: Set<UInt32> = [0x3001, 0x3002, 0xFF0C, 0xFF0E, 0x300D, 0x300F, 0x3011, 0x3015, 0x3017, 0x3019, 0x301B, 0xFF09, 0xFF3D, 0xFF5D]
    static let opening: Set<UInt32> = [0x300C, 0x300E, 0x3010, 0x3014, 0x3016, 0x3018, 0x301A, 0xFF08, 0xFF3B, 0xFF5B]

    /// Pango attributes for `text` (the bytes Pango lays out): no break after "/" before an
    /// alphanumeric, and `halt` on the punctuation trim-adjacent sets half-width.
    static func attributes(_ text: String) -> [UnsafeMutablePointer<PangoAttribute>] {
        var out: [UnsafeMutablePointer<PangoAttribute>] = []
        let scalars = Array(text.unicodeScalars)
        guard scalars.contains(where: { $0 == "/" || closing.contains($0.value) || opening.contains($0.value) }) else { return [] }
        var offsets: [Int] = [], byte = 0
        for s in scalars { offsets.append(byte); byte += String(s).utf8.count }
        offsets.append(byte)
        func add(_ attribute: UnsafeMutablePointer<PangoAttribute>?, _ from: Int, _ to: Int) {
            guard let attribute else { return }
            attribute.pointee.start_index = UInt32(offsets[from])
            attribute.pointee.end_index = UInt32(offsets[to])
            out.append(attribute)
        }
        for i in scalars.indices.dropLast() {
            let s = scalars[i], next = scalars[i + 1]
            if s == "/", next.properties.isAlphabetic || next.properties.numericType != nil { add(pango_attr_allow_breaks_new(0), i, i + 2) }
            if closing.contains(s.value) && closing.contains(next.value) { add(pango_attr_font_features_new("halt"), i, i + 1) }
            if opening.contains(s.value) && opening.contains(next.value) { add(pango_attr_font_features_new("halt"), i + 1, i + 2) }
        }
        return out
    }
}
