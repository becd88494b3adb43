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
}
