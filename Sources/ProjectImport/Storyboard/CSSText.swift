import Checked
import Templating

/// How the converter writes numbers, lengths, colours, names and text into a template, the same
/// way every time (deterministic bytes).
enum CSS {
    /// At most two decimals, no trailing zeros: 16, 0.5, 33.33; within ±`Double.maxLength`
    /// (so `abs` below never meets `Int.min`, whatever arithmetic made `v`).
    static func number(_ v: Double) -> String {
        let hundredths = Int(saturating: (v.clampedLength * 100).rounded())
        let sign = hundredths < 0 ? "-" : ""
        let whole = abs(hundredths) / 100, fraction = abs(hundredths) % 100
        if fraction == 0 { return hundredths == 0 ? "0" : "\(sign)\(whole)" }
        let digits = fraction % 10 == 0 ? "\(fraction / 10)" : (fraction < 10 ? "0\(fraction)" : "\(fraction)")
        return "\(sign)\(whole).\(digits)"
    }

    /// An aspect ratio to four decimals (16:9 is 1.7778).
    static func ratio(_ v: Double) -> String {
        let signed = Int(saturating: (v.clampedLength * 10_000).rounded())
        let n = signed.magnitude, sign = signed < 0 ? "-" : ""
        var digits = String(n % 10_000)
        digits = String(repeating: "0", count: 4 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return digits.isEmpty ? "\(sign)\(n / 10_000)" : "\(sign)\(n / 10_000).\(digits)"
    }

    static func px(_ v: Double) -> String { v == 0 ? "0" : "\(number(v))px" }

    /// `16px`, `50%`, `calc(100% - 16px)`.
    static func length(_ v: Linear) -> String {
        let percent = (v.fraction * 10_000).rounded() / 100
        if percent == 0 { return px(v.points) }
        let p = "\(number(percent))%"
        let points = (v.points * 100).rounded() / 100
        if points == 0 { return p }
        return "calc(\(p) \(points < 0 ? "-" : "+") \(number(abs(points)))px)"
    }

    /// Components from 0 to 1: `#0a84ff`, or `rgba(10, 132, 255, 0.5)` when not opaque.
    static func color(red: Double, green: Double, blue: Double, alpha: Double) -> String {
        let c = [red, green, blue].map { Int(saturating: (min(max($0, 0), 1) * 255).rounded()) }
        let a = min(max(alpha, 0), 1)
        if a < 0.005 { return "transparent" }
        if a >= 0.995 {
            return "#" + c.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        }
        return "rgba(\(c[0]), \(c[1]), \(c[2]), \(number(a)))"
    }

    /// A name made of lower-case letters, digits and hyphens: "titleLabel" → "title-label".
    static func name(_ text: String) -> String {
        var out = ""
        var previousLower = false
        for ch in text.unicodeScalars {
            if ch.properties.isUppercase, previousLower { out += "-" }
            if ch.isASCII, ch.properties.isAlphabetic || ("0"..."9").contains(ch) {
                out += String(ch).lowercased()
            } else if !out.hasSuffix("-"), !out.isEmpty { out += "-" }
            previousLower = ch.properties.isLowercase || ("0"..."9").contains(ch)
        }
        while out.hasSuffix("-") { out.removeLast() }
        if out.first.map({ $0.isNumber }) ?? true { out = "v" + (out.isEmpty ? "" : "-" + out) }
        return out
    }

    /// Design-time text as template text: HTML-escaped, and braces as character references so that
    /// Mustache never reads it as a tag; a line break is `<br>`.
    static func text(_ s: String) -> String {
        escapeHTML(s).replacingOccurrences(of: "{", with: "&#123;").replacingOccurrences(of: "}", with: "&#125;").replacingOccurrences(of: "\r\n", with: "\n")
            .split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "<br>")
    }

    /// Text for inside a Mustache comment `{{! … }}`, which the first `}}` would end.
    static func comment(_ s: String) -> String {
        s.replacingOccurrences(of: "}}", with: "} }").replacingOccurrences(of: "{{", with: "{ {")
    }
}
