import ContentStage
import Foundation
import Testing

/// The chrome's numbers are data (`Templates/system/iosNN/metrics.json`); METRICS.md's table of
/// them is generated from that file, so the two cannot drift. Regenerate the table with
/// `PUSHPREVIEW_REGENERATE=1 swift test --filter ChromeMetricsTests`.
struct ChromeMetricsTests {
    static let templates = repositoryRoot.appendingPathComponent("Templates")
    static func markers(_ version: String) -> (begin: String, end: String) {
        ("<!-- generated from \(version)/metrics.json by ChromeMetricsTests: begin -->", "<!-- generated from \(version)/metrics.json by ChromeMetricsTests: end -->")
    }

    static func table(_ rows: [ChromeMetrics.Row]) -> String {
        var lines = ["| name | value | source | error | note |", "|---|---|---|---|---|"]
        for r in rows {
            let value = (r.value == r.value.rounded() ? String(Int(r.value)) : String(r.value)) + (r.unit == "pt" ? " pt" : "")
            let error = r.error.map { "±\($0 == $0.rounded() ? String(Int($0)) : String($0))" } ?? "— (unmeasured)"
            lines.append("| `\(r.name)` | \(value) | \(r.source) | \(error) | \(r.note) |")
        }
        return lines.joined(separator: "\n")
    }

    /// iOS 18's rows, and the rows iOS 26's file gives over them (its own only).
    static func tables() throws -> [(version: String, rows: [ChromeMetrics.Row])] {
        let ios18 = try ChromeMetrics.load(templates: templates)
        let file = templates.appendingPathComponent("system/ios26/metrics.json")
        let bytes = [UInt8](try Data(contentsOf: file))
        let ios26 = try ChromeMetrics.read(bytes, file: file.path, version: "ios26", base: ios18)
        let own = Set(ios26.rows.map(\.name)).filter { name in String(decoding: bytes, as: UTF8.self).contains("\"name\": \"\(name)\"") }
        return [("ios18", ios18.rows), ("ios26", ios26.rows.filter { own.contains($0.name) })]
    }

    @Test func metricsMarkdownIsGeneratedFromTheMetricsFiles() throws {
        let file = Self.templates.appendingPathComponent("system/METRICS.md")
        var text = try String(contentsOf: file, encoding: .utf8)
        for (version, rows) in try Self.tables() {
            let (begin, end) = Self.markers(version)
            let start = try #require(text.range(of: begin), "METRICS.md has no generated table for \(version)"), stop = try #require(text.range(of: end))
            let want = "\n" + Self.table(rows) + "\n"
            if ProcessInfo.processInfo.environment["PUSHPREVIEW_REGENERATE"] == "1" {
                text = String(text[..<start.upperBound] + want + text[stop.lowerBound...])
                continue
            }
            #expect(String(text[start.upperBound..<stop.lowerBound]) == want, "METRICS.md's table differs from \(version)/metrics.json: PUSHPREVIEW_REGENERATE=1 swift test --filter ChromeMetricsTests")
        }
        if ProcessInfo.processInfo.environment["PUSHPREVIEW_REGENERATE"] == "1" { try text.write(to: file, atomically: true, encoding: .utf8) }
    }

    @Test func everyRequiredMetricIsThereAndAMissingOneIsRefused() throws {
        let metrics = try ChromeMetrics.load(templates: Self.templates)
        for name in ChromeMetrics.required { #expect(metrics.rows.contains { $0.name == name }, "\(name)") }
        let short = #"{"metrics": [{"name": "list.inset", "value": 14, "unit": "pt", "source": "x", "error": 0.3}]}"#
        #expect(throws: ConfigError.self) { try ChromeMetrics.read(Array(short.utf8), file: "m.json", version: "ios18") }
        let twice = #"{"metrics": [{"name": "a", "value": 1, "unit": "pt", "source": "x"}, {"name": "a", "value": 2, "unit": "pt", "source": "x"}]}"#
        #expect(throws: ConfigError.self) { try ChromeMetrics.read(Array(twice.utf8), file: "m.json", version: "ios18") }
    }

    /// Each iOS version's metrics file sits in its own folder beside the templates.
    @Test func everyVersionFolderReads() throws {
        let system = Self.templates.appendingPathComponent("system")
        let versions = try FileManager.default.contentsOfDirectory(atPath: system.path).filter { $0.hasPrefix("ios") }
        #expect(versions.contains(ChromeMetrics.standardVersion))
        for v in versions { _ = try ChromeMetrics.load(templates: Self.templates, version: v) }
    }
}
