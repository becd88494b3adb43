import ConfinedFiles
import ContentStage
import Foundation
import PushPreview
import Testing
import Typography

/// The face the chrome is drawn in: SF Pro when a team gives it (`--font-dir`), Text below 20 pt and
/// Display from 20, tracked by its own `trak` table; Inter otherwise, with the HIG's tracking as
/// letter-spacing — and every mock-up and the gallery say which.
struct SystemFaceTests {
    @Test func theFaceFollowsTheFamiliesLoaded() {
        let both = SystemFace(families: ["inter", "sf pro text", "sf pro display"])
        #expect(both.name == "SF Pro Text and SF Pro Display")
        #expect(both.family(size: 15).hasPrefix("\"SF Pro Text\", Inter") && both.family(size: 19.5).hasPrefix("\"SF Pro Text\""))
        #expect(both.family(size: 20).hasPrefix("\"SF Pro Display\", Inter"))
        #expect(both.tracksItself(size: 15) && both.tracksItself(size: 28))
        let variable = SystemFace(families: ["inter", "sf pro"])
        #expect(variable.name == "SF Pro" && variable.text == variable.display)
        let textOnly = SystemFace(families: ["sf pro text"])
        #expect(textOnly.name == "SF Pro Text and Inter" && !textOnly.tracksItself(size: 22) && textOnly.tracksItself(size: 13))
        let none = SystemFace(families: ["inter", "noto sans", "sf pro rounded"])
        #expect(none == .inter && none.isStandIn && !none.tracksItself(size: 15))
    }

    @Test func textStylesNameTheFaceAndLeaveSFProsTrackingToIt() {
        let sf = SystemFace(families: ["sf pro text", "sf pro display"])
        let inter = TextStyle.stylesheet(.large, face: .inter), sfPro = TextStyle.stylesheet(.large, face: sf)
        #expect(inter.contains("--font-subheadline-tracking: -0.23px") && inter.contains("--font-subheadline: 400 15px/20px Inter, \"PushPreview Fallback\""))
        #expect(sfPro.contains("--font-subheadline-tracking: 0px") && sfPro.contains("--font-subheadline: 400 15px/20px \"SF Pro Text\", Inter"))
        // title3 is 20 pt at the default size: Display; at xSmall (17 pt), Text.
        #expect(sfPro.contains("--font-title3: 400 20px/25px \"SF Pro Display\", Inter"))
        #expect(TextStyle.stylesheet(.xSmall, face: sf).contains("--font-title3: 400 17px/22px \"SF Pro Text\", Inter"))
        #expect(sfPro.contains("--system-font: \"SF Pro Text\", Inter") && sfPro.contains("--system-font-display: \"SF Pro Display\", Inter"))
    }

    /// A stand-in named as SF Pro's faces (Noto Sans renamed: SF Pro cannot be shipped) given with
    /// --font-dir draws the chrome's text — the critical label, title, body and time move — and the
    /// report, the page and the gallery say so; without it, the gallery says once that Inter stands in.
    @Test func fontsNamedSFProDrawTheChromeAndAreSaid() throws {
        let work = temporaryFolder()
        let fonts = work.appendingPathComponent("sf-pro")
        let made = try runProcess(URL(fileURLWithPath: "/usr/bin/python3"), [repositoryRoot.appendingPathComponent("Tests/Support/sf-pro-stand-in.py").path, fonts.path])
        try #require(made.status == 0, "\(made.stderr) (python3-fonttools: make deps)")
        let project = try examplesCopy(payloads: ["bilge-alarm.apns"])
        func gallery(_ extra: [String]) throws -> (URL, GalleryReport) {
            let out = work.appendingPathComponent("out-\(extra.count)")
            let run = try runProcess(pushpreviewBinary, ["gallery", project.path, "--out", out.path, "--device", "iphone-17", "--appearance", "light", "--ios", "18"] + extra)
            try #require(run.status == 0, "\(run.stderr)")
            return (out, try GalleryReport.read(in: ConfinedFolder(trusted: out, links: .refused)))
        }
        let (interOut, interReport) = try gallery([])
        let (sfOut, sfReport) = try gallery(["--font-dir", fonts.path])
        #expect(Set(interReport.inputs.flatMap(\.mockups).compactMap(\.systemFont)) == ["Inter"])
        #expect(Set(sfReport.inputs.flatMap(\.mockups).compactMap(\.systemFont)) == ["SF Pro Text and SF Pro Display"])
        let interIndex = try String(contentsOf: interOut.appendingPathComponent("index.html"), encoding: .utf8)
        let sfIndex = try String(contentsOf: sfOut.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(interIndex.components(separatedBy: "Inter, SF Pro&#39;s stand-in").count == 2, "said once")
        #expect(sfIndex.contains("drawn in SF Pro Text and SF Pro Display") && !sfIndex.contains("stand-in"))
        let banner = "bilge-alarm/iphone-17-light-banner"
        let page = try String(contentsOf: sfOut.appendingPathComponent(banner + ".html"), encoding: .utf8)
        #expect(page.contains("--font-subheadline: 400 15px/20px \"SF Pro Text\"") && page.contains("--font-subheadline-tracking: 0px"))
        let interPNG = try Data(contentsOf: interOut.appendingPathComponent(banner + ".png"))
        let sfPNG = try Data(contentsOf: sfOut.appendingPathComponent(banner + ".png"))
        #expect(interPNG != sfPNG, "the chrome's text is drawn in the face given")
        // A browser with the same faces installed draws the page as our PNG.
        try expectChromiumAgrees("SF Pro stand-in", views: [banner, "bilge-alarm/iphone-17-light-expanded"], in: sfOut,
                                 work: work.appendingPathComponent("chromium"), width: 402, fontFolders: [fonts])
    }
}
