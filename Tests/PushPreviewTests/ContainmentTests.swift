import ConfinedFiles
import Foundation
import PushPreview
import Testing

/// A payload that makes its worker trap, hang or eat memory fails alone: the gallery still writes
/// every other mock-up, report.json and index.html, exits 1, and says why the payload failed.
struct ContainmentTests {
    static let payloads = ["body-only.apns", "emoji.apns", "plain-alert.apns"]

    func galleryWithFault(_ fault: String, on payload: String, _ extra: [String] = [], _ name: String = #function) throws
        -> (ProcessRun, GalleryReport, URL) {
        let project = try examplesCopy(payloads: Self.payloads, name)
        let out = project.deletingLastPathComponent().appendingPathComponent("Output")
        var environment = ProcessInfo.processInfo.environment
        environment["PUSHPREVIEW_TEST_FAULT"] = "\(fault):\(payload)"
        let r = try runProcess(pushpreviewBinary, ["gallery", project.path, "--out", out.path, "--device", "iphone-17", "--ios", "18", "--jobs", "2"] + extra,
                               environment: environment)
        return (r, try GalleryReport.read(in: ConfinedFolder(trusted: out, links: .refused)), out)
    }

    func expectOthersRendered(_ report: GalleryReport, failed payload: String, out: URL) {
        #expect(report.inputs.map(\.payload) == Self.payloads.map { "payloads/\($0)" })
        for input in report.inputs where input.payload != "payloads/\(payload)" {
            #expect(input.outcome != "failed", "\(input.payload): \(input.mockups.flatMap(\.errors))")
            #expect(input.mockups.count >= 2 && input.mockups.allSatisfy { !$0.outputs.isEmpty })
            for file in input.mockups.flatMap(\.outputs) { #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent(file).path)) }
        }
        #expect(report.summary.failed == 1)
        let page = (try? String(contentsOf: out.appendingPathComponent("index.html"), encoding: .utf8)) ?? ""
        #expect(page.contains(payload))
    }

    @Test func aTrapFailsOnlyItsPayload() throws {
        let (r, report, out) = try galleryWithFault("trap", on: "emoji.apns")
        #expect(r.status == 1, "\(r.stderr)")
        expectOthersRendered(report, failed: "emoji.apns", out: out)
        let error = report.inputs[1].mockups.first?.errors.first ?? ""
        #expect(report.inputs[1].outcome == "failed")
        #expect(error.hasPrefix("crashed: SIGILL") || error.hasPrefix("crashed: SIGTRAP"), "\(error)")
        #expect(error.contains("Index out of range") && error.contains("reading the payload"), "\(error)")
    }

    /// iOS 18's chrome: a debug build under the suite's load draws iOS 26's glass near the 3 s
    /// the others must finish in (the glass's cost is `make bench`'s to say).
    @Test func aHangIsStoppedByTheTimeout() throws {
        let start = Date()
        let (r, report, out) = try galleryWithFault("hang", on: "body-only.apns", ["--timeout", "3"])
        #expect(r.status == 1)
        #expect(Date().timeIntervalSince(start) < 60)
        expectOthersRendered(report, failed: "body-only.apns", out: out)
        let error = report.inputs[0].mockups.first?.errors.first ?? ""
        #expect(error.hasPrefix("stopped: took longer than 3 s (--timeout)"), "\(error)")
    }

    @Test func aMemoryBlowUpIsStopped() throws {
        let (r, report, out) = try galleryWithFault("memory", on: "plain-alert.apns", ["--max-memory", "300"])
        #expect(r.status == 1)
        expectOthersRendered(report, failed: "plain-alert.apns", out: out)
        let error = report.inputs[2].mockups.first?.errors.first ?? ""
        #expect(error.contains("more than 300 MB") || error.contains("crashed"), "\(error)")
    }

    /// `render` with several payloads: the one that traps is an error, the others are drawn.
    @Test func renderKeepsGoingPastACrash() throws {
        let project = try examplesCopy(payloads: Self.payloads)
        let out = project.deletingLastPathComponent().appendingPathComponent("Output")
        var environment = ProcessInfo.processInfo.environment
        environment["PUSHPREVIEW_TEST_FAULT"] = "trap:body-only.apns"
        let files = Self.payloads.map { project.appendingPathComponent("payloads/\($0)").path }
        let r = try runProcess(pushpreviewBinary, ["render"] + files + ["--out", out.path, "--device", "iphone-17"], environment: environment)
        #expect(r.status == 1)
        #expect(r.stderr.contains("error: crashed: SIG"), "\(r.stderr)")
        #expect(r.stdout.split(separator: "\n").filter { $0.hasSuffix(".png") }.count == 4, "\(r.stdout)")
    }
}
