import ConfinedFiles
import Foundation
import Payload
import Styling
import Templating
import Typography
import Formats

/// The numbers by which one iOS version's chrome differs from iOS 18's, as data:
/// `Templates/system/iosNN/metrics.json` (rows as iOS 18's metrics file: name, value, unit,
/// source, error, note). iOS 18 itself has none. Templates read what a view needs as `ios.*`.
public struct IOSChrome: Sendable {
    public var version: IOSVersion
    public var values: [String: Double]

    public static func load(templates: URL, version: IOSVersion) throws(ConfigError) -> IOSChrome {
        guard version != .ios18 else { return IOSChrome(version: version, values: [:]) }
        let url = templates.appendingPathComponent("system/ios\(version.rawValue)/metrics.json")
        let bytes: [UInt8]
        do { bytes = try TrustedFiles.read(url, limit: 1 << 20) } catch { throw ConfigError(error.description) }
        let json: JSONValue
        do { json = try JSONParser.parse(bytes, file: url.path) } catch { throw ConfigError(error.description) }
        guard case .array(let items)? = json["metrics"] else { throw ConfigError("\(url.path): metrics: expected an array of rows") }
        var values: [String: Double] = [:]
        for (i, item) in items.enumerated() {
            guard let name = item["name"]?.string, let value = item["value"]?.number, value.isFinite, item["source"]?.string?.isEmpty == false else {
                throw ConfigError("\(url.path): metrics[\(i)]: expected a name, a number value and its source")
            }
            values[name] = value
        }
        let missing = required.filter { values[$0] == nil }
        guard missing.isEmpty else { throw ConfigError("\(url.path): has no \(missing.joined(separator: ", "))") }
        return IOSChrome(version: version, values: values)
    }

    /// What the glass partial reads (iOS 26).
    static let required = ["glass.haloRadius", "glass.light.haloAlpha", "glass.dark.haloAlpha", "glass.blur", "glass.tinted.blur", "glass.saturate",
                           "glass.light.brightness", "glass.light.tintAlpha", "glass.dark.brightness", "glass.dark.tintAlpha",
                           "glass.tinted.light.tintAlpha", "glass.tinted.dark.tintAlpha", "glass.light.rimWidth", "glass.dark.rimWidth", "glass.light.rimAlpha", "glass.dark.rimAlpha",
                           "glass.reduceTransparency.blur", "glass.reduceTransparency.light.tintAlpha", "glass.reduceTransparency.dark.tintAlpha",
                           "glass.increaseContrast.light.tintAlpha", "glass.increaseContrast.dark.tintAlpha", "glass.increaseContrast.edgeWidth",
                           "glass.increaseContrast.light.edgeAlpha", "glass.increaseContrast.dark.edgeAlpha"]

    /// The glass material a user sets (Settings › Display & Brightness, iOS 26.1).
    public enum Glass: String, Sendable, CaseIterable, Codable { case clear, tinted }

    /// `ios`: `{version, glass: {blur, brightness, saturate, tint, rim, rimWidth, halo, haloRadius, reduceTransparency, increaseContrast}}`;
    /// no `glass` for iOS 18. Colours are CSS strings for the appearance asked for.
    public func templateValue(appearance: Appearance, glass: Glass) -> TemplateValue {
        var o: [String: TemplateValue] = ["version": .string(version.rawValue), "stackCountBadge": .bool(version.has(.stackCountBadge))]
        guard version.has(.glassPlatter) else { return .object(o) }
        let dark = appearance == .dark, look = dark ? "dark" : "light"
        func v(_ name: String) -> Double { values[name]! }
        func css(_ x: Double) -> String { formatNumber((x * 1000).rounded() / 1000) }
        let tint = glass == .tinted ? v("glass.tinted.\(look).tintAlpha") : v("glass.\(look).tintAlpha")
        // Clear glass lightens what is behind it in both appearances (the captures); Tinted and
        // the accessibility settings shade a dark one.
        let shade = dark ? "0, 0, 0" : "255, 255, 255", clearShade = glass == .clear ? "255, 255, 255" : shade
        o["glass"] = .object([
            "style": .string(glass.rawValue),
            "blur": .number(glass == .tinted ? v("glass.tinted.blur") : v("glass.blur")),
            "brightness": .string(css(v("glass.\(look).brightness"))), "saturate": .string(css(v("glass.saturate"))),
            "tint": .string("rgba(\(clearShade), \(css(tint)))"),
            "rim": .string("rgba(255, 255, 255, \(css(v("glass.\(look).rimAlpha"))))"), "rimWidth": .number(v("glass.\(look).rimWidth")),
            "halo": .string("rgba(0, 0, 0, \(css(v("glass.\(look).haloAlpha"))))"), "haloRadius": .number(v("glass.haloRadius")),
            // What the accessibility settings make of it; the page's @media rules choose.
            "reduceTransparency": .object(["tint": .string("rgba(\(shade), \(css(v("glass.reduceTransparency.\(look).tintAlpha"))))"),
                                           "blur": .number(v("glass.reduceTransparency.blur"))]),
            "increaseContrast": .object(["tint": .string("rgba(\(shade), \(css(v("glass.increaseContrast.\(look).tintAlpha"))))"),
                                         "edge": .string("rgba(\(dark ? "255, 255, 255" : "0, 0, 0"), \(css(v("glass.increaseContrast.\(look).edgeAlpha"))))"),
                                         "edgeWidth": .number(v("glass.increaseContrast.edgeWidth"))]),
        ])
        return .object(o)
    }
}
