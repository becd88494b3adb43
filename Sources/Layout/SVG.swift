import Checked
import Foundation
import Styling
import Templating
import Typography

/// An inline `<svg>` as the Scene holds it: shapes in the SVG's user space, and the viewBox
/// mapping into the element's content box (preserveAspectRatio xMidYMid meet).
public struct SceneVector: Sendable {
    public var frame: Rect
    public var viewBox: Rect?
    public var shapes: [VectorShape]
}

public struct VectorShape: Sendable {
    public enum Command: Sendable { case move(Double, Double), line(Double, Double), curve(Double, Double, Double, Double, Double, Double), close }
    public var commands: [Command]
    /// a b c d e f, as SVG's matrix()
    public var transform: [Double]
    public var fill: RGBA?
    public var evenOdd = false
    public var stroke: RGBA?
    public var strokeWidth = 1.0
    public var lineCap = "butt", lineJoin = "miter"
}

/// Reads an `<svg>` subtree (SVG 1.1 shapes, paths, groups, transforms and presentation
/// attributes; `currentColor` is the element's CSS colour).
enum SVGReader {
    static func read(_ svg: StyledElement, frame: Rect) -> SceneVector {
        var shapes: [VectorShape] = []
        let start = Presentation(fill: .black, stroke: nil, color: svg.style.color)
        walk(svg.element, start.applying(svg.element), identity, &shapes)
        return SceneVector(frame: frame, viewBox: viewBox(svg.element), shapes: shapes)
    }

    static let identity: [Double] = [1, 0, 0, 1, 0, 0]

    struct Presentation {
        var fill: RGBA?
        var stroke: RGBA?
        var color: RGBA
        var strokeWidth = 1.0, evenOdd = false, lineCap = "butt", lineJoin = "miter"
        var opacity = 1.0, fillOpacity = 1.0, strokeOpacity = 1.0

        func applying(_ e: Element) -> Presentation {
            var p = self
            var attributes = Dictionary(e.attributes.map { ($0.name, $0.value) }) { $1 }
            for d in Stylesheet.declarations(e[attribute: "style"] ?? "", line: 0) { attributes[d.property] = d.value }
            func paint(_ v: String?) -> RGBA?? {
                guard let v = v?.trimmed.lowercased() else { return nil }
                if v == "none" { return .some(nil) }
                if v == "currentcolor" { return .some(p.color) }
                return ColorParser.parse(v, currentColor: p.color).map { .some($0) }
            }
            if let c = attributes["color"].flatMap({ ColorParser.parse($0, currentColor: p.color) }) { p.color = c }
            if let f = paint(attributes["fill"]) { p.fill = f }
            if let s = paint(attributes["stroke"]) { p.stroke = s }
            if let w = attributes["stroke-width"].flatMap({ Double(decimal: $0.trimmed.replacing("px", with: "")) }) { p.strokeWidth = w.clampedLength }
            if let r = attributes["fill-rule"] { p.evenOdd = r.trimmed == "evenodd" }
            if let c = attributes["stroke-linecap"] { p.lineCap = c.trimmed }
            if let j = attributes["stroke-linejoin"] { p.lineJoin = j.trimmed }
            if let o = attributes["opacity"].flatMap({ Double(decimal: $0.trimmed) }).map({ min(max($0, 0), 1) }) { p.opacity *= o }
            if let o = attributes["fill-opacity"].flatMap({ Double(decimal: $0.trimmed) }).map({ min(max($0, 0), 1) }) { p.fillOpacity = o }
            if let o = attributes["stroke-opacity"].flatMap({ Double(decimal: $0.trimmed) }).map({ min(max($0, 0), 1) }) { p.strokeOpacity = o }
            return p
        }
    }

    static func walk(_ e: Element, _ p: Presentation, _ matrix: [Double], _ out: inout [VectorShape]) {
        for case .element(let child) in e.children {
            let cp = p.applying(child)
            let m = multiply(matrix, transform(child[attribute: "transform"] ?? ""))
            if child.tag == "g" || child.tag == "a" { walk(child, cp, m, &out); continue }
            guard let commands = shape(child), !commands.isEmpty else { continue }
            var s = VectorShape(commands: commands, transform: m)
            s.fill = cp.fill.map { var c = $0; c.a *= cp.opacity * cp.fillOpacity; return c }
            s.stroke = cp.stroke.map { var c = $0; c.a *= cp.opacity * cp.strokeOpacity; return c }
            s.strokeWidth = cp.strokeWidth; s.evenOdd = cp.evenOdd; s.lineCap = cp.lineCap; s.lineJoin = cp.lineJoin
            if ["line", "polyline"].contains(child.tag) { s.fill = child.tag == "line" ? nil : s.fill }
            out.append(s)
        }
    }

    static func number(_ e: Element, _ name: String) -> Double { Double(decimal: (e[attribute: name] ?? "0").trimmed.replacing("px", with: ""))?.clampedLength ?? 0 }

    static func shape(_ e: Element) -> [VectorShape.Command]? {
        let n = { number(e, $0) }
        switch e.tag {
        case "path": return PathData.parse(e[attribute: "d"] ?? "")
        case "rect":
            let (x, y, w, h) = (n("x"), n("y"), n("width"), n("height"))
            guard w > 0, h > 0 else { return nil }
            var rx = e[attribute: "rx"] != nil ? n("rx") : n("ry"), ry = e[attribute: "ry"] != nil ? n("ry") : rx
            rx = min(rx, w / 2); ry = min(ry, h / 2)
            if rx <= 0 || ry <= 0 { return [.move(x, y), .line(x + w, y), .line(x + w, y + h), .line(x, y + h), .close] }
            return PathData.parse("M\(x + rx),\(y) H\(x + w - rx) A\(rx),\(ry) 0 0 1 \(x + w),\(y + ry) V\(y + h - ry) A\(rx),\(ry) 0 0 1 \(x + w - rx),\(y + h) H\(x + rx) A\(rx),\(ry) 0 0 1 \(x),\(y + h - ry) V\(y + ry) A\(rx),\(ry) 0 0 1 \(x + rx),\(y) Z")
        case "circle", "ellipse":
            let (cx, cy) = (n("cx"), n("cy"))
            let rx = e.tag == "circle" ? n("r") : n("rx"), ry = e.tag == "circle" ? n("r") : n("ry")
            guard rx > 0, ry > 0 else { return nil }
            return PathData.parse("M\(cx - rx),\(cy) A\(rx),\(ry) 0 1 0 \(cx + rx),\(cy) A\(rx),\(ry) 0 1 0 \(cx - rx),\(cy) Z")
        case "line": return [.move(n("x1"), n("y1")), .line(n("x2"), n("y2"))]
        case "polyline", "polygon":
            let v = PathData.numbers(e[attribute: "points"] ?? "")
            guard v.count >= 4 else { return nil }
            var c: [VectorShape.Command] = [.move(v[0], v[1])]
            for i in stride(from: 2, to: v.count - 1, by: 2) { c.append(.line(v[i], v[i + 1])) }
            if e.tag == "polygon" { c.append(.close) }
            return c
        default: return nil
        }
    }

    static func viewBox(_ e: Element) -> Rect? {
        let v = PathData.numbers(e[attribute: "viewbox"] ?? "")
        return v.count == 4 && v[2] > 0 && v[3] > 0 ? Rect(x: v[0], y: v[1], width: v[2], height: v[3]) : nil
    }

    /// `translate() scale() rotate() matrix() skewX() skewY()`, composed left to right.
    static func transform(_ text: String) -> [Double] {
        var m = identity
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "("), let close = rest[open...].firstIndex(of: ")") {
            let name = rest[..<open].filter { $0 != "," }.trimmed
            let v = PathData.numbers(String(rest[rest.index(after: open)..<close]))
            rest = rest[rest.index(after: close)...]
            let t: [Double]
            switch name {
            case "translate": t = [1, 0, 0, 1, v.first ?? 0, v.count > 1 ? v[1] : 0]
            case "scale": t = [v.first ?? 1, 0, 0, v.count > 1 ? v[1] : (v.first ?? 1), 0, 0]
            case "rotate":
                let a = (v.first ?? 0) * Double.pi / 180, (cx, cy) = (v.count > 2 ? v[1] : 0, v.count > 2 ? v[2] : 0)
                t = multiply(multiply([1, 0, 0, 1, cx, cy], [cos(a), sin(a), -sin(a), cos(a), 0, 0]), [1, 0, 0, 1, -cx, -cy])
            case "matrix": t = v.count == 6 ? v : identity
            case "skewX": t = [1, 0, tan((v.first ?? 0) * Double.pi / 180), 1, 0, 0]
            case "skewY": t = [1, tan((v.first ?? 0) * Double.pi / 180), 0, 1, 0, 0]
            default: t = identity
            }
            m = multiply(m, t)
        }
        return m
    }

    static func multiply(_ a: [Double], _ b: [Double]) -> [Double] {
        [a[0] * b[0] + a[2] * b[1], a[1] * b[0] + a[3] * b[1], a[0] * b[2] + a[2] * b[3], a[1] * b[2] + a[3] * b[3],
         a[0] * b[4] + a[2] * b[5] + a[4], a[1] * b[4] + a[3] * b[5] + a[5]]
    }
}

extension SceneVector {
    /// An SVG file (an icon's layer) as a vector of its own size: `width`/`height` in points,
    /// else the viewBox's, else 300x150 (SVG 2 §8.2). Parsed as templates are (libxml2, network
    /// off, the same size and depth limits); no `<svg>` element is an error.
    public static func document(_ text: String, file: String) throws(TemplateError) -> SceneVector {
        let body = try HTMLParser.parse(text, file: file).body
        func find(_ e: Element) -> Element? {
            if e.tag == "svg" { return e }
            for case .element(let child) in e.children { if let hit = find(child) { return hit } }
            return nil
        }
        guard let svg = find(body) else { throw TemplateError(file: file, line: 0, message: "no <svg> element") }
        let box = SVGReader.viewBox(svg)
        func length(_ name: String) -> Double? {
            guard let v = svg[attribute: name]?.trimmed, !v.hasSuffix("%"), let n = Double(decimal: v.replacing("px", with: "")), n > 0 else { return nil }
            return n.clampedLength
        }
        let w = length("width") ?? box?.width ?? 300, h = length("height") ?? box?.height ?? 150
        var shapes: [VectorShape] = []
        let start = SVGReader.Presentation(fill: .black, stroke: nil, color: .black)
        SVGReader.walk(svg, start.applying(svg), SVGReader.identity, &shapes)
        return SceneVector(frame: Rect(x: 0, y: 0, width: w, height: h), viewBox: box, shapes: shapes)
    }
}
