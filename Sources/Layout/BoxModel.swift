import Styling

/// Resolved widths of the four sides of a box, in points.
struct Edges: Equatable {
    var top = 0.0, right = 0.0, bottom = 0.0, left = 0.0
    var horizontal: Double { left + right }
    var vertical: Double { top + bottom }
    init(top: Double = 0, right: Double = 0, bottom: Double = 0, left: Double = 0) {
        self.top = top; self.right = right; self.bottom = bottom; self.left = left
    }
    init(_ sides: [Double]) { self.init(top: sides[0], right: sides[1], bottom: sides[2], left: sides[3]) }
    /// A side by CSS's order: 0 top, 1 right, 2 bottom, 3 left.
    subscript(side side: Int) -> Double { [top, right, bottom, left][side] }
}

/// CSS Box Model 3 §4–5: padding and margin percentages refer to the containing block's width.
extension ComputedStyle {
    func paddingEdges(_ cbWidth: Double) -> Edges { Edges(padding.map { $0.resolve(cbWidth) ?? 0 }) }
    func borderEdges() -> Edges { Edges(borderWidth) }
    /// Auto margins count as 0 here; centring is done where it applies.
    func marginEdges(_ cbWidth: Double) -> Edges { Edges(margin.map { $0.resolve(cbWidth) ?? 0 }) }
    func frame(_ cbWidth: Double) -> Edges {
        let p = paddingEdges(cbWidth), b = borderEdges()
        return Edges(top: p.top + b.top, right: p.right + b.right, bottom: p.bottom + b.bottom, left: p.left + b.left)
    }

    /// A specified `width`/`height` as a border-box size (box-sizing decides what it measures).
    func borderBoxSize(_ length: Length, base: Double?, frame: Double) -> Double? {
        guard let v = length.resolve(base) else { return nil }
        return borderBoxSizing ? max(v, frame) : v + frame
    }

    /// The border-box width an aspect-ratio gives a border-box height (box-sizing decides
    /// which boxes the ratio relates).
    func transferredWidth(_ height: Double, ratio: Double, frame: Edges) -> Double {
        borderBoxSizing ? height * ratio : max(0, height - frame.vertical) * ratio + frame.horizontal
    }

    /// Applies min-/max-width (CSS 2.1 §10.4) to a border-box width.
    func clampWidth(_ w: Double, cbWidth: Double?, frame: Double) -> Double {
        var w = w
        if let max = borderBoxSize(maxWidth, base: cbWidth, frame: frame) { w = min(w, max) }
        if let min = borderBoxSize(minWidth, base: cbWidth, frame: frame) { w = Swift.max(w, min) }
        return Swift.max(w, frame)
    }

    /// Applies min-/max-height (§10.7) to a border-box height.
    func clampHeight(_ h: Double, cbHeight: Double?, frame: Double) -> Double {
        var h = h
        if let max = borderBoxSize(maxHeight, base: cbHeight, frame: frame) { h = min(h, max) }
        if let min = borderBoxSize(minHeight, base: cbHeight, frame: frame) { h = Swift.max(h, min) }
        return Swift.max(h, frame)
    }
}
