import Checked
import Templating
import Typography

/// `linear-gradient()` and `radial-gradient()` (CSS Images 3 §3.1, §3.2): the gradient's
/// geometry and its colour stops with optional positions in 0...1.
public struct Gradient: Sendable, Equatable {
    public enum Shape: Sendable, Equatable {
        /// 0deg points up, clockwise.
        case linear(angle: Double)
        /// An ellipse (or circle) of `size` around `center` (fractions or points of the box).
        case radial(circle: Bool, size: RadialSize, center: [Length])
    }
    public enum RadialSize: Sendable, Equatable {
        case closestSide, closestCorner, farthestSide, farthestCorner
        case explicit(Length, Length)
    }
    public var shape: Shape
    public var stops: [(color: RGBA, position: Double?)]

    public static func == (a: Gradient, b: Gradient) -> Bool {
        a.shape == b.shape && a.stops.count == b.stops.count && zip(a.stops, b.stops).allSatisfy { $0.color == $1.color && $0.position == $1.position }
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

    static func parse(_ text: String, currentColor: RGBA, length: (String) -> Length?) -> Gradient? {
        let t = text.trimmed, lower = t.lowercased()
        guard t.hasSuffix(")"), let open = t.firstIndex(of: "(") else { return nil }
        let name = lower[..<open]
        guard name == "linear-gradient" || name == "radial-gradient" else { return nil }
        var parts = splitTopLevel(String(t[t.index(after: open)..<t.index(before: t.endIndex)]), separator: ",").map(\.trimmed)
        let first = parts.first?.lowercased() ?? ""
        let shape: Shape
        if name == "linear-gradient" {
            var angle = 180.0
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
            shape = .linear(angle: angle)
        } else {
            // [circle | ellipse] [extent keyword | lengths] [at position]
            var circle = false, size = RadialSize.farthestCorner, center: [Length] = [.percent(50), .percent(50)]
            let words = first.split(separator: " ").map(String.init)
            let keywords: [String: RadialSize] = ["closest-side": .closestSide, "closest-corner": .closestCorner,
                                                  "farthest-side": .farthestSide, "farthest-corner": .farthestCorner]
            if !words.isEmpty, words.allSatisfy({ ["circle", "ellipse", "at"].contains($0) || keywords[$0] != nil || length($0) != nil
                                                    || ["left", "right", "top", "bottom", "center"].contains($0) }), ColorParser.parse(first, currentColor: currentColor) == nil {
                let at = words.firstIndex(of: "at") ?? words.endIndex
                var sizes: [Length] = []
                for w in words[..<at] {
                    if w == "circle" { circle = true } else if w == "ellipse" { circle = false }
                    else if let k = keywords[w] { size = k }
                    else if let l = length(w) { sizes.append(l) }
                }
                if sizes.count == 1 { circle = true; size = .explicit(sizes[0], sizes[0]) }
                else if sizes.count == 2 { size = .explicit(sizes[0], sizes[1]) }
                if at < words.endIndex {
                    guard let p = PropertyParser.position(words[(at + 1)...].joined(separator: " "), length: length) else { return nil }
                    center = p
                }
                parts.removeFirst()
            }
            shape = .radial(circle: circle, size: size, center: center)
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
        return stops.count >= 2 ? Gradient(shape: shape, stops: stops) : nil
    }
}

/// One `transform` function (CSS Transforms 1 §13, 2D): translations may be percentages of
/// the border box; angles are radians.
public enum TransformFunction: Sendable, Equatable {
    case translate(Length, Length)
    case scale(Double, Double)
    case rotate(Double)
    case skew(Double, Double)
    case matrix([Double])

    static func parseList(_ text: String, length: (String) -> Length?) -> [TransformFunction]? {
        let t = text.trimmed.lowercased()
        if t == "none" { return [] }
        var out: [TransformFunction] = []
        for item in splitTopLevel(String(t.map { $0.isWhitespace ? " " : $0 }), separator: " ").map(\.trimmed).filter({ !$0.isEmpty }) {
            guard item.hasSuffix(")"), let open = item.firstIndex(of: "(") else { return nil }
            let name = String(item[..<open])
            let args = splitTopLevel(String(item[item.index(after: open)..<item.index(before: item.endIndex)]), separator: ",").map(\.trimmed)
            func angle(_ a: String) -> Double? {
                for (unit, factor) in [("deg", Double.pi / 180), ("grad", Double.pi / 200), ("rad", 1.0), ("turn", 2 * Double.pi)] where a.hasSuffix(unit) {
                    return Double(decimal: a.dropLast(unit.count)).map { $0 * factor }
                }
                return a == "0" ? 0 : nil
            }
            let numbers = args.map { Double(decimal: $0) }
            switch (name, args.count) {
            case ("translate", 1...2):
                guard let x = length(args[0]), let y = args.count > 1 ? length(args[1]) : .zero, x != .auto, y != .auto else { return nil }
                out.append(.translate(x, y))
            case ("translatex", 1): guard let x = length(args[0]), x != .auto else { return nil }; out.append(.translate(x, .zero))
            case ("translatey", 1): guard let y = length(args[0]), y != .auto else { return nil }; out.append(.translate(.zero, y))
            case ("scale", 1...2):
                guard let x = numbers[0], let y = args.count > 1 ? numbers[1] : x else { return nil }
                out.append(.scale(x, y))
            case ("scalex", 1): guard let x = numbers[0] else { return nil }; out.append(.scale(x, 1))
            case ("scaley", 1): guard let y = numbers[0] else { return nil }; out.append(.scale(1, y))
            case ("rotate", 1), ("rotatez", 1): guard let a = angle(args[0]) else { return nil }; out.append(.rotate(a))
            case ("skew", 1...2):
                guard let x = angle(args[0]), let y = args.count > 1 ? angle(args[1]) : 0 else { return nil }
                out.append(.skew(x, y))
            case ("skewx", 1): guard let x = angle(args[0]) else { return nil }; out.append(.skew(x, 0))
            case ("skewy", 1): guard let y = angle(args[0]) else { return nil }; out.append(.skew(0, y))
            case ("matrix", 6):
                guard numbers.allSatisfy({ $0 != nil }) else { return nil }
                out.append(.matrix(numbers.map { $0! }))
            default: return nil
            }
        }
        return out
    }
}

/// `filter` and `backdrop-filter` (Filter Effects 1 §13, 2 §3): the blur they apply, as the
/// Gaussian's standard deviation in points. Other filter functions are not drawn.
enum BlurFilter {
    static func parse(_ text: String, length: (String) -> Length?) -> Double?? {
        let t = text.trimmed.lowercased()
        if t == "none" { return .some(nil) }
        guard t.hasPrefix("blur("), t.hasSuffix(")") else { return nil }
        let inner = t.dropFirst(5).dropLast().trimmed
        if inner.isEmpty { return .some(0) }
        guard case .points(let r)? = length(inner), r >= 0 else { return nil }
        return .some(r)
    }
}

/// `backdrop-filter`'s functions the painter draws: `blur()`, `brightness()` and `saturate()`
/// (Filter Effects 1 §13.1, §13.2), in any order and each at most once; the colour functions
/// act in sRGB, as Chromium applies them. What glass is made of.
public struct BackdropTone: Sendable, Equatable, Hashable {
    public var brightness = 1.0, saturate = 1.0
    public var isIdentity: Bool { brightness == 1 && saturate == 1 }
    public init(brightness: Double = 1, saturate: Double = 1) { (self.brightness, self.saturate) = (brightness, saturate) }

    /// nil: not a filter list the painter draws; `.some((nil, …))`: `none`.
    static func parse(_ text: String, length: (String) -> Length?) -> (blur: Double?, tone: BackdropTone)?? {
        let t = text.trimmed.lowercased()
        if t == "none" { return .some((nil, BackdropTone())) }
        var blur: Double?, tone = BackdropTone(), seen: Set<String> = []
        var rest = Substring(t)
        while !rest.isEmpty {
            guard let open = rest.firstIndex(of: "("), let close = rest.firstIndex(of: ")"), open < close else { return nil }
            let name = rest[..<open].trimmed, inner = rest[rest.index(after: open)..<close].trimmed
            guard seen.insert(name).inserted else { return nil }
            switch name {
            case "blur":
                if inner.isEmpty { blur = 0 } else { guard case .points(let r)? = length(inner), r >= 0 else { return nil }; blur = r }
            case "brightness", "saturate":
                let amount: Double
                if inner.isEmpty { amount = 1 }
                else if inner.hasSuffix("%"), let p = Double(decimal: inner.dropLast()) { amount = p / 100 }
                else if let v = Double(decimal: inner) { amount = v }
                else { return nil }
                guard amount >= 0 else { return nil }
                if name == "brightness" { tone.brightness = amount } else { tone.saturate = amount }
            default: return nil
            }
            rest = rest[rest.index(after: close)...].drop { $0 == " " }
        }
        return .some((blur ?? 0, tone))
    }
}

/// One `box-shadow` (Backgrounds 3 §7.1), outer or inset, or one `text-shadow` (Text
/// Decoration 3 §4: no spread, never inset).
public struct BoxShadow: Sendable, Equatable {
    public var x, y, blur, spread: Double
    public var color: RGBA
    public var inset = false

    /// A comma-separated list; nil when any shadow is malformed.
    static func parseList(_ text: String, currentColor: RGBA, text isText: Bool = false, points: (String) -> Double?) -> [BoxShadow]? {
        if text.trimmed.lowercased() == "none" { return [] }
        var out: [BoxShadow] = []
        for item in splitTopLevel(text, separator: ",") {
            var lengths: [Double] = []
            var color = currentColor, inset = false
            for piece in splitTopLevel(item, separator: " ").map(\.trimmed).filter({ !$0.isEmpty }) {
                if piece.lowercased() == "inset", !isText { inset = true }
                else if let l = points(piece) { lengths.append(l) }
                else if let c = ColorParser.parse(piece, currentColor: currentColor) { color = c }
                else { return nil }
            }
            guard (2...(isText ? 3 : 4)).contains(lengths.count) else { return nil }
            out.append(BoxShadow(x: lengths[0], y: lengths[1], blur: lengths.count > 2 ? max(0, lengths[2]) : 0,
                                 spread: lengths.count > 3 ? lengths[3] : 0, color: color, inset: inset))
        }
        return out
    }
}
