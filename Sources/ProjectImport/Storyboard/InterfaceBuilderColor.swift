/// A colour with a dark variant (CSS colours), as an asset catalog's colour set gives it.
public struct NamedColor: Sendable, Equatable {
    public var light: String
    public var dark: String?
    public init(light: String, dark: String? = nil) { self.light = light; self.dark = dark }
}

/// UIKit's system colours, light and dark (the HIG's colour tables, Templates/system/METRICS.md
/// HIG-Color). The ones `Templates/system/colors.css` defines are used through its properties;
/// the others get a property of their own in the template.
enum SystemColors {
    /// IB name → colors.css property.
    static let chrome: [String: String] = [
        "labelColor": "label", "secondaryLabelColor": "secondary-label", "tertiaryLabelColor": "tertiary-label",
        "separatorColor": "separator", "systemBackgroundColor": "system-background",
        "secondarySystemBackgroundColor": "secondary-system-background", "tintColor": "tint", "systemBlueColor": "system-blue",
        "systemRedColor": "system-red", "systemGreenColor": "system-green", "systemOrangeColor": "system-orange",
        "systemYellowColor": "system-yellow", "systemGrayColor": "system-gray", "quaternarySystemFillColor": "quaternary-fill",
        "tertiarySystemFillColor": "tertiary-fill",
    ]

    static let others: [String: NamedColor] = [
        "systemIndigoColor": .init(light: "#5856d6", dark: "#5e5ce6"), "systemPinkColor": .init(light: "#ff2d55", dark: "#ff375f"),
        "systemPurpleColor": .init(light: "#af52de", dark: "#bf5af2"), "systemTealColor": .init(light: "#30b0c7", dark: "#40c8e0"),
        "systemMintColor": .init(light: "#00c7be", dark: "#63e6e2"), "systemCyanColor": .init(light: "#32ade6", dark: "#64d2ff"),
        "systemBrownColor": .init(light: "#a2845e", dark: "#ac8e68"), "systemGray2Color": .init(light: "#aeaeb2", dark: "#636366"),
        "systemGray3Color": .init(light: "#c7c7cc", dark: "#48484a"), "systemGray4Color": .init(light: "#d1d1d6", dark: "#3a3a3c"),
        "systemGray5Color": .init(light: "#e5e5ea", dark: "#2c2c2e"), "systemGray6Color": .init(light: "#f2f2f7", dark: "#1c1c1e"),
        "tertiarySystemBackgroundColor": .init(light: "#ffffff", dark: "#2c2c2e"),
        "systemGroupedBackgroundColor": .init(light: "#f2f2f7", dark: "#000000"),
        "secondarySystemGroupedBackgroundColor": .init(light: "#ffffff", dark: "#1c1c1e"),
        "tertiarySystemGroupedBackgroundColor": .init(light: "#f2f2f7", dark: "#2c2c2e"),
        "systemFillColor": .init(light: "rgba(120, 120, 128, 0.2)", dark: "rgba(120, 120, 128, 0.36)"),
        "secondarySystemFillColor": .init(light: "rgba(120, 120, 128, 0.16)", dark: "rgba(120, 120, 128, 0.32)"),
        "quaternaryLabelColor": .init(light: "rgba(60, 60, 67, 0.18)", dark: "rgba(235, 235, 245, 0.16)"),
        "placeholderTextColor": .init(light: "rgba(60, 60, 67, 0.3)", dark: "rgba(235, 235, 245, 0.3)"),
        "opaqueSeparatorColor": .init(light: "#c6c6c8", dark: "#38383a"), "linkColor": .init(light: "#007aff", dark: "#0984ff"),
        // The same in both appearances, and the names of iOS 12 and earlier.
        "whiteColor": .init(light: "#ffffff"), "blackColor": .init(light: "#000000"), "clearColor": .init(light: "transparent"),
        "darkTextColor": .init(light: "#000000"), "lightTextColor": .init(light: "rgba(255, 255, 255, 0.6)"),
        "groupTableViewBackgroundColor": .init(light: "#efeff4"), "tableCellGroupedBackgroundColor": .init(light: "#ffffff"),
    ]
}

/// Turns Interface Builder `<color>` elements into CSS: sRGB and grey components as they are, a
/// system colour as the chrome's property or one of its own with its dark variant, a named colour
/// from the asset catalogs as a property with its dark variant under
/// `@media (prefers-color-scheme: dark)` (else the storyboard's design-time value, said).
struct ColorResolver {
    var catalog: [String: NamedColor]
    var resources: IBElement?
    /// The custom properties the template defines, by name (without `--`).
    var properties: [String: NamedColor] = [:]
    var problems: [ConversionProblem] = []

    /// The CSS for a `<color>`, nil when it says nothing usable (said as a problem).
    mutating func css(_ e: IBElement) -> String? {
        if let name = e["name"] { return named(name, line: e.line) }
        if let system = e["systemColor"] ?? e["xcode11CocoaTouchSystemColor"] ?? e["cocoaTouchSystemColor"] { return self.system(system, line: e.line) }
        if let literal = Self.literal(e) { return literal }
        problems.append(.init(line: e.line, message: "a <color key=\"\(e["key"] ?? "")\"> with no components, system colour or name; not drawn"))
        return nil
    }

    /// Components: `red green blue alpha` (sRGB, Display P3 drawn as sRGB) or `white alpha`.
    static func literal(_ e: IBElement) -> String? {
        let alpha = e.number("alpha") ?? 1
        if let r = e.number("red"), let g = e.number("green"), let b = e.number("blue") { return CSS.color(red: r, green: g, blue: b, alpha: alpha) }
        if let w = e.number("white") { return CSS.color(red: w, green: w, blue: w, alpha: alpha) }
        return nil
    }

    mutating func system(_ name: String, line: Int) -> String? {
        if let property = SystemColors.chrome[name] { return "var(--\(property))" }
        if let color = SystemColors.others[name] {
            guard color.dark != nil else { return color.light }
            return define(CSS.name(name.hasSuffix("Color") ? String(name.dropLast(5)) : name), color)
        }
        // A system colour this table lacks: the design-time (light) value the file keeps.
        let stored = resources?.children("systemColor").first { $0["name"] == name }?.child("color").flatMap(Self.literal)
        problems.append(.init(line: line, message: "the system colour \(name) is not known here; \(stored.map { "drawn as its design-time value \($0) in both appearances" } ?? "not drawn")"))
        return stored
    }

    mutating func named(_ name: String, line: Int) -> String? {
        if let color = catalog[name] { return define("color-" + CSS.name(name), color) }
        let stored = resources?.children("namedColor").first { $0["name"] == name }?.child("color").flatMap(Self.literal)
        problems.append(.init(line: line, message: "the colour \"\(name)\" is in no asset catalog read; \(stored.map { "drawn as the storyboard's design-time value \($0) in both appearances" } ?? "not drawn")"))
        return stored
    }

    /// `var(--NAME)`, with NAME defined once for light and dark.
    mutating func define(_ name: String, _ color: NamedColor) -> String {
        var unique = name, n = 1
        while let known = properties[unique], known != color { n += 1; unique = "\(name)-\(n)" }
        properties[unique] = color
        return "var(--\(unique))"
    }

    /// The rules that define the properties, sorted by name: light, then dark.
    var stylesheet: [String] {
        guard !properties.isEmpty else { return [] }
        let names = properties.keys.sorted()
        var lines = ["  body { " + names.map { "--\($0): \(properties[$0]!.light);" }.joined(separator: " ") + " }"]
        let dark = names.filter { properties[$0]!.dark != nil }
        if !dark.isEmpty {
            lines.append("  @media (prefers-color-scheme: dark) { body { " + dark.map { "--\($0): \(properties[$0]!.dark!);" }.joined(separator: " ") + " } }")
        }
        return lines
    }
}
