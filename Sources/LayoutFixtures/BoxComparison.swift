import Foundation
import Layout

/// Our id'd boxes against Chromium's, the one comparison the recorded-fixture tests and the WPT
/// sample make: each element's border box within `tolerance` points, a box on one side only, in
/// id order. Chromium's inline boxes (`display: inline`) are not asked for: our scene has no box
/// of their own (their text is laid out in their block's lines).
public enum BoxComparison {
    public static let tolerance = 0.5

    /// Our boxes by id, the first of each id in document order, as x, y, width, height.
    public static func byID(_ boxes: [LaidOutBox]) -> [String: [Double]] {
        Dictionary(boxes.compactMap { box in box.id.map { ($0, [box.x, box.y, box.width, box.height]) } }, uniquingKeysWith: { first, _ in first })
    }

    /// `ours` and `chrome`: x, y, width, height per id (Chromium's nil where it makes no box);
    /// `displays`: Chromium's computed display per id. Each miss is said as "#id: …".
    public static func differences(ours: [String: [Double]], chrome: [String: [Double]?], displays: [String: String],
                                   tolerance: Double = tolerance) -> [String] {
        var misses: [String] = []
        for (id, theirs) in chrome.sorted(by: { $0.key < $1.key }) {
            switch (ours[id], theirs) {
            case (nil, nil): continue
            case (nil, _?) where displays[id] == "inline": continue
            case (nil, let c?): misses.append("#\(id): no box here, Chromium's is \(format(c))")
            case (let mine?, nil): misses.append("#\(id): Chromium makes no box, ours is \(format(mine))")
            case (let mine?, let c?):
                let delta = zip(mine, c).map { abs($0 - $1) }.max() ?? 0
                if delta > tolerance { misses.append("#\(id): ours \(format(mine)), Chromium's \(format(c)), \(String(format: "%.2f", delta)) pt off") }
            }
        }
        for id in ours.keys.sorted() where chrome[id] == nil {
            misses.append("#\(id): laid out here, not measured in Chromium")
        }
        return misses
    }

    public static func format(_ values: [Double]) -> String {
        "(" + values.map { String(format: "%g", ($0 * 100).rounded() / 100) }.joined(separator: ", ") + ")"
    }
}
