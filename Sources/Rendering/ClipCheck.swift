import Layout

/// Whether clipping a box (`overflow: hidden`) would change a pixel: does anything painted
/// beneath it reach outside its padding box, or into a rounded corner? Under a clip cairo
/// composites every later fill through a mask, which made clipped cards the largest painting
/// cost; most cards (a notification platter with inset text) clip nothing.
enum ClipCheck {
    struct Box { var x0, y0, x1, y1: Double }

    static func needed(_ box: SceneBox, innerRadii radii: [Double]) -> Bool {
        let b = box.borderWidths
        let inner = Box(x0: b[3], y0: b[0], x1: box.frame.width - b[1], y1: box.frame.height - b[2])
        // A bevelled or concave corner cuts into more than the round one this check knows.
        if let shapes = box.cornerShapes, zip(shapes, radii).contains(where: { $0 < 1 && $1 > 0 }) { return true }
        return reaches(box.items, dx: 0, dy: 0, inner: inner, radii: radii)
    }

    private static func reaches(_ items: [SceneItem], dx: Double, dy: Double, inner: Box, radii: [Double]) -> Bool {
        for item in items {
            switch item {
            case .box(let c):
                let x = dx + c.frame.x, y = dy + c.frame.y
                let paints = c.background.a > 0 || c.gradient != nil || c.backgroundImage != nil || c.borderWidths.contains { $0 > 0 } || !c.shadows.isEmpty
                let reach = c.shadows.map { abs($0.x) + abs($0.y) + $0.blur + max(0, $0.spread) }.max() ?? 0
                if paints && outside(Box(x0: x - reach, y0: y - reach, x1: x + c.frame.width + reach, y1: y + c.frame.height + reach), inner, radii) { return true }
                if reaches(c.items, dx: x, dy: y, inner: inner, radii: radii) { return true }
            case .text(let t):
                // Glyph ink can overhang its line box a little (italics, emoji, accents).
                if outside(Box(x0: dx + t.frame.x - 1, y0: dy + t.frame.y - 1, x1: dx + t.frame.x + t.frame.width + 1, y1: dy + t.frame.y + t.frame.height + 1), inner, radii) { return true }
            case .image(let i):
                if outside(Box(x0: dx + i.frame.x, y0: dy + i.frame.y, x1: dx + i.frame.x + i.frame.width, y1: dy + i.frame.y + i.frame.height), inner, radii) { return true }
            case .vector(let v):
                if outside(Box(x0: dx + v.frame.x, y0: dy + v.frame.y, x1: dx + v.frame.x + v.frame.width, y1: dy + v.frame.y + v.frame.height), inner, radii) { return true }
            }
        }
        return false
    }

    /// `r` reaches outside `inner`, or into the part of a rounded corner that the clip removes.
    static func outside(_ r: Box, _ inner: Box, _ radii: [Double]) -> Bool {
        guard r.x1 > r.x0, r.y1 > r.y0 else { return false }
        let e = 0.01
        if r.x0 < inner.x0 - e || r.y0 < inner.y0 - e || r.x1 > inner.x1 + e || r.y1 > inner.y1 + e { return true }
        // Each corner: the point of r nearest to it, against the corner's circle.
        let corners: [(px: Double, py: Double, cx: Double, cy: Double, radius: Double)] = [
            (r.x0, r.y0, inner.x0 + radii[0], inner.y0 + radii[0], radii[0]),
            (r.x1, r.y0, inner.x1 - radii[1], inner.y0 + radii[1], radii[1]),
            (r.x1, r.y1, inner.x1 - radii[2], inner.y1 - radii[2], radii[2]),
            (r.x0, r.y1, inner.x0 + radii[3], inner.y1 - radii[3], radii[3]),
        ]
        for (i, c) in corners.enumerated() where c.radius > 0 {
            let inCornerSquare = (i == 0 || i == 3 ? c.px < c.cx : c.px > c.cx) && (i < 2 ? c.py < c.cy : c.py > c.cy)
            if inCornerSquare && ((c.px - c.cx) * (c.px - c.cx) + (c.py - c.cy) * (c.py - c.cy)).squareRoot() > c.radius - e { return true }
        }
        return false
    }
}
