import ContentStage
import Foundation
import Testing

/// The chrome's numbers are data (`Templates/system/iosNN/metrics.json`); METRICS.md's table of
/// them is generated from that file, so the two cannot drift. Regenerate the table with
/// `PUSHPREVIEW_REGENERATE=1 swift test --filter ChromeMetricsTests`.
struct ChromeMetricsTests {
    static let templates = repositoryRoot.appendingPathComponent("Templates")
    static let begin = "<!-- generated from ios18/metrics.json by ChromeMetricsTests: begin -->"
    static let end = "<!-- generated from ios18/metrics.json by ChromeMetricsTests: end -->"

    static func table(_ m: ChromeMetrics) -> String {
        var lines = ["| name | value | source | error | note |", "|---|---|---|---|---|"]
        for r in m.rows {
            let value = (r.value == r.value.rounded() ? String(Int(r.value)) : String(r.value)) + (r.unit == "pt" ? " pt" : "")
            let error = r.error.map { "±\($0 == $0.rounded() ? String(Int($0)) : String($0))" } ?? "—"
            lines.append("| `\(r.name)` | \(value) | \(r.source) | \(error) | \(r.note) |")
        }
        return lines.joined(separator: "\n")
    }

    @Test func metricsMarkdownIsGeneratedFromTheMetricsFile() throws {
        let metrics = try ChromeMetrics.load(templates: Self.templates)
        let file = Self.templates.appendingPathComponent("system/METRICS.md")
        let text = try String(contentsOf: file, encoding: .utf8)
        let start = try #require(text.range(of: Self.begin), "METRICS.md has no generated table"), stop = try #require(text.range(of: Self.end))
        let want = "\n" + Self.table(metrics) + "\n"
        if ProcessInfo.processInfo.environment["PUSHPREVIEW_REGENERATE"] == "1" {
            try (text[..<start.upperBound] + want + text[stop.lowerBound...]).write(to: file, atomically: true, encoding: .utf8)
            return
        }
        #expect(String(text[start.upperBound..<stop.lowerBound]) == want, "METRICS.md's table differs from ios18/metrics.json: PUSHPREVIEW_REGENERATE=1 swift test --filter ChromeMetricsTests")
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
