import Checked
import ConfinedFiles
import Foundation
import Payload
import Templating
import Formats

/// Reads `icon.json`'s values for one appearance, strictly: a value of the wrong type or an
/// unknown spelling is a problem naming the file and key path, and the default is drawn instead.
struct SpecializedReader {
    typealias Object = [(key: String, value: JSONValue)]
    typealias Icon = IconComposerIcon
    let file: String
    let appearance: Icon.Appearance
    var problems: [String] = []

    mutating func problem(_ at: String, _ message: String) { problems.append("\(file): \(at.hasPrefix(".") ? String(at.dropFirst()) : at): \(message)") }

    /// `key`'s value for the appearance and its key path: the best matching entry of
    /// `key-specializations` (appearance and iOS's `square` idiom both matching first), else `key`.
    mutating func value(in object: Object, _ key: String, at: String) -> (value: JSONValue, at: String)? {
        let o = JSONValue.object(object)
        if let list = o[key + "-specializations"] {
            let listAt = "\(at).\(key)-specializations"
            guard case .array(let entries) = list else { problem(listAt, "expected an array of {appearance, value}, got \(list.typeName)"); return o[key].map { ($0, "\(at).\(key)") } }
            var best: (score: Int, value: JSONValue, at: String)?
            for (i, entry) in entries.enumerated() {
                let entryAt = "\(listAt)[\(i)]"
                guard let value = entry["value"] else { problem(entryAt, "expected an object with a value, got \(entry.compact.prefix(60))"); continue }
                var score = 0
                if let a = entry["appearance"] {
                    guard let name = a.string, let known = Icon.Appearance(rawValue: name) else { problem(entryAt + ".appearance", "expected dark, tinted or light, got \(a.compact.prefix(40))"); continue }
                    guard known == appearance else { continue }
                    score += 2
                }
                if let idiom = entry["idiom"] {
                    guard let name = idiom.string else { problem(entryAt + ".idiom", "expected a string, got \(idiom.typeName)"); continue }
                    guard name == "square" else { continue } // watchOS's circles, macOS's own
                    score += 1
                }
                if score >= (best?.score ?? 0) { best = (score, value, entryAt + ".value") }
            }
            if let best { return (best.value, best.at) }
        }
        return o[key].map { ($0, "\(at).\(key)") }
    }

    mutating func bool(in object: Object, _ key: String, at: String) -> Bool? {
        guard let (v, path) = value(in: object, key, at: at) else { return nil }
        if case .bool(let b) = v { return b }
        if case .null = v { return nil }
        problem(path, "expected true or false, got \(v.typeName)")
        return nil
    }

    mutating func string(in object: Object, _ key: String, at: String) -> String? {
        guard let (v, path) = value(in: object, key, at: at) else { return nil }
        guard let s = v.string else { problem(path, "expected a string, got \(v.typeName)"); return nil }
        return s
    }

    mutating func number(_ v: JSONValue, at path: String, in range: ClosedRange<Double>) -> Double? {
        guard let n = v.number else { problem(path, "expected a number, got \(v.typeName)"); return nil }
        guard range.contains(n) else { problem(path, "\(v.compact) is outside \(range.lowerBound.compactText)...\(range.upperBound.compactText)"); return nil }
        return n
    }

    mutating func opacity(in object: Object, at: String) -> Double {
        guard let (v, path) = value(in: object, "opacity", at: at) else { return 1 }
        return number(v, at: path, in: 0...1) ?? 1
    }

    /// Blend modes cairo composites as Core Graphics does; `plus-darker` has no cairo operator.
    static let blendModes = ["normal", "multiply", "screen", "overlay", "darken", "lighten", "color-dodge", "color-burn", "soft-light",
                             "hard-light", "difference", "exclusion", "hue", "saturation", "color", "luminosity", "plus-lighter"]

    mutating func blendMode(in object: Object, at: String) -> String {
        guard let (v, path) = value(in: object, "blend-mode", at: at) else { return "normal" }
        guard let mode = v.string else { problem(path, "expected a string, got \(v.typeName)"); return "normal" }
        guard Self.blendModes.contains(mode) else { problem(path, "blend mode \(mode.prefix(40)) is not drawn; drawn as normal"); return "normal" }
        return mode
    }

    /// `position: {scale, translation-in-points: [x, y]}`.
    mutating func position(in object: Object, at: String) -> (scale: Double, offset: Icon.Point) {
        guard let (v, path) = value(in: object, "position", at: at) else { return (1, Icon.Point(0, 0)) }
        guard case .object = v else { problem(path, "expected {scale, translation-in-points}, got \(v.typeName)"); return (1, Icon.Point(0, 0)) }
        let scale = v["scale"].flatMap { number($0, at: path + ".scale", in: 0...100) } ?? 1
        var offset = Icon.Point(0, 0)
        if let t = v["translation-in-points"] {
            if case .array(let xy) = t, xy.count == 2, let x = xy[0].number, let y = xy[1].number, abs(x) <= 1e5, abs(y) <= 1e5 { offset = Icon.Point(x, y) }
            else { problem(path + ".translation-in-points", "expected [x, y] in points, got \(t.compact.prefix(60))") }
        }
        return (scale, offset)
    }

    /// The group's Liquid Glass effects that are on (none of them is drawn).
    mutating func groupEffects(_ group: Object, at: String) -> [String] {
        var on: [String] = []
        if bool(in: group, "specular", at: at) == true { on.append("specular") }
        if let (v, path) = value(in: group, "shadow", at: at), v != .null {
            if case .object = v, let kind = v["kind"]?.string {
                if kind != "none", (v["opacity"]?.number ?? 1) > 0 { on.append("shadow") }
            } else { problem(path, "expected {kind, opacity}, got \(v.compact.prefix(60))") }
        }
        if let (v, path) = value(in: group, "translucency", at: at), v != .null {
            if case .object = v, case .bool(let enabled)? = v["enabled"] {
                if enabled, (v["value"]?.number ?? 1) > 0 { on.append("translucency") }
            } else { problem(path, "expected {enabled, value}, got \(v.compact.prefix(60))") }
        }
        if let (v, path) = value(in: group, "blur-material", at: at), v != .null {
            if let n = number(v, at: path, in: 0...1), n > 0 { on.append("blur") }
        }
        return on
    }

    /// A layer as drawn, or nil (with a problem unless it is hidden).
    mutating func layer(_ item: JSONValue, at: String, in bundle: ConfinedFolder, group: (scale: Double, offset: Icon.Point)) -> Icon.Layer? {
        guard case .object(let layer) = item else { problem(at, "expected an object, got \(item.typeName)"); return nil }
        if bool(in: layer, "hidden", at: at) == true { return nil }
        let name = string(in: layer, "name", at: at) ?? at
        guard let image = string(in: layer, "image-name", at: at) else { problem(at, "layer \(name) has no image-name; not drawn"); return nil }
        let ext = URL(fileURLWithPath: image).pathExtension.lowercased()
        guard !image.isEmpty, !image.contains("/"), !image.hasPrefix(".") else { problem(at + ".image-name", "\(image.prefix(80)) is not a file in Assets/; layer \(name) not drawn"); return nil }
        guard ["png", "svg"].contains(ext) else { problem(at + ".image-name", "layer \(name): a .\(ext) layer is not drawn (PNG and SVG layers are)"); return nil }
        let url = bundle.url.appendingPathComponent("Assets/\(image)")
        guard bundle.isFile("Assets/\(image)") else {
            problem(at + ".image-name", bundle.isLink("Assets/\(image)") || bundle.isLink("Assets") ? "Assets/\(image) lies outside the icon; layer \(name) not drawn" : "Assets/\(image) does not exist; layer \(name) not drawn")
            return nil
        }
        if bool(in: layer, "glass", at: at) == true { problem(at, "layer \(name): glass not drawn (a Liquid Glass effect); drawn flat") }
        let own = position(in: layer, at: at)
        let offset = Icon.Point(group.offset.x + group.scale * own.offset.x, group.offset.y + group.scale * own.offset.y)
        return Icon.Layer(name: name, keyPath: at, image: url, offset: offset, scale: group.scale * own.scale, opacity: opacity(in: layer, at: at),
                          fill: fill(in: layer, at: at, layer: true), blendMode: blendMode(in: layer, at: at))
    }

    /// `fill`: `automatic`, `system-light`, `system-dark`, `none`, `{solid}`, `{automatic-gradient}`
    /// or `{linear-gradient, orientation}`. A layer's `automatic` keeps its own colours.
    mutating func fill(in object: Object, at: String, layer: Bool) -> Icon.Fill {
        let none: Icon.Fill = layer ? .none : .system(dark: appearance == .dark)
        guard let (v, path) = value(in: object, "fill", at: at) else { return none }
        switch v {
        case .string("automatic"): return none
        case .string("system-light"): return .system(dark: false)
        case .string("system-dark"): return .system(dark: true)
        case .string("none"): return .none
        case .object:
            if let s = v["solid"] { return colour(s, at: path + ".solid").map(Icon.Fill.solid) ?? none }
            if let s = v["automatic-gradient"] {
                // The format gives one colour; the tile runs from a lighter one down to it.
                guard let c = colour(s, at: path + ".automatic-gradient") else { return none }
                let light = Icon.Color(c.r + (1 - c.r) * 0.25, c.g + (1 - c.g) * 0.25, c.b + (1 - c.b) * 0.25, c.a)
                return .linear([light, c], start: Icon.Point(0.5, 0), stop: Icon.Point(0.5, 0.7))
            }
            if let list = v["linear-gradient"] {
                guard case .array(let items) = list, items.count >= 2 else { problem(path + ".linear-gradient", "expected an array of 2 or more colours, got \(list.compact.prefix(60))"); return none }
                let colours = items.enumerated().compactMap { colour($1, at: "\(path).linear-gradient[\($0)]") }
                guard colours.count == items.count else { return none }
                var start = Icon.Point(0.5, 0), stop = Icon.Point(0.5, 0.7)
                if let o = v["orientation"] {
                    if let s = point(o["start"]), let e = point(o["stop"]) { (start, stop) = (s, e) }
                    else { problem(path + ".orientation", "expected {start: {x, y}, stop: {x, y}}, got \(o.compact.prefix(60))") }
                }
                return .linear(colours, start: start, stop: stop)
            }
            problem(path, "expected solid, automatic-gradient or linear-gradient, got \(v.compact.prefix(60))")
            return none
        default:
            problem(path, "expected automatic, system-light, system-dark, none or a colour fill, got \(v.compact.prefix(60))")
            return none
        }
    }

    func point(_ v: JSONValue?) -> Icon.Point? {
        guard let x = v?["x"]?.number, let y = v?["y"]?.number, abs(x) <= 100, abs(y) <= 100 else { return nil }
        return Icon.Point(x, y)
    }

    /// `srgb:r,g,b,a`, `extended-srgb:…`, `display-p3:…`, `gray:w,a`, `extended-gray:w,a`.
    mutating func colour(_ v: JSONValue, at path: String) -> Icon.Color? {
        guard let text = v.string, let colon = text.firstIndex(of: ":") else { problem(path, "expected a colour such as \"srgb:1,0.5,0,1\", got \(v.compact.prefix(60))"); return nil }
        let space = String(text[..<colon])
        let n = text[text.index(after: colon)...].split(separator: ",", omittingEmptySubsequences: false).compactMap { Double(decimal: $0.trimmed) }
        func clamp(_ x: Double) -> Double { min(max(x, 0), 1) }
        switch (space, n.count) {
        case ("srgb", 4), ("extended-srgb", 4): return Icon.Color(clamp(n[0]), clamp(n[1]), clamp(n[2]), clamp(n[3]))
        case ("gray", 2), ("extended-gray", 2): return Icon.Color(clamp(n[0]), clamp(n[0]), clamp(n[0]), clamp(n[1]))
        case ("display-p3", 4), ("extended-display-p3", 4):
            // Display P3 and sRGB share the transfer curve; the primaries differ (linear-light matrix).
            func linear(_ c: Double) -> Double { c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4) }
            func encoded(_ c: Double) -> Double { let c = clamp(c); return c <= 0.0031308 ? c * 12.92 : 1.055 * pow(c, 1 / 2.4) - 0.055 }
            let (r, g, b) = (linear(n[0]), linear(n[1]), linear(n[2]))
            return Icon.Color(encoded(1.2249 * r - 0.2247 * g), encoded(-0.0420 * r + 1.0419 * g), encoded(-0.0197 * r - 0.0786 * g + 1.0979 * b), clamp(n[3]))
        default:
            problem(path, "colour \(text.prefix(60)) is not srgb, extended-srgb, display-p3 or gray with its number of components")
            return nil
        }
    }
}

extension Double {
    var compactText: String { self == rounded() && abs(self) < 1e15 ? String(Int(self)) : "\(self)" }
}
