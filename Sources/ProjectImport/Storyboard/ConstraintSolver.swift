/// A view's layout margins (points): its own `layoutMargins`, else UIKit's defaults — 16 at the
/// sides of a view controller's view (iPhone), 8 on every side of any other view.
struct Margins: Sendable {
    var top = 8.0, leading = 8.0, bottom = 8.0, trailing = 8.0

    init(_ view: SceneView, isRoot: Bool) {
        if isRoot { (top, leading, bottom, trailing) = (0, 16, 0, 16) }
        if let e = view.element.child("directionalEdgeInsets", key: "directionalLayoutMargins") {
            (top, leading, bottom, trailing) = (e.number("top") ?? 0, e.number("leading") ?? 0, e.number("bottom") ?? 0, e.number("trailing") ?? 0)
        } else if let e = view.element.child("edgeInsets", key: "layoutMargins") {
            (top, leading, bottom, trailing) = (e.number("top") ?? 0, e.number("left") ?? 0, e.number("bottom") ?? 0, e.number("right") ?? 0)
        }
    }

    func start(_ axis: Axis) -> Double { axis == .horizontal ? leading : top }
    func end(_ axis: Axis) -> Double { axis == .horizontal ? trailing : bottom }
}

/// Places each subview of a container from the constraints among them and the container, as
/// Auto Layout would for the linear ones: equalities, required before optional, each fixing an
/// edge not yet fixed, repeated until nothing changes (a chain of siblings resolves in as many
/// passes). Inequalities fix only a minimum or maximum size. A rule that never places anything
/// is left in `unused`, so that the template can say the design-time frame was drawn instead.
struct ConstraintSolver {
    var rules: [LayoutRule]
    var margins: [String: Margins]
    /// Rules that placed an edge, or agreed with edges placed already.
    var used: Set<Int> = []
    /// Baseline rules, drawn as top or bottom alignment.
    var approximated: Set<Int> = []
    static let maxPasses = 64

    /// Each subview's placement in `container`'s coordinates. In a stack view the stack places
    /// its arranged subviews, so only their sizes are taken.
    mutating func solve(_ container: SceneView) -> [String: Placement] {
        let children = Set(container.subviews.map(\.id))
        var place = Dictionary(uniqueKeysWithValues: container.subviews.map { ($0.id, Placement()) })
        let isStack = container.kind == .stackView
        let mine = rules.indices.filter { i in
            let items = [rules[i].first.item] + (rules[i].second.map { [$0.item] } ?? [])
            return items.contains(where: children.contains) && items.allSatisfy { $0 == container.id || children.contains($0) }
        }.sorted { (rules[$0].relation != .equal ? 1 : 0, -rules[$0].priority, $0) < (rules[$1].relation != .equal ? 1 : 0, -rules[$1].priority, $1) }
        func run() {
            // Each pass fixes at least one edge; a chain longer than this keeps its frames.
            for _ in 0...min(mine.count, Self.maxPasses) {
                var changed = false
                for i in mine {
                    if isStack && (rules[i].first.edge != .size || (rules[i].second.map { $0.edge != .size } ?? false)) { used.insert(i); continue }
                    changed = apply(i, container: container.id, &place) || changed
                }
                for id in children { place[id]?.fill() }
                if !changed { break }
            }
        }
        run()
        // What the constraints leave open, a view that does not size itself to its text has at
        // its design-time size (a switch's frame is its own size): with it, chains through the
        // view resolve too.
        guard !isStack else { return place }
        var seeded = false
        for v in container.subviews where v.kind != .label && v.kind != .stackView && v.kind != .button {
            let p = place[v.id]!
            // An aspect ratio with one size known gives the other (as CSS aspect-ratio).
            guard p.aspectRatio == nil || (p.horizontal.size == nil && p.vertical.size == nil) else { continue }
            for (axis, length) in [(Axis.horizontal, v.frame?.width), (.vertical, v.frame?.height)] {
                guard let length, p[axis].size == nil else { continue }
                place[v.id]![axis].size = .points(length)
                place[v.id]![axis].sizeFromFrame = true
                seeded = true
            }
        }
        guard seeded else { return place }
        for id in children { place[id]?.fill() }
        run()
        return place
    }

    /// Applies rule `i`; true when it placed an edge.
    private mutating func apply(_ i: Int, container: String, _ place: inout [String: Placement]) -> Bool {
        let r = rules[i], first = r.first
        if r.first.baseline || r.second?.baseline == true { approximated.insert(i) }
        guard r.relation == .equal else {
            // `width ≥ 44` and the like: a minimum or maximum size.
            guard first.edge == .size, r.second == nil, place[first.item] != nil else { return false }
            if r.relation == .greaterThanOrEqual { place[first.item]![first.axis].minSize = r.constant } else { place[first.item]![first.axis].maxSize = r.constant }
            used.insert(i)
            return false
        }
        guard let second = r.second else {
            // `width = 160`: a size; a position needs a second item.
            guard first.edge == .size, place[first.item] != nil else { return false }
            used.insert(i)
            guard place[first.item]![first.axis].size == nil else { return false }
            place[first.item]![first.axis].size = .points(r.constant)
            place[first.item]![first.axis].given.insert(.size)
            return true
        }
        // `width = 16:9 × height` of one view: its aspect ratio (width ÷ height).
        if first.item == second.item, first.edge == .size, second.edge == .size, first.axis != second.axis, r.constant == 0, r.multiplier > 0 {
            guard place[first.item]?.aspectRatio == nil else { used.insert(i); return false }
            place[first.item]?.aspectRatio = first.axis == .horizontal ? r.multiplier : 1 / r.multiplier
            used.insert(i)
            return true
        }
        let x = value(first, container: container, place), y = value(second, container: container, place)
        // Lengths of different axes are fractions of different sizes: only points carry over.
        func fits(_ v: Linear) -> Bool { first.axis == second.axis || v.fraction == 0 }
        if x != nil && y != nil { used.insert(i); return false }
        if let y, fits(y), set(first, r.multiplier * y + .points(r.constant), container: container, &place) { used.insert(i); return true }
        if let x, fits(x), set(second, (1 / r.multiplier) * (x - .points(r.constant)), container: container, &place) { used.insert(i); return true }
        return false
    }

    /// Where an anchor is in the container's coordinates, when known.
    private func value(_ a: Anchor, container: String, _ place: [String: Placement]) -> Linear? {
        let m = margins[a.item]
        let inset = a.margin ? (start: m?.start(a.axis) ?? 8, end: m?.end(a.axis) ?? 8) : (start: 0, end: 0)
        if a.item == container {
            switch a.edge {
            case .start: return .points(inset.start)
            case .end: return Linear(fraction: 1, points: -inset.end)
            case .center: return Linear(fraction: 0.5, points: (inset.start - inset.end) / 2)
            case .size: return Linear(fraction: 1, points: -inset.start - inset.end)
            }
        }
        guard let v = place[a.item]?[a.axis][a.edge] else { return nil }
        switch a.edge {
        case .start: return v + .points(inset.start)
        case .end: return v - .points(inset.end)
        case .center: return v + .points((inset.start - inset.end) / 2)
        case .size: return v
        }
    }

    /// Fixes a subview's edge (less its margin) if it is not fixed yet.
    private func set(_ a: Anchor, _ v: Linear, container: String, _ place: inout [String: Placement]) -> Bool {
        guard a.item != container, place[a.item] != nil, place[a.item]![a.axis][a.edge] == nil else { return false }
        let m = margins[a.item]
        let inset = a.margin ? (start: m?.start(a.axis) ?? 8, end: m?.end(a.axis) ?? 8) : (start: 0, end: 0)
        switch a.edge {
        case .start: place[a.item]![a.axis].start = v - .points(inset.start)
        case .end: place[a.item]![a.axis].end = v + .points(inset.end)
        case .center: place[a.item]![a.axis].center = v - .points((inset.start - inset.end) / 2)
        case .size: place[a.item]![a.axis].size = v
        }
        place[a.item]![a.axis].given.insert(a.edge)
        return true
    }
}

extension Placement {
    /// The edges the known ones give, across the axes too when an aspect ratio ties the sizes.
    mutating func fill() {
        horizontal.fillIn()
        vertical.fillIn()
        guard let ratio = aspectRatio, ratio > 0 else { return }
        if let w = horizontal.size, w.fraction == 0, vertical.size == nil { vertical.size = .points(w.points / ratio); vertical.fillIn() }
        if let h = vertical.size, h.fraction == 0, horizontal.size == nil { horizontal.size = .points(h.points * ratio); horizontal.fillIn() }
    }
}
