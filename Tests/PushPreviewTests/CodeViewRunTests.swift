import ContentStage
import Foundation
import PushPreview
import Testing
import ProjectImport

/// Issue 22, items 4 and 6, end to end: `init` on Tests/Fixtures/xcode/codeview/Kestrel, then
/// render. The starter of a view made in code is drawn at the preferred height and every
/// long-look drawn with it says where the real view is made; the sample's downloaded key is
/// attached from the project's media, not warned about as an invalid URL.
struct CodeViewRunTests {
    @Test func startersSayWhereTheViewIsMadeAndSamplesAttach() throws {
        let root = temporaryFolder().appendingPathComponent("Kestrel")
        try FileManager.default.copyItem(at: repositoryRoot.appendingPathComponent("Tests/Fixtures/xcode/codeview/Kestrel"), to: root)
        let plan = try ProjectInit(path: root)
        _ = try InitWriter.write(plan.output, into: plan.folder, force: false)
        let out = root.appendingPathComponent("out")
        let payloads = ["FLIGHT", "boarding"].map { plan.folder.appendingPathComponent("payloads/\($0).apns").path }
        let run = try runProcess(pushpreviewBinary, ["render"] + payloads + ["--out", out.path, "--json", "--device", "iphone-17", "--format", "html"])
        #expect(run.status == 0, "\(run.stderr)")
        let results = run.stdout.split(separator: "\n").compactMap { try? JSONDecoder().decode(MockupResult.self, from: Data($0.utf8)) }
        let flight = try #require(results.first { $0.payload.hasSuffix("FLIGHT.apns") && $0.view == "expanded" })
        #expect(flight.warnings.contains { $0.hasSuffix("Templates/FLIGHT.html:5: the custom view is init's starter: KestrelFlightContent makes its view in code at FlightContent/FlightViewController.swift:17 (addSubview), FlightContent/FlightViewController.swift:18 (addArrangedSubview), FlightContent/FlightViewController.swift:19 (addArrangedSubview), …") }, "\(flight.warnings)")
        #expect(flight.content?.customViewHeight == 240)
        #expect(!flight.warnings.contains { $0.contains("invalid URL") || $0.contains("looks like media") }, "\(flight.warnings)")
        #expect(flight.service.level == "full", "the sample image is attached: \(flight.service.steps)")
        // The banner draws no custom view: no word about it there.
        let banner = try #require(results.first { $0.payload.hasSuffix("FLIGHT.apns") && $0.view == "banner" })
        #expect(!banner.warnings.contains { $0.contains("init's starter") })
        // The repository's own boarding payload, drawn with the SwiftUI extension's starter.
        let boarding = try #require(results.first { $0.payload.hasSuffix("boarding.apns") && $0.view == "expanded" })
        #expect(boarding.warnings.contains { $0.contains("makes a SwiftUI view in a UIHostingController at BoardingContent/BoardingViewController.swift:16") })
        let page = try String(contentsOfFile: try #require(boarding.outputs.first { $0.hasSuffix(".html") }), encoding: .utf8)
        #expect(page.contains("Boarding now") && page.contains("14A"))
    }

    /// `{{! warning: … }}` lines: each at its line, its text on one line; other comments and an
    /// unterminated one are not warnings.
    @Test func authorWarningsInATemplate() {
        let source = "<div>\n{{! warning: the map is\n   drawn in code }}\n{{!warning:second}}{{! a note }}\n{{! warning: cut off"
        let warnings = ContentStage.authorWarnings(source, file: "Templates/X.html")
        #expect(warnings.map(\.description) == ["Templates/X.html:2: the map is drawn in code", "Templates/X.html:4: second"])
        #expect(ContentStage.authorWarnings("{{! warning:}}", file: "f").isEmpty, "nothing to say")
        #expect(ContentStage.authorWarnings(String(repeating: "{{!", count: 10_000), file: "f").isEmpty)
    }
}
