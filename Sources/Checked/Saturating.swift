/// The one way a Double becomes an integer in PushPreview. Swift's `Int(Double)` traps on NaN,
/// infinity and anything out of range, and inputs reach every such conversion (a 1e300 badge, an
/// `infpx` length), so each goes through this: NaN is 0, and the rest saturate at the type's
/// bounds, as Blink saturates its layout units.
extension FixedWidthInteger {
    /// `value` rounded toward zero, NaN as 0, clamped to `min...max`.
    @inlinable public init(saturating value: Double) {
        if value.isNaN { self = 0 }
        else if value <= Double(Self.min) { self = .min }
        else if value >= Double(Self.max) { self = .max }  // Double(Int.max) rounds up to 2^63
        else { self.init(value) }
    }

    /// `value` rounded by `rule` first.
    @inlinable public init(saturating value: Double, rounded rule: FloatingPointRoundingRule) {
        self.init(saturating: value.rounded(rule))
    }
}

extension Double {
    /// The largest length, in CSS px, that layout keeps: Blink's LayoutUnit (1/64 px in 32 bits)
    /// saturates here, and so do our lengths, so no later multiplication can overflow.
    public static let maxLength = 33_554_431.0

    /// This length clamped to ±`maxLength`, NaN as 0.
    @inlinable public var clampedLength: Double { isNaN ? 0 : Swift.min(Swift.max(self, -Double.maxLength), Double.maxLength) }
}

extension Double {
    /// A decimal number as CSS, SVG and JSON write it — `[+-]digits[.digits][e[+-]digits]`, ASCII
    /// only — and finite. Swift's `Double(String)` also takes "nan", "inf", hex floats and
    /// overflows to infinity; none of those may reach layout.
    public init?(decimal text: some StringProtocol) {
        var digits = 0, seenDot = false, seenExponent = false, exponentDigits = 0
        var previous: UInt8 = 0
        for (i, c) in text.utf8.enumerated() {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): if seenExponent { exponentDigits += 1 } else { digits += 1 }
            case UInt8(ascii: "."): guard !seenDot, !seenExponent else { return nil }; seenDot = true
            case UInt8(ascii: "e"), UInt8(ascii: "E"): guard digits > 0, !seenExponent else { return nil }; seenExponent = true
            case UInt8(ascii: "+"), UInt8(ascii: "-"):
                guard i == 0 || previous == UInt8(ascii: "e") || previous == UInt8(ascii: "E") else { return nil }
            default: return nil
            }
            previous = c
        }
        guard digits > 0, !seenExponent || exponentDigits > 0, let value = Double(String(text)), value.isFinite else { return nil }
        self = value
    }
}
