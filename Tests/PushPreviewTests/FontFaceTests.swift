import Foundation
import Imaging
import Testing
import PushPreview

/// A template's own font, as real apps ship their brand face: `@font-face` with a file inside
/// the media roots is drawn in the PNG and linked from the page, where Chromium loads it too.
struct FontFaceTests {
    /// Noto Serif, from Debian's fonts-noto-core (installed by make deps), copied into the
    /// project at test time as the app's "Brand" face: a face our standard set does not load.
    static let serif = "/usr/share/fonts/truetype/noto/NotoSerif-Regular.ttf"

    func fixture(_ css: String, text: String = "Harbor Ferry Lines") throws -> ContentStageTests.Fixture {
        var f = ContentStageTests.Fixture()
        try FileManager.default.createDirectory(at: f.folder.appendingPathComponent("media/fonts"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.serif, toPath: f.folder.appendingPathComponent("media/fonts/brand.ttf").path)
        try Data([0x89, 0x50, 0x4E, 0x47, 0, 1, 2, 3]).write(to: f.folder.appendingPathComponent("media/fonts/not-a-font.ttf"))
        f.template = "<style>\(css) #card { font: 28px Brand; height: 60px }</style><div id=\"card\">\(text)</div>"
        return f
    }

    static func ink(_ image: RGBAImage) -> Int {
        var n = 0
        for y in 0..<image.height { for x in 0..<image.width where image.pixel(x: x, y: y).r < 80 { n += 1 } }
        return n
    }

    @Test func aTemplatesFontIsDrawnAndLinked() throws {
        guard FileManager.default.fileExists(atPath: Self.serif) else {
            Issue.record("\(Self.serif) is missing (fonts-noto-core: make deps installs it)")
            return
        }
        let loaded = try fixture(#"@font-face { font-family: "Brand"; src: url(media/fonts/brand.ttf) format("truetype"); }"#).render()
        let plain = try fixture("").render()
        let withFace = try ContentStageTests.view(loaded, "expanded"), without = try ContentStageTests.view(plain, "expanded")
        #expect(!withFace.warnings.contains { $0.contains("font-family") || $0.contains("@font-face") }, "\(withFace.warnings)")
        #expect(without.warnings.contains { $0.contains("font-family Brand") }, "\(without.warnings)")
        // The serif face draws other shapes than Inter: the same words leave other ink.
        let a = try ContentStageTests.png(withFace), b = try ContentStageTests.png(without)
        #expect(Self.ink(a) != Self.ink(b))

        // The page links a copy of the file beside the gallery, and Chromium loads it from there.
        let page = try #require(withFace.outputs.first { $0.hasSuffix(".html") })
        let html = try String(contentsOfFile: page, encoding: .utf8)
        let link = try #require(html.firstMatch(of: /url\("\.\.\/(media\/[0-9a-f]+\.ttf)"\)/)?.1)
        let copy = URL(fileURLWithPath: page).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(String(link))
        #expect(FileManager.default.contents(atPath: copy.path) == FileManager.default.contents(atPath: Self.serif))
        guard let seen = try EscapeTests().openInChromium([page])?.first else { return }
        #expect(seen.fonts.contains("Brand"), "\(seen.fonts)")
    }

    @Test(arguments: [
        (#"@font-face { font-family: Brand; src: url(../outside.ttf) }"#, "removed a url() that is not"),
        (#"@font-face { font-family: Brand; src: url(media/fonts/not-a-font.ttf) }"#, "is not a font file fontconfig can read"),
        (#"@font-face { font-family: Brand; src: url(media/fonts/missing.ttf) }"#, "is not a file inside the media roots"),
        (#"@font-face { src: url(media/fonts/brand.ttf) }"#, "@font-face needs a font-family"),
        (#"@font-face { font-family: Brand; src: local(Brand) }"#, "@font-face needs a font-family and a src with a url()"),
        (#"@font-face { font-family: Brand; src: url(media/fonts/brand.ttf); font-weight: 700 }"#, "@font-face font-weight is not supported"),
    ])
    func badFacesAreWarnedWithTheirLine(_ css: String, _ message: String) throws {
        let results = try fixture(css).render()
        let expanded = try ContentStageTests.view(results, "expanded")
        #expect(expanded.errors.isEmpty)
        #expect(expanded.warnings.contains { $0.contains(message) && $0.contains("card.html:1") }, "\(expanded.warnings)")
    }
}
