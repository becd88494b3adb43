import Checked
import Templating
import Typography

/// `linear-gradient()` (CSS Images 3 §3.1): an angle (0deg points up, clockwise) and colour
/// stops with optional positions in 0...1.
public struct LinearGradient: Sendable, Equatable {
    public var angle: Double
    public var stops: [(color: RGBA, position: Double?)]

    public static func == (a: LinearGradient, b: LinearGradient) -> Bool {
        a.angle == b.angle && a.stops.count == b.stops.count && zip(a.stops, b.stops).allSatisfy { $0.color == $1.color && $0.position == $1.position }
    }

    /// Every stop with a position: the first at 0, the last at 1, the missing ones evenly between
    /// their neighbours, and none before the one ahead of it (§3.4.3).
    public var resolvedStops: [(color: RGBA, position: Double)] {
        var p = stops.map(\.position)
        if p.first! == nil { p[0] = 0 }
        if p.last! == nil { p[p.count - 1] = 1 }
        var i = 0
        while i < p.count {
            if p[i] == nil {
                let start = i - 1
                var end = i
                while p[end] == nil { end += 1 }
                for k in i..<end { p[k] = p[start]! + (p[end]! - p[start]!) * Double(k - start) / Double(end - start) }
                i = end
            }
            i += 1
        }
        var last = 0.0
        return zip(stops, p).map { stop, position in
            last = max(last, position!)
            return (stop.color, last)
        }
    }

    static func parse(_ text: String, currentColor: RGBA) -> LinearGradient? {
        let t = text.trimmed
        guard t.lowercased().hasPrefix("linear-gradient("), t.hasSuffix(")") else { return nil }
        var parts = splitTopLevel(String(t.dropFirst(16).dropLast()), separator: ",").map(\.trimmed)
        var angle = 180.0
        let first = parts.first?.lowercased() ?? ""
        if first.hasSuffix("deg"), let a = Double(decimal: first.dropLast(3)) { angle = a; parts.removeFirst() }
        else if first.hasSuffix("turn"), let a = Double(decimal: first.dropLast(4)) { angle = a * 360; parts.removeFirst() }
        else if first.hasPrefix("to ") {
            let sides = Set(first.dropFirst(3).split(separator: " ").map(String.init))
            let table: [Set<String>: Double] = [["top"]: 0, ["right"]: 90, ["bottom"]: 180, ["left"]: 270,
                                                ["top", "right"]: 45, ["bottom", "right"]: 135, ["bottom", "left"]: 225, ["top", "left"]: 315]
            guard let a = table[sides] else { return nil }
            angle = a
            parts.removeFirst()
        }
        var stops: [(RGBA, Double?)] = []
        for part in parts {
            let pieces = splitTopLevel(part, separator: " ").map(\.trimmed).filter { !$0.isEmpty }
            guard let colorText = pieces.first, let color = ColorParser.parse(colorText, currentColor: currentColor) else { return nil }
            var position: Double?
            if pieces.count > 1 {
                guard pieces[1].hasSuffix("%"), let v = Double(decimal: pieces[1].dropLast()) else { return nil }
                position = v / 100
            }
            stops.append((color, position))
        }
        return stops.count >= 2 ? LinearGradient(angle: angle, stops: stops) : nil
    }
}

/// One outer `box-shadow` (Backgrounds 3 §7.1).
public struct BoxShadow: Sendable, Equatable {
    public var x, y, blur, spread: Double
    public var color: RGBA

    /// A comma-separated list; nil when any shadow is not supported (inset shadows, say).
    static func parseList(_ text: String, currentColor: RGBA, points: (String) -> Double?) -> [BoxShadow]? {
        if text.trimmed.lowercased() == "none" { return [] }
        var out: [BoxShadow] = []
        for item in splitTopLevel(text, separator: ",") {
            var lengths: [Double] = []
            var color = currentColor
            for piece in splitTopLevel(item, separator: " ").map(\.trimmed).filter({ !$0.isEmpty }) {
                if piece.lowercased() == "inset" { return nil }
                if let l = points(piece) { lengths.append(l) }
                else if let c = ColorParser.parse(piece, currentColor: currentColor) { color = c }
                else { return nil }
            }
            guard (2...4).contains(lengths.count) else { return nil }
            out.append(BoxShadow(x: lengths[0], y: lengths[1], blur: lengths.count > 2 ? max(0, lengths[2]) : 0,
                                 spread: lengths.count > 3 ? lengths[3] : 0, color: color))
        }
        return out
    }
}
