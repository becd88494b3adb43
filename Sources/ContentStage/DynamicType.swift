import Typography

/// Dynamic Type: the reader's text size (SwiftUI's `DynamicTypeSize` names) and Apple's text
/// styles at each size, from the Human Interface Guidelines' iOS tables (Templates/system/METRICS.md).
public enum TextSize: String, Sendable, CaseIterable, Codable {
    case xSmall, small, medium, large, xLarge, xxLarge, xxxLarge
    case accessibility1, accessibility2, accessibility3, accessibility4, accessibility5

    /// What iOS uses unless the reader changes it.
    public static let standard = TextSize.large

    var column: Int { Self.allCases.firstIndex(of: self)! }
}

/// One of Apple's text styles: its weight, and its point size and leading at every text size.
public struct TextStyle: Sendable {
    public var name: String
    public var weight: Int
    /// Size and leading (pt), one pair per `TextSize`, in order.
    var metrics: [(size: Double, leading: Double)]

    public func size(_ t: TextSize) -> Double { metrics[t.column].size }
    public func leading(_ t: TextSize) -> Double { metrics[t.column].leading }

    /// The HIG's tracking for SF Pro at a point size (CSS px), which SF Pro's own `trak` table
    /// holds; the chrome sets it as `letter-spacing` when Inter stands in.
    public static func tracking(_ size: Double) -> Double {
        let table: [(Double, Double)] = [(6, 0.24), (7, 0.23), (8, 0.21), (9, 0.17), (10, 0.12), (11, 0.06), (12, 0), (13, -0.08), (14, -0.15),
                                         (15, -0.23), (16, -0.31), (17, -0.43), (18, -0.44), (19, -0.45), (20, -0.45), (21, -0.36), (22, -0.26),
                                         (23, -0.1), (24, 0.07), (25, 0.15), (26, 0.22), (27, 0.29), (28, 0.38), (29, 0.37), (30, 0.37),
                                         (31, 0.36), (32, 0.36), (33, 0.35), (34, 0.4), (35, 0.34), (36, 0.37), (37, 0.34), (38, 0.37)]
        let s = size.rounded()
        if let hit = table.first(where: { $0.0 == s }) { return hit.1 }
        return s < 6 ? 0.24 : 0.37 // the HIG's values flatten out past 38 pt
    }

    static func style(_ name: String, weight: Int = 400, _ pairs: [Double]) -> TextStyle {
        TextStyle(name: name, weight: weight, metrics: stride(from: 0, to: pairs.count, by: 2).map { (pairs[$0], pairs[$0 + 1]) })
    }

    /// xSmall · small · medium · large · xLarge · xxLarge · xxxLarge · AX1 … AX5, size/leading.
    public static let all: [TextStyle] = [
        style("large-title", [31, 38, 32, 39, 33, 40, 34, 41, 36, 43, 38, 46, 40, 48, 44, 52, 48, 57, 52, 61, 56, 66, 60, 70]),
        style("title1", [25, 31, 26, 32, 27, 33, 28, 34, 30, 37, 32, 39, 34, 41, 38, 46, 43, 51, 48, 57, 53, 62, 58, 68]),
        style("title2", [19, 24, 20, 25, 21, 26, 22, 28, 24, 30, 26, 32, 28, 34, 34, 41, 39, 47, 44, 52, 50, 59, 56, 66]),
        style("title3", [17, 22, 18, 23, 19, 24, 20, 25, 22, 28, 24, 30, 26, 32, 31, 38, 37, 44, 43, 51, 49, 58, 55, 65]),
        style("headline", weight: 600, [14, 19, 15, 20, 16, 21, 17, 22, 19, 24, 21, 26, 23, 29, 28, 34, 33, 40, 40, 48, 47, 56, 53, 62]),
        style("body", [14, 19, 15, 20, 16, 21, 17, 22, 19, 24, 21, 26, 23, 29, 28, 34, 33, 40, 40, 48, 47, 56, 53, 62]),
        style("callout", [13, 18, 14, 19, 15, 20, 16, 21, 18, 23, 20, 25, 22, 28, 26, 32, 32, 39, 38, 46, 44, 52, 51, 60]),
        style("subheadline", [12, 16, 13, 18, 14, 19, 15, 20, 17, 22, 19, 24, 21, 28, 25, 31, 30, 37, 36, 43, 42, 50, 49, 58]),
        style("footnote", [12, 16, 12, 16, 12, 16, 13, 18, 15, 20, 17, 22, 19, 24, 23, 29, 27, 33, 33, 40, 38, 46, 44, 52]),
        style("caption1", [11, 13, 11, 13, 11, 13, 12, 16, 14, 19, 16, 21, 18, 23, 22, 28, 26, 32, 32, 39, 37, 44, 43, 51]),
        style("caption2", [11, 13, 11, 13, 11, 13, 11, 13, 13, 18, 15, 20, 17, 22, 20, 25, 24, 30, 29, 35, 34, 41, 40, 48]),
    ]

    /// The custom properties every template sees for a text size: `--system-font` and
    /// `--system-font-display` (the face's family lists below and from 20 pt), and for each style
    /// `--font-NAME` (a `font` shorthand value: weight, size/leading, family), `--font-NAME-size`,
    /// `--font-NAME-leading` and `--font-NAME-tracking`.
    public static func stylesheet(_ t: TextSize, face: SystemFace) -> String {
        face == .inter ? stylesheets[t]! : make(t, face: face)
    }

    private static func make(_ t: TextSize, face: SystemFace) -> String {
        var lines = ["/* Dynamic Type: Apple's text styles at \(t.rawValue) (generated from Sources/ContentStage/DynamicType.swift). */", "body {"]
        lines.append("  --text-size: \(t.rawValue);")
        lines.append("  --system-font: \(face.text); --system-font-display: \(face.display);")
        for s in all {
            let size = s.size(t), leading = s.leading(t)
            lines.append("  --font-\(s.name): \(s.weight) \(css(size))px/\(css(leading))px \(face.family(size: size));")
            lines.append("  --font-\(s.name)-size: \(css(size))px; --font-\(s.name)-leading: \(css(leading))px; --font-\(s.name)-tracking: \(css(face.tracksItself(size: size) ? 0 : tracking(size)))px;")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The stylesheet of every size in Inter, made once.
    static let stylesheets: [TextSize: String] = {
        var made: [TextSize: String] = [:]
        for t in TextSize.allCases { made[t] = make(t, face: .inter) }
        return made
    }()

    static func css(_ v: Double) -> String { v == v.rounded() ? String(Int(v)) : String(v) }
}
