internal import CPango
import Foundation

// The outline every box is painted, clipped and shadowed by.

/// A rectangle with circular corners (top-left, top-right, bottom-right, bottom-left), or with the
/// `corner-shape` curves `shapes` gives each (nil: all round).
func roundedRect(_ cr: OpaquePointer, _ x: Double, _ y: Double, _ w: Double, _ h: Double, _ r: [Double], shapes: [Double]? = nil) {
    guard w > 0, h > 0 else { return }
    if r.allSatisfy({ $0 <= 0 }) { cairo_rectangle(cr, x, y, w, h); return }
    cairo_new_sub_path(cr)
    // Clockwise from the top-right corner: each corner's point, the direction its incoming edge
    // runs and the one its outgoing edge runs.
    let corners: [(i: Int, px: Double, py: Double, a: (Double, Double), b: (Double, Double))] = [
        (1, x + w, y, (1, 0), (0, 1)), (2, x + w, y + h, (0, 1), (-1, 0)),
        (3, x, y + h, (-1, 0), (0, -1)), (0, x, y, (0, -1), (1, 0)),
    ]
    for (n, c) in corners.enumerated() {
        let radius = r[c.i], shape = shapes?[c.i] ?? 1
        if shape == 1 {
            cairo_arc(cr, c.px - c.a.0 * radius + c.b.0 * radius, c.py - c.a.1 * radius + c.b.1 * radius, radius, Double(n - 1) * Double.pi / 2, Double(n) * Double.pi / 2)
        } else {
            cornerCurve(cr, point: (c.px, c.py), incoming: c.a, outgoing: c.b, radius: radius, shape: shape)
        }
    }
    cairo_close_path(cr)
}

/// A `corner-shape` corner (Borders 4 §3.7): from `radius` before the corner point along the
/// incoming edge to `radius` after it along the outgoing one, the superellipse of exponent 2^|K|:
/// about the circle's centre, bulging to the corner, when K > 0 (1 is the circle, ∞ the square
/// corner); about the corner itself, bowed inwards, when K < 0; a straight bevel at 0.
func cornerCurve(_ cr: OpaquePointer, point p: (Double, Double), incoming a: (Double, Double), outgoing b: (Double, Double), radius r: Double, shape k: Double) {
    guard r > 0 else { cairo_line_to(cr, p.0, p.1); return }
    let start = (p.0 - a.0 * r, p.1 - a.1 * r), centre = (start.0 + b.0 * r, start.1 + b.1 * r)
    cairo_line_to(cr, start.0, start.1)
    if k == .infinity { cairo_line_to(cr, p.0, p.1) }
    else if k == -.infinity { cairo_line_to(cr, centre.0, centre.1) }
    else {
        let power = 2 / pow(2, abs(k)), steps = 48
        for step in 1...steps {
            let t = Double(step) / Double(steps) * Double.pi / 2
            let u = pow(cos(t), power), v = pow(sin(t), power)
            // Convex: from the centre, -b scaled by u and a by v. Concave: from the corner point,
            // -a by u and b by v. Both run from `start` to `radius` along the outgoing edge.
            if k > 0 { cairo_line_to(cr, centre.0 - b.0 * r * u + a.0 * r * v, centre.1 - b.1 * r * u + a.1 * r * v) }
            else { cairo_line_to(cr, p.0 - a.0 * r * u + b.0 * r * v, p.1 - a.1 * r * u + b.1 * r * v) }
        }
    }
    cairo_line_to(cr, p.0 + b.0 * r, p.1 + b.1 * r)
}

