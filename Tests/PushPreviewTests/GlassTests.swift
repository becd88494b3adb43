import ContentStage
import Foundation
import Imaging
import PushPreview
import Testing

/// iOS 26's Liquid Glass (issue 36): the HTML page's `backdrop-filter` glass as Chromium draws
/// it and our PNG's glass (painted natively) agree within the fidelity check's targets, and the
/// same inputs give the same bytes.
struct GlassTests {
    /// A banner and a Lock Screen in light and dark, on iOS 26 (the default).
    func render(_ out: URL, project: URL) throws -> ProcessRun {
        try runProcess(pushpreviewBinary, ["render", project.appendingPathComponent("payloads/crew-message.apns").path, "--project", project.path,
                                           "--out", out.path, "--device", "iphone-15", "--appearance", "light,dark", "--view", "lockscreen", "--format", "html,png"])
    }

    @Test func glassIsDeterministicAndAgreesWithChromium() throws {
        let project = try examplesCopy(payloads: ["crew-message.apns"])
        let root = project.deletingLastPathComponent()
        let a = root.appendingPathComponent("A"), b = root.appendingPathComponent("B")
        let first = try render(a, project: project), second = try render(b, project: project)
        #expect(first.status == 0 && second.status == 0, "\(first.stderr) \(second.stderr)")
        let ta = tree(a), tb = tree(b)
        #expect(!ta.isEmpty && ta == tb, "same inputs, same bytes: \(ta.keys.filter { ta[$0] != tb[$0] }.sorted().prefix(5))")
        // File names carry no iOS version when one is drawn.
        #expect(ta.keys.contains("/crew-message/iphone-15-light-banner.png") && !ta.keys.contains { $0.contains("ios26") }, "\(ta.keys.sorted())")
        let page = try String(contentsOf: a.appendingPathComponent("crew-message/iphone-15-light-banner.html"), encoding: .utf8)
        #expect(page.contains("backdrop-filter: blur(6px) brightness(1.1) saturate(1)"), "the page's glass is CSS")

        try expectChromiumAgrees("glass", views: ["light-banner", "dark-banner", "light-lockscreen", "dark-lockscreen"].map { "crew-message/iphone-15-\($0)" },
                                 in: a, work: root.appendingPathComponent("fidelity"), width: 393)
    }

    /// iOS 26's Lock Screen on a Face ID iPhone (ios26/metrics.json lockScreen.*, from a real
    /// iOS 26 capture): the date's baseline 40.7 pt under the safe area, the clock's numerals 15 pt
    /// below it, 57 pt glass buttons centred 75 pt from the sides and 78 pt above the bottom; iOS 18
    /// and the Home-button SE keep iOS 18's places.
    @Test func theLockScreenOfIOS26() throws {
        let project = try examplesCopy(payloads: ["body-only.apns"])
        var options = RenderOptions()
        options.outputFolder = project.deletingLastPathComponent().appendingPathComponent("Out")
        options.layoutJSON = true
        options.extraViews = ["lockscreen"]
        options.devices = ["iphone-17", "iphone-se-3"]
        options.axes.iosVersions = [.ios26, .ios18]
        let loaded = try Project(folder: project)
        let results = try makeRenderer().render(payloadFile: project.appendingPathComponent("payloads/body-only.apns"), project: loaded, options: options)
            .filter { $0.view == "lockscreen" }
        #expect(results.count == 4)
        var dates: [String: Double] = [:]
        for r in results {
            let boxes = try ContentStageTests.boxes(r)
            let flashlight = boxes.first { $0.id == "flashlight" }
            let date = try #require(boxes.first { $0.id == "date" })
            let modern = r.ios == "26" && r.device == "iphone-17"
            if r.device == "iphone-17", let flashlight {
                #expect(flashlight.width == (modern ? 57 : 50), "\(r.ios ?? ""): \(flashlight.width)")
                if modern {
                    #expect(abs(flashlight.x + flashlight.width / 2 - 75) < 0.01 && abs(874 - (flashlight.y + flashlight.height / 2) - 78) < 0.01, "\(flashlight)")
                    #expect(abs(date.y - (62 + 40.7 - 21.9)) < 0.01, "date top \(date.y)")
                }
            }
            dates[r.device + (r.ios ?? "")] = date.y
        }
        #expect(dates["iphone-se-326"] == dates["iphone-se-318"] && dates["iphone-1726"] != dates["iphone-1718"], "\(dates)")
    }

    /// A thread's stack: iOS 26 shows how many it holds as a badge on the icon (and glass plates),
    /// iOS 18 an "N more notifications" line; the iOS 26 page agrees with our PNG in Chromium.
    @Test func aStackCountsOnItsIconOnIOS26() throws {
        let project = try examplesCopy(payloads: ["body-only.apns"])
        for i in 1...3 {
            try Data(#"{"aps": {"alert": {"title": "Hallway", "body": "Motion \#(i)"}, "thread-id": "cams"}}"#.utf8)
                .write(to: project.appendingPathComponent("payloads/cam\(i).apns"))
        }
        let out = project.deletingLastPathComponent().appendingPathComponent("Out")
        let run = try runProcess(pushpreviewBinary, ["gallery", project.path, "--out", out.path, "--device", "iphone-17", "--appearance", "dark",
                                                     "--ios", "26,18", "--view", "lockscreen"])
        try #require(run.status == 0, "\(run.stderr)")
        func page(_ ios: String) throws -> String {
            try String(contentsOf: out.appendingPathComponent("cam3/iphone-17-dark-en-ios\(ios)-stack-lockscreen.html"), encoding: .utf8)
        }
        let modern = try page("26"), older = try page("18")
        #expect(modern.contains("id=\"stack-count\">3<") && !modern.contains("id=\"summary\""))
        #expect(older.contains("id=\"summary\"") && !older.contains("id=\"stack-count\""))
        try expectChromiumAgrees("stack", views: ["cam3/iphone-17-dark-en-ios26-stack-lockscreen"], in: out,
                                 work: project.deletingLastPathComponent().appendingPathComponent("chromium"), width: 402)
    }
}
