import Checked
import Foundation

/// SVG path data (SVG 1.1 §8.3): every command, relative and absolute, turned into moves, lines,
/// cubic curves and closes; quadratic curves are raised and arcs converted (Appendix F.6).
enum PathData {
    static func numbers(_ text: String) -> [Double] {
        var out: [Double] = [], current = ""
        func flush() { if let v = Double(decimal: current) { out.append(v.clampedLength) }; current = "" }
        for c in text {
            if c.isASCII && c.isNumber || c == "." && !current.contains(".") && !current.contains("e") { current.append(c) }
            else if c == "." { flush(); current = "." }
            else if c == "-" || c == "+" { if current.last == "e" || current.last == "E" { current.append(c) } else { flush(); current.append(c) } }
            else if c == "e" || c == "E" { current.append(c) }
            else { flush() }
        }
        flush()
        return out
    }

    static func parse(_ d: String) -> [VectorShape.Command] {
        var out: [VectorShape.Command] = []
        var x = 0.0, y = 0.0, startX = 0.0, startY = 0.0
        var lastControl: (Double, Double)?, lastQuad: (Double, Double)?
        var command: Character = " "
        var tokens: [(Character, [Double])] = []
        var pending = ""
        for c in d {
            if c.isLetter && c != "e" && c != "E" {
                if command != " " { tokens.append((command, numbers(pending))) }
                command = c; pending = ""
            } else { pending.append(c) }
        }
        if command != " " { tokens.append((command, numbers(pending))) }

        for (cmd, args) in tokens {
            let relative = cmd.isLowercase
            let kind = Character(cmd.uppercased())
            let arity = ["M": 2, "L": 2, "H": 1, "V": 1, "C": 6, "S": 4, "Q": 4, "T": 2, "A": 7, "Z": 0][String(kind)] ?? 0
            if arity == 0 { out.append(.close); x = startX; y = startY; lastControl = nil; lastQuad = nil; continue }
            var i = 0
            var first = true
            while i + arity <= args.count {
                let a = Array(args[i..<(i + arity)])
                i += arity
                let (ox, oy) = relative ? (x, y) : (0, 0)
                var control: (Double, Double)?, quad: (Double, Double)?
                switch kind {
                case "M":
                    // Pairs after the first of a moveto are implicit linetos.
                    x = a[0] + ox; y = a[1] + oy
                    if first { startX = x; startY = y; out.append(.move(x, y)) } else { out.append(.line(x, y)) }
                case "L": x = a[0] + ox; y = a[1] + oy; out.append(.line(x, y))
                case "H": x = a[0] + (relative ? x : 0); out.append(.line(x, y))
                case "V": y = a[0] + (relative ? y : 0); out.append(.line(x, y))
                case "C":
                    out.append(.curve(a[0] + ox, a[1] + oy, a[2] + ox, a[3] + oy, a[4] + ox, a[5] + oy))
                    control = (a[2] + ox, a[3] + oy); x = a[4] + ox; y = a[5] + oy
                case "S":
                    let c1 = lastControl.map { (2 * x - $0.0, 2 * y - $0.1) } ?? (x, y)
                    out.append(.curve(c1.0, c1.1, a[0] + ox, a[1] + oy, a[2] + ox, a[3] + oy))
                    control = (a[0] + ox, a[1] + oy); x = a[2] + ox; y = a[3] + oy
                case "Q", "T":
                    let q = kind == "Q" ? (a[0] + ox, a[1] + oy) : (lastQuad.map { (2 * x - $0.0, 2 * y - $0.1) } ?? (x, y))
                    let (ex, ey) = kind == "Q" ? (a[2] + ox, a[3] + oy) : (a[0] + ox, a[1] + oy)
                    out.append(.curve(x + 2 / 3 * (q.0 - x), y + 2 / 3 * (q.1 - y), ex + 2 / 3 * (q.0 - ex), ey + 2 / 3 * (q.1 - ey), ex, ey))
                    quad = q; x = ex; y = ey
                case "A":
                    let (ex, ey) = (a[5] + ox, a[6] + oy)
                    out += arc(from: (x, y), to: (ex, ey), rx: abs(a[0]), ry: abs(a[1]), rotation: a[2], large: a[3] != 0, sweep: a[4] != 0)
                    x = ex; y = ey
                default: break
                }
                first = false
                lastControl = control; lastQuad = quad
            }
        }
        return out
    }

    /// Endpoint to centre parameterization (SVG 1.1 F.6.5), then one cubic per quarter turn at most.
    static func arc(from p0: (Double, Double), to p1: (Double, Double), rx rx0: Double, ry ry0: Double,
                    rotation: Double, large: Bool, sweep: Bool) -> [VectorShape.Command] {
        if p0 == p1 { return [] }
        if rx0 == 0 || ry0 == 0 { return [.line(p1.0, p1.1)] }
        let phi = rotation * Double.pi / 180, cosPhi = cos(phi), sinPhi = sin(phi)
        let dx = (p0.0 - p1.0) / 2, dy = (p0.1 - p1.1) / 2
        let x1 = cosPhi * dx + sinPhi * dy, y1 = -sinPhi * dx + cosPhi * dy
        var rx = rx0, ry = ry0
        let lambda = x1 * x1 / (rx * rx) + y1 * y1 / (ry * ry)
        if lambda > 1 { rx *= lambda.squareRoot(); ry *= lambda.squareRoot() }
        let num = rx * rx * ry * ry - rx * rx * y1 * y1 - ry * ry * x1 * x1
        let den = rx * rx * y1 * y1 + ry * ry * x1 * x1
        var factor = (max(0, num / den)).squareRoot()
        if large == sweep { factor = -factor }
        let cx1 = factor * rx * y1 / ry, cy1 = -factor * ry * x1 / rx
        let cx = cosPhi * cx1 - sinPhi * cy1 + (p0.0 + p1.0) / 2, cy = sinPhi * cx1 + cosPhi * cy1 + (p0.1 + p1.1) / 2
        func angle(_ ux: Double, _ uy: Double, _ vx: Double, _ vy: Double) -> Double {
            let a = atan2(ux * vy - uy * vx, ux * vx + uy * vy)
            return a
        }
        let theta1 = angle(1, 0, (x1 - cx1) / rx, (y1 - cy1) / ry)
        var delta = angle((x1 - cx1) / rx, (y1 - cy1) / ry, (-x1 - cx1) / rx, (-y1 - cy1) / ry)
        if !sweep && delta > 0 { delta -= 2 * Double.pi } else if sweep && delta < 0 { delta += 2 * Double.pi }
        let segments = max(1, min(64, Int(saturating: abs(delta) / (Double.pi / 2), rounded: .up)))
        let step = delta / Double(segments)
        let k = 4 / 3 * tan(step / 4)
        var out: [VectorShape.Command] = []
        var t = theta1
        func point(_ a: Double) -> (Double, Double) {
            (cx + rx * cos(a) * cosPhi - ry * sin(a) * sinPhi, cy + rx * cos(a) * sinPhi + ry * sin(a) * cosPhi)
        }
        func derivative(_ a: Double) -> (Double, Double) {
            (-rx * sin(a) * cosPhi - ry * cos(a) * sinPhi, -rx * sin(a) * sinPhi + ry * cos(a) * cosPhi)
        }
        for _ in 0..<segments {
            let a = point(t), b = point(t + step), da = derivative(t), db = derivative(t + step)
            out.append(.curve(a.0 + k * da.0, a.1 + k * da.1, b.0 - k * db.0, b.1 - k * db.1, b.0, b.1))
            t += step
        }
        return out
    }
}
