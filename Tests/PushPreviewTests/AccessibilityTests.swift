import ConfinedFiles
import ContentStage
import Foundation
import Imaging
import Layout
import PushPreview
import Styling
import Testing

/// `--accessibility reduce-transparency,increase-contrast` (issue 36): an output axis like the
/// others (names, card ids, report, filters, the merge check), and the screen the page's @media
/// rules are answered for — the chrome's and a template's own (`prefers-reduced-transparency`,
/// `prefers-contrast`), the same in our PNG and in Chromium.
struct AccessibilityTests {
    @Test func mediaConditionsParseAndMatch() {
        func condition(_ prelude: String) -> MediaCondition? {
            Stylesheet("\(prelude) { p { color: red } }", file: "t.css").rules.first?.media
        }
        let lightScreen = MediaFeatures(appearance: .light), contrast = MediaFeatures(appearance: .dark, accessibility: .increaseContrast)
        let clear = MediaFeatures(appearance: .light, accessibility: .reduceTransparency)
        #expect(condition("@media (prefers-contrast: more)")?.matches(contrast) == true)
        #expect(condition("@media (prefers-contrast: more)")?.matches(lightScreen) == false)
        #expect(condition("@media screen and (prefers-color-scheme: dark) and (prefers-contrast: more)")?.matches(contrast) == true)
        #expect(condition("@media (prefers-color-scheme: light) and (prefers-contrast: more)")?.matches(contrast) == false)
        #expect(condition("@media (prefers-reduced-transparency: reduce)")?.matches(clear) == true)
        #expect(condition("@media (prefers-reduced-transparency: no-preference)")?.matches(clear) == false)
        #expect(condition("@media (prefers-reduced-transparency: no-preference)")?.matches(lightScreen) == true)
        #expect(condition("@media (prefers-contrast: less)")?.matches(contrast) == false)
        // Nested blocks add their tests to the outer one's.
        let nested = Stylesheet("@media (prefers-color-scheme: dark) { @media (prefers-contrast: more) { p { color: red } } }", file: "t.css")
        #expect(nested.rules.count == 1 && nested.rules[0].applies(on: contrast) && !nested.rules[0].applies(on: MediaFeatures(appearance: .dark)))
    }

    /// What no screen answers is said, with the line, and its rules are left out, never applied.
    @Test(arguments: ["@media (max-width: 400px)", "@media print and (prefers-contrast: more)", "@media (prefers-contrast: more), (prefers-color-scheme: dark)",
                      "@media not (prefers-contrast: more)", "@media (prefers-contrast: loud)", "@media (prefers-contrast more)", "@media (prefers-contrast: more",
                      "@media ((prefers-contrast: more))", "@media", "@media \(String(repeating: "(prefers-contrast: more) and ", count: 2000))(x: y)"])
    func unsupportedMediaIsSaidAndIgnored(_ prelude: String) {
        let sheet = Stylesheet("p { color: blue }\n\(prelude) { p { color: red } }", file: "t.css")
        #expect(sheet.rules.count == 1 && sheet.rules[0].media == nil, "\(prelude.prefix(60))")
        #expect(sheet.warnings.contains { $0.line == 2 && $0.message.contains("is not supported") }, "\(sheet.warnings)")
    }

    @Test func theSettingIsAnAxisOfTheVariant() {
        let v = Variant(device: "iphone-17", appearance: .dark, locale: "nl", textSize: .large, ios: .ios26, glass: .tinted, accessibility: .increaseContrast)
        #expect(v.stem("banner", namesIOS: false) == "iphone-17-dark-nl-increase-contrast-banner")
        #expect(Variant(device: "iphone-17", appearance: .dark, locale: nil, textSize: .large, ios: .ios26).stem("banner", namesIOS: false) == "iphone-17-dark-banner")
        let parsed = Variant.parse(cardID: v.cardID(payload: "a|b.apns"))
        #expect(parsed?.payload == "a|b.apns" && parsed?.variant == v)
        // Without a setting the id is as before there were any (serve's approvals are kept by it).
        var plain = v
        plain.accessibility = .standard
        #expect(plain.cardID(payload: "p.apns") == "p.apns|iphone-17|dark|nl|large|26|tinted" && Variant.parse(cardID: "p.apns|iphone-17|dark|nl|large|26|tinted")?.variant == plain)
        #expect(Variant.parse(cardID: "p.apns|iphone-17|dark|nl|large|26|tinted|none") == nil)
        #expect(v.caption(deviceName: "iPhone 17", iosNamed: false).last == "Increase Contrast")
        var one = VariantAxes(), other = VariantAxes()
        one.accessibilitySettings = [.standard, .reduceTransparency]
        #expect(one.variants(localized: false).map(\.accessibility) == [.standard, .reduceTransparency])
        #expect(one.mismatch(other)?.contains("accessibility") == true && other.mismatch(other) == nil)
        other.accessibilitySettings = [.reduceTransparency]
        #expect(one.rank(Variant(device: "iphone-17", appearance: .light, locale: nil, textSize: .large, ios: .ios26, accessibility: .reduceTransparency))
                != one.rank(Variant(device: "iphone-17", appearance: .light, locale: nil, textSize: .large, ios: .ios26)))
    }

    /// A gallery drawn with each setting: named files, the report's axis and each mock-up's
    /// setting, a filter, the chrome's opaque platter (Reduce Transparency) and its edge (Increase
    /// Contrast), a template's own @media rule honoured, the same bytes twice, and the pages as
    /// Chromium draws them agreeing with our PNGs.
    @Test func aGalleryPerSetting() throws {
        let project = try examplesCopy(payloads: ["bilge-alarm.apns", "localized-boarding.apns"])
        // The boarding pass's custom view says when it is drawn for Increase Contrast.
        let templateURL = project.appendingPathComponent("Templates/boarding-pass.html")
        try Data((try String(contentsOf: templateURL, encoding: .utf8) + "\n<style>@media (prefers-contrast: more) { body { background-color: #ff00ff; } }</style>\n").utf8).write(to: templateURL)
        let work = temporaryFolder()
        func gallery(_ out: String) throws -> (URL, GalleryReport) {
            let folder = work.appendingPathComponent(out)
            let run = try runProcess(pushpreviewBinary, ["gallery", project.path, "--out", folder.path, "--device", "iphone-17", "--appearance", "light,dark",
                                                         "--ios", "26,18", "--accessibility", "none,reduce-transparency,increase-contrast"])
            try #require(run.status == 0, "\(run.stderr)")
            return (folder, try GalleryReport.read(in: ConfinedFolder(trusted: folder, links: .refused)))
        }
        let (out, report) = try gallery("a")
        #expect(report.accessibility == ["none", "reduce-transparency", "increase-contrast"])
        let mockups = report.inputs.flatMap(\.mockups)
        #expect(Set(mockups.map { $0.accessibility ?? "none" }) == ["none", "reduce-transparency", "increase-contrast"])
        let index = try String(contentsOf: out.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(index.contains("data-filter=\"accessibility\"") && index.contains("<option value=\"increase-contrast\">") && index.contains("Reduce Transparency"))
        let (again, _) = try gallery("b")
        for name in ["bilge-alarm/iphone-17-dark-ios26-reduce-transparency-banner.png", "bilge-alarm/iphone-17-light-ios18-increase-contrast-banner.png"] {
            #expect(FileManager.default.contentsEqual(atPath: out.appendingPathComponent(name).path, andPath: again.appendingPathComponent(name).path), "\(name)")
        }
        // The platter: translucent by default, opaque with Reduce Transparency (iOS 18, light: the
        // same pixel inside the platter shows the wallpaper through, or not).
        func pixel(_ name: String, x: Int, y: Int) throws -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
            try PNGCodec.decode([UInt8](Data(contentsOf: out.appendingPathComponent("bilge-alarm/iphone-17-light-ios18-\(name).png")))).pixel(x: x, y: y)
        }
        let plain = try pixel("banner", x: 600, y: 60), opaque = try pixel("reduce-transparency-banner", x: 600, y: 60)
        #expect((opaque.r, opaque.g, opaque.b) == (0xed, 0xed, 0xf0), "\(opaque)")
        #expect(plain.b > plain.r, "the plain platter lets the bluish wallpaper through: \(plain)")
        // The custom view's own rule applies with Increase Contrast only.
        let expanded = mockups.filter { $0.payload.hasSuffix("localized-boarding.apns") && $0.view == "expanded" && $0.ios == "18" && $0.appearance == "light" }
        #expect(Set(expanded.map { $0.accessibility ?? "none" }).count == 3, "each setting drawn")
        for r in expanded {
            let page = try String(contentsOf: out.appendingPathComponent(try #require(r.outputs.first { $0.hasSuffix(".html") })), encoding: .utf8)
            #expect(page.contains("#ff00ff") == (r.accessibility == "increase-contrast"), "\(r.accessibility ?? "none")")
        }
        try expectChromiumAgrees("accessibility", views: ["ios26-reduce-transparency-banner", "ios26-increase-contrast-banner", "ios18-increase-contrast-banner",
                                                          "ios18-reduce-transparency-expanded"].map { "bilge-alarm/iphone-17-dark-\($0)" },
                                 in: out, work: work.appendingPathComponent("chromium"), width: 402)
    }
}
