import Checked
import Foundation
import Testing

/// The one checked conversion: what it gives at the edges, and that the sources use it wherever
/// a computed Double becomes an integer (Swift's own conversion traps on NaN, infinity and range).
struct CheckedConversionTests {
    @Test func saturatesAtTheEdges() {
        #expect(Int(saturating: .nan) == 0)
        #expect(Int(saturating: .infinity) == .max && Int(saturating: -.infinity) == .min)
        #expect(Int(saturating: 1e300) == .max && Int32(saturating: -1e30) == .min && UInt8(saturating: -3) == 0)
        #expect(Int(saturating: Double(Int.max)) == .max)
        #expect(Int32(saturating: 2.7, rounded: .up) == 3 && Int(saturating: -2.5, rounded: .toNearestOrAwayFromZero) == -3)
        #expect(Double.infinity.clampedLength == .maxLength && Double.nan.clampedLength == 0)
        for text in ["nan", "inf", "infinity", "0x1p3", "1e400", "", "-", ".", "1e", "1e+", "٣", "１"] { #expect(Double(decimal: text) == nil, "\(text)") }
        for (text, value) in [("1", 1.0), ("-2.5", -2.5), (".5", 0.5), ("+3e2", 300), ("1E-2", 0.01)] { #expect(Double(decimal: text) == value, "\(text)") }
    }

    /// A rounded, floored or root-taken Double handed straight to an integer initialiser is the
    /// shape every trap of the mutation campaign had; none is left in the sources.
    @Test func noUncheckedConversionInTheSources() throws {
        let pattern = try NSRegularExpression(pattern: #"\b(U?Int(8|16|32|64)?)\((\(|[^)"]*\.rounded|[^)"]*squareRoot|[^)"]*\b(ceil|floor)\()"#)
        var found: [String] = []
        let sources = repositoryRoot.appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
        while let url = files?.nextObject() as? URL {
            guard url.pathExtension == "swift", !url.path.contains("/Benchmarks/") else { continue }
            for (n, line) in try String(contentsOf: url, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let text = String(line)
                guard !text.contains("saturating"), !text.contains("clamping"), !text.contains("bitPattern") else { continue }
                let hits = pattern.matches(in: text, range: NSRange(text.startIndex..., in: text))
                // Integer arithmetic in parentheses (a box blur's sums) is not a Double.
                if !hits.isEmpty, !text.contains("window") { found.append("\(url.lastPathComponent):\(n + 1): \(text.trimmingCharacters(in: .whitespaces))") }
            }
        }
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }
}
