import ConfinedFiles
import ContentStage
import Diagnostics
import Foundation
import Styling

/// `Output/report.json`: every input of a gallery run and its outcome (README, "report.json").
/// Paths are relative (payloads to the project, outputs to the output folder) and nothing in it
/// depends on the clock, so the same inputs give the same bytes.
public struct GalleryReport: Codable, Sendable, Equatable {
    public var tool: String
    public var project: String
    public var devices: [String]
    /// The profiles behind `devices`: names, sizes, scale.
    public var deviceProfiles: [DeviceProfile]
    public var appearances: [String]
    public var locales: [String]
    /// Dynamic Type sizes and iOS versions drawn; nil in reports made before they were listed
    /// (those drew large text and iOS 18's chrome).
    public var textSizes: [String]? = nil
    public var ios: [String]? = nil
    public var glass: [String]? = nil
    /// The accessibility settings drawn; nil when only none was (and in reports made before).
    public var accessibility: [String]? = nil
    /// "I/N" for a shard's report; nil for a whole (or merged) run.
    public var shard: String?
    public var summary: Summary
    /// The project's own errors and warnings ("error: …", "warning: …"), once for the run.
    public var projectIssues: [String]? = nil
    /// The same findings as records (severity, code, file, line, column, keyPath, message,
    /// category, locale): what `validate --json` prints for the project.
    public var projectDiagnostics: [Diagnostic]? = nil
    public var inputs: [Input]
    /// Every input file but the payloads, by name (`project/…`, `templates/…`, or an Xcode app
    /// file's whole path), with the SHA-256 of its bytes: what `--incremental` compares.
    public var files: [String: String]? = nil

    public struct Summary: Codable, Sendable, Equatable {
        public var payloads = 0
        /// PNG mock-ups written (or kept, with --incremental).
        public var mockups = 0
        public var failed = 0
        public var withWarnings = 0
    }

    public struct Input: Codable, Sendable, Equatable {
        /// The payload file, relative to the project folder.
        public var payload: String
        public var category: String?
        /// rendered, warnings (rendered, with warnings) or failed (some mock-up has errors).
        public var outcome: String
        /// SHA-256 over the tool version, the options and the payload file; every other file is in
        /// the report's `files`, and an edit to one is mapped to the payloads it touches (`EditPlan`).
        public var key: String
        public var mockups: [MockupResult]
    }

    /// The axes the run drew, as `RenderOptions` held them (values a tool does not know are dropped).
    public var axes: VariantAxes {
        var a = VariantAxes()
        a.devices = devices
        a.appearances = appearances.compactMap(Appearance.init(rawValue:))
        a.locales = locales
        a.textSizes = (textSizes ?? [TextSize.standard.rawValue]).compactMap(TextSize.init(rawValue:))
        a.iosVersions = (ios ?? [IOSVersion.ios18.rawValue]).compactMap(IOSVersion.init(rawValue:))
        a.glassStyles = (glass ?? [IOSChrome.Glass.clear.rawValue]).compactMap(IOSChrome.Glass.init(rawValue:))
        a.accessibilitySettings = (accessibility ?? [AccessibilitySetting.standard.rawValue]).compactMap(AccessibilitySetting.init(rawValue:))
        return a
    }

    public static func outcome(of results: [MockupResult]) -> String {
        if results.contains(where: { !$0.errors.isEmpty }) { return "failed" }
        return results.contains(where: { !$0.warnings.isEmpty }) ? "warnings" : "rendered"
    }

    mutating func summarize() {
        summary = Summary(payloads: inputs.count, mockups: inputs.flatMap(\.mockups).flatMap(\.outputs).filter { $0.hasSuffix(".png") }.count,
                          failed: inputs.filter { $0.outcome == "failed" }.count, withWarnings: inputs.filter { $0.outcome == "warnings" }.count)
    }

    public func encoded() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return [UInt8](try encoder.encode(self)) + [10]
    }

    /// `report.json` of an output folder, read beneath it (no link followed).
    public static func read(in folder: ConfinedFolder) throws -> GalleryReport {
        try JSONDecoder().decode(GalleryReport.self, from: Data(try folder.read("report.json", limit: 256 << 20)))
    }
}
