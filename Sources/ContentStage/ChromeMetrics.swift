import ConfinedFiles
import Foundation
import Payload
import Templating
import Formats

/// The system chrome's numbers for one iOS version, as data: `Templates/system/iosNN/metrics.json`,
/// each row citing the capture or decompiled code it comes from and its error (METRICS.md is
/// checked against it). Templates read them as `{{chrome.NAME}}`; the code reads `chrome["NAME"]`.
public struct ChromeMetrics: Sendable {
    public struct Row: Sendable, Equatable {
        /// Dotted, e.g. `list.inset`; each part a template key.
        public var name: String
        public var value: Double
        /// `pt`, or `ratio` for a unitless number.
        public var unit: String
        /// A capture id (`Tests/Fixtures/ios-captures/ID.json`), `decompilation: …`, `reconstruction: …` or `PushPreview`.
        public var source: String
        /// How far the truth may be from `value`, in `unit`; nil where no source gives one.
        public var error: Double?
        public var note: String
    }

    /// The folder name beside the templates: `ios18`.
    public var version: String
    public var rows: [Row]
    private var values: [String: Double]

    /// The version drawn unless another is asked for.
    public static let standardVersion = "ios18"

    /// Every name the chrome reads; a metrics file must give each of them.
    public static let required = [
        "banner.inset", "list.inset", "longLook.inset", "platter.cornerRadius", "longLook.cornerRadius",
        "longLook.iconSize", "longLook.rowPaddingLeading", "longLook.rowPaddingTrailing", "longLook.textGap", "longLook.rowPaddingTop", "longLook.rowPaddingBottom",
        "row.paddingTop", "row.paddingBottom", "row.paddingLeading", "row.paddingTrailing", "row.minHeight",
        "icon.size", "icon.cornerRadius", "badge.size", "badge.offsetTrailing", "badge.offsetBottom", "badge.cornerRadius",
        "label.symbolSize", "label.symbolGap", "label.symbolDrop", "label.lineAdjust",
        "text.gap", "text.leadingAdjust", "time.gap", "thumbnail.size", "thumbnail.gap", "thumbnail.cornerRadius", "summary.gap",
        "menu.width", "menu.gap", "menu.cornerRadius", "menu.rowHeight", "menu.labelInset", "menu.iconSize", "menu.iconGap",
        "reply.fieldInset", "reply.fieldHeight", "reply.fieldCornerRadius", "reply.keyboardHeight", "reply.barPadding",
        "stack.platePeek", "stack.plateStep", "stack.plateCornerRadius", "screen.padding",
    ]

    /// A row a later version adds and the one it overlays lacks (nil there).
    public func optional(_ name: String) -> Double? { values[name] }

    public subscript(name: String) -> Double {
        guard let v = values[name] else { preconditionFailure("chrome metric \(name) is not in ChromeMetrics.required") }
        return v
    }

    /// Reads `{"ios": "18", "metrics": [{"name", "value", "unit", "source", "error", "note"}...]}`;
    /// every field is checked and every required name must be there, once. Over `base` (the
    /// version a file `overlays`), a row replaces or adds to the base's: a later version is
    /// what changed since the one it names.
    public static func read(_ data: [UInt8], file: String, version: String, base: ChromeMetrics? = nil) throws(ConfigError) -> ChromeMetrics {
        let json: JSONValue
        do { json = try JSONParser.parse(data, file: file) } catch { throw ConfigError(error.description) }
        guard case .array(let items)? = json["metrics"] else { throw ConfigError("\(file): metrics: expected an array of rows") }
        var rows: [Row] = [], values: [String: Double] = [:]
        var inherited = base?.rows ?? []
        for (i, item) in items.enumerated() {
            let at = "\(file): metrics[\(i)]"
            guard let name = item["name"]?.string, !name.isEmpty,
                  name.split(separator: ".", omittingEmptySubsequences: false).allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isLetter || $0.isNumber } }) else {
                throw ConfigError("\(at).name: expected dotted words, e.g. list.inset")
            }
            guard values[name] == nil else { throw ConfigError("\(at).name: \(name) is given twice") }
            guard let value = item["value"]?.number, value.isFinite else { throw ConfigError("\(at).value: expected a number") }
            guard let unit = item["unit"]?.string, ["pt", "ratio"].contains(unit) else { throw ConfigError("\(at).unit: expected pt or ratio") }
            guard let source = item["source"]?.string, !source.isEmpty else { throw ConfigError("\(at).source: expected where the value comes from") }
            var error: Double?
            switch item["error"] {
            case nil, .null?: error = nil
            case let e?: guard let n = e.number, n >= 0 else { throw ConfigError("\(at).error: expected a number ≥ 0 or null") }; error = n
            }
            rows.append(Row(name: name, value: value, unit: unit, source: source, error: error, note: item["note"]?.string ?? ""))
            values[name] = value
        }
        inherited.removeAll { values[$0.name] != nil }
        rows = inherited + rows
        for row in inherited { values[row.name] = row.value }
        let missing = required.filter { values[$0] == nil }
        guard missing.isEmpty else { throw ConfigError("\(file): has no \(missing.joined(separator: ", ")) (every chrome metric is required)") }
        return ChromeMetrics(version: version, rows: rows, values: values)
    }

    /// `Templates/system/VERSION/metrics.json`, over the version it `overlays` (at most 4 deep).
    public static func load(templates: URL, version: String = standardVersion, depth: Int = 0) throws(ConfigError) -> ChromeMetrics {
        let url = file(templates: templates, version: version)
        let bytes: [UInt8]
        do { bytes = try TrustedFiles.read(url, limit: 1 << 20) } catch { throw ConfigError(error.description) }
        var base: ChromeMetrics?
        if let json = try? JSONParser.parse(bytes, file: url.path), let under = json["overlays"]?.string {
            guard depth < 4, under != version, under.hasPrefix("ios"), !under.contains("/") else {
                throw ConfigError("\(url.path): overlays: \(under) is not another version's folder (or they overlay in a loop)")
            }
            base = try load(templates: templates, version: under, depth: depth + 1)
        }
        return try read(bytes, file: url.path, version: version, base: base)
    }

    public static func file(templates: URL, version: String) -> URL {
        templates.appendingPathComponent("system/\(version)/metrics.json")
    }

    /// The rows as nested template objects: `list.inset` is `{{chrome.list.inset}}`.
    public var templateValue: TemplateValue {
        rows.reduce(.object([:])) { root, row in root.setting(.number(row.value), at: row.name.split(separator: ".").map(String.init)[...]) }
    }
}
