import Checked

/// A length along one axis of a container: `fraction` of the container's size plus `points`,
/// which CSS writes as `calc(fraction% + points px)` — so a view pinned to both edges stretches
/// with the notification's width as it does on a device.
struct Linear: Sendable, Equatable {
    var fraction = 0.0, points = 0.0

    static func + (a: Linear, b: Linear) -> Linear { Linear(fraction: a.fraction + b.fraction, points: a.points + b.points) }
    static func - (a: Linear, b: Linear) -> Linear { Linear(fraction: a.fraction - b.fraction, points: a.points - b.points) }
    static func * (m: Double, a: Linear) -> Linear { Linear(fraction: m * a.fraction, points: m * a.points) }
    static func points(_ p: Double) -> Linear { Linear(points: p) }
}

enum Axis: Sendable { case horizontal, vertical }

/// What the constraints fix of one view along one axis, in its container's coordinates: its
/// start (leading or top), end, centre and size; `given` are the ones a constraint named.
struct AxisPlacement: Sendable {
    enum Edge: Sendable, Hashable { case start, end, center, size }
    var start, end, center, size: Linear?
    var given: Set<Edge> = []
    /// The size is the design-time frame's: no constraint gives it.
    var sizeFromFrame = false
    /// From `≥` and `≤` constraints on the size alone (points).
    var minSize, maxSize: Double?

    subscript(_ edge: Edge) -> Linear? {
        get { switch edge { case .start: start; case .end: end; case .center: center; case .size: size } }
        set { switch edge { case .start: start = newValue; case .end: end = newValue; case .center: center = newValue; case .size: size = newValue } }
    }

    /// The other edges that two known ones give.
    mutating func fillIn() {
        for _ in 0..<2 {
            if let s = start, let z = size { end = end ?? s + z; center = center ?? s + 0.5 * z }
            if let e = end, let z = size { start = start ?? e - z; center = center ?? e - 0.5 * z }
            if let s = start, let e = end { size = size ?? e - s; center = center ?? 0.5 * (s + e) }
            if let c = center, let z = size { start = start ?? c - 0.5 * z; end = end ?? c + 0.5 * z }
            if let c = center, let s = start, size == nil { size = 2 * (c - s) }
            if let c = center, let e = end, size == nil { size = 2 * (e - c) }
        }
    }
}

/// Both axes of one view, and its width ÷ height from an aspect-ratio constraint.
struct Placement: Sendable {
    var horizontal = AxisPlacement(), vertical = AxisPlacement()
    var aspectRatio: Double?
    subscript(_ axis: Axis) -> AxisPlacement {
        get { axis == .horizontal ? horizontal : vertical }
        set { if axis == .horizontal { horizontal = newValue } else { vertical = newValue } }
    }
}

/// One side of a constraint: an item (a view; a guide stands for its view) and an attribute.
struct Anchor: Sendable {
    var item: String
    var axis: Axis
    var edge: AxisPlacement.Edge
    /// `leadingMargin` and the like: the item's layout margin inside the edge.
    var margin = false
    /// `firstBaseline`, `lastBaseline`: drawn as the top or bottom edge.
    var baseline = false

    static func attribute(_ name: String) -> (Axis, AxisPlacement.Edge, margin: Bool, baseline: Bool)? {
        let margin = name.hasSuffix("Margin") || name.hasSuffix("WithinMargins")
        let base = name.replacingOccurrences(of: "WithinMargins", with: "").replacingOccurrences(of: "Margin", with: "")
        switch base {
        case "leading", "left": return (.horizontal, .start, margin, false)
        case "trailing", "right": return (.horizontal, .end, margin, false)
        case "top": return (.vertical, .start, margin, false)
        case "bottom": return (.vertical, .end, margin, false)
        case "centerX": return (.horizontal, .center, margin, false)
        case "centerY": return (.vertical, .center, margin, false)
        case "width": return (.horizontal, .size, false, false)
        case "height": return (.vertical, .size, false, false)
        case "firstBaseline": return (.vertical, .start, false, true)
        case "lastBaseline", "baseline": return (.vertical, .end, false, true)
        default: return nil
        }
    }
}

/// A constraint read: `first = multiplier × second + constant` (or `≥`, `≤`).
struct LayoutRule: Sendable {
    enum Relation: String, Sendable { case equal, greaterThanOrEqual, lessThanOrEqual }
    var first: Anchor
    var second: Anchor?
    var multiplier = 1.0, constant = 0.0
    var relation = Relation.equal
    var priority = 1000.0
    var element: IBElement
    var holder: String

    struct Unreadable: Error { var why: String }

    init(_ c: StoryboardScene.Constraint, guides: [String: StoryboardScene.Guide]) throws(Unreadable) {
        let e = c.element
        element = e
        holder = c.holder
        guard let firstAttribute = e["firstAttribute"] else { throw Unreadable(why: "it has no firstAttribute") }
        first = try Self.anchor(e["firstItem"] ?? c.holder, firstAttribute, guides)
        if let attribute = e["secondAttribute"] { second = try Self.anchor(e["secondItem"] ?? c.holder, attribute, guides) }
        if let m = e["multiplier"] {
            let parts = m.split(separator: ":").compactMap { Double(decimal: $0) }
            guard parts.count == (m.contains(":") ? 2 : 1), parts.allSatisfy({ $0 != 0 }) else { throw Unreadable(why: "the multiplier \(m) is not a number or a ratio") }
            multiplier = parts.count == 2 ? parts[0] / parts[1] : parts[0]
        }
        constant = e.number("constant") ?? 0
        priority = e.number("priority") ?? 1000
        if let r = e["relation"] {
            guard let relation = Relation(rawValue: r) else { throw Unreadable(why: "the relation \(r) is not known") }
            self.relation = relation
        }
    }

    /// An item and attribute; a layout guide stands for its view (a margins guide with the margin).
    static func anchor(_ item: String, _ attribute: String, _ guides: [String: StoryboardScene.Guide]) throws(Unreadable) -> Anchor {
        guard let (axis, edge, margin, baseline) = Anchor.attribute(attribute) else { throw Unreadable(why: "the attribute \(attribute) is not converted") }
        var a = Anchor(item: item, axis: axis, edge: edge, margin: margin, baseline: baseline)
        if let guide = guides[item] {
            a.item = guide.owner
            switch guide.kind {
            case "layoutMargins": a.margin = true
            // A view controller's top guide ends, and its bottom guide starts, at the view's edge.
            case "top": a.edge = .start
            case "bottom": a.edge = .end
            default: break
            }
        }
        return a
    }

    /// How messages show it, with views by name: `title.leading = view.leadingMargin + 16`.
    func text(_ name: (String) -> String) -> String {
        let e = element
        let symbol = [Relation.equal: "=", .greaterThanOrEqual: "≥", .lessThanOrEqual: "≤"][relation]!
        var rhs = e["secondAttribute"].map { "\(name(e["secondItem"] ?? holder)).\($0)" } ?? ""
        if multiplier != 1, let m = e["multiplier"] { rhs = "\(m) × \(rhs)" }
        if rhs.isEmpty { rhs = CSS.number(constant) } else if constant != 0 { rhs += " \(constant < 0 ? "-" : "+") \(CSS.number(abs(constant)))" }
        return "\(name(e["firstItem"] ?? holder)).\(e["firstAttribute"] ?? "") \(symbol) \(rhs)"
    }
}
