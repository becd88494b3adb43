import ConfinedFiles
import Foundation
import Payload
import PushPreview
import Testing

/// System states no payload can ask iOS for, drawn only when a payload's test data
/// (`"PushPreview Simulation"`) names them, and said on every mock-up: an Apple Intelligence
/// summary and a prioritized notification's edge light (issue 36).
struct SimulationTests {
    static let payload = #"{"aps": {"alert": {"title": "Hallway: Person", "body": "Motion at 13:37. Motion at 13:38."}}, "door": 3, "PushPreview Simulation": {"summary": "Two people walked past, one carrying a red bucket.", "prioritized": true}}"#

    @Test func theTestDataIsReadAndNeverSent() throws {
        let (p, diagnostics) = try PayloadParser.parse(Array(Self.payload.utf8), file: "p.apns")
        #expect(p.simulation == Payload.Simulation(summary: "Two people walked past, one carrying a red bucket.", prioritized: true))
        #expect(p.userInfo.map(\.key) == ["door"] && diagnostics.isEmpty)
        let plain = try PayloadParser.parse(Array(#"{"aps": {"alert": {"title": "Hallway: Person", "body": "Motion at 13:37. Motion at 13:38."}}, "door": 3}"#.utf8), file: "q.apns").0
        #expect(p.size == plain.size, "not counted in what APNs would carry")
    }

    @Test(arguments: [(#""PushPreview Simulation": "yes""#, "expected an object"), (#""PushPreview Simulation": {"prioritized": 1}"#, "PushPreview Simulation.prioritized"),
                      (#""PushPreview Simulation": {"summary": ["a"]}"#, "PushPreview Simulation.summary")])
    func wrongTypesAreErrorsNamingTheKey(_ member: String, _ said: String) {
        let text = #"{"aps": {"alert": "Hi"}, "# + member + "}"
        #expect { try PayloadParser.parse(Array(text.utf8), file: "p.apns") } throws: { "\($0)".contains(said) }
    }

    @Test func anUnknownOrEmptyFieldIsAWarning() throws {
        let (p, diagnostics) = try PayloadParser.parse(Array(#"{"aps": {"alert": "Hi"}, "PushPreview Simulation": {"summary": "", "glow": true}}"#.utf8), file: "p.apns")
        #expect(p.simulation?.summary == nil && p.simulation?.prioritized == false)
        #expect(diagnostics.count == 2 && diagnostics.allSatisfy { $0.severity == .warning }, "\(diagnostics)")
    }

    /// Drawn in every view it belongs to, said on each, and the page agrees with the PNG in Chromium.
    @Test func theSummaryAndTheEdgeLightAreDrawnAndSaid() throws {
        let project = try examplesCopy(payloads: ["body-only.apns"])
        try Data(Self.payload.utf8).write(to: project.appendingPathComponent("payloads/sim.apns"))
        let out = project.deletingLastPathComponent().appendingPathComponent("Out")
        let run = try runProcess(pushpreviewBinary, ["gallery", project.path, "--out", out.path, "--device", "iphone-17", "--appearance", "dark", "--view", "lockscreen"])
        try #require(run.status == 0, "\(run.stderr)")
        let report = try GalleryReport.read(in: ConfinedFolder(trusted: out, links: .refused))
        let sim = try #require(report.inputs.first { $0.payload.hasSuffix("sim.apns") }).mockups
        let plain = try #require(report.inputs.first { $0.payload.hasSuffix("body-only.apns") }).mockups
        #expect(sim.count >= 3 && sim.allSatisfy { $0.notes?.contains { $0.hasPrefix("Simulated") } == true })
        #expect(plain.allSatisfy { !($0.notes ?? []).contains { $0.hasPrefix("Simulated") } })
        func page(_ view: String) throws -> String { try String(contentsOf: out.appendingPathComponent("sim/iphone-17-dark-\(view).html"), encoding: .utf8) }
        for view in ["banner", "lockscreen", "expanded"] {
            let html = try page(view)
            #expect(html.contains("Two people walked past") && !html.contains("Motion at 13:37") && html.contains("ai-summary"), "\(view)")
        }
        #expect(try page("banner").contains("prioritized") && page("expanded").contains("Summarized by Apple Intelligence"))
        try expectChromiumAgrees("simulation", views: ["sim/iphone-17-dark-banner", "sim/iphone-17-dark-expanded"], in: out,
                                 work: project.deletingLastPathComponent().appendingPathComponent("chromium"), width: 402)
    }
}
