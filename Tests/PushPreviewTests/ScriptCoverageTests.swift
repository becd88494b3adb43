import Foundation
import Imaging
import Layout
import Testing
import PushPreview

/// One sentence in each script a notification may carry: every one drawn (ink inside its box),
/// none with a missing glyph.
struct ScriptCoverageTests {
    static let sentences: [(id: String, text: String)] = [
        ("latin", "Ṩ̃ẫ̌ṕ̣ Z̤͂a̸̛l̨g͓o ferry déjà vu"), ("greek", "Το πλοίο αναχωρεί"), ("cyrillic", "Паром отправляется"),
        ("arabic", "تغادر العبارة الآن"), ("hebrew", "המעבורת יוצאת עכשיו"), ("devanagari", "नौका अब रवाना होती है"),
        ("bengali", "ফেরি এখন ছাড়ছে"), ("thai", "เรือข้ามฟากออกเดินทางแล้ว"), ("hans", "渡轮现在出发"), ("hant", "渡輪現在出發"),
        ("japanese", "フェリーがまもなく出発します"), ("korean", "페리가 지금 출발합니다"), ("emoji", "⛴️🌅👩🏽‍✈️"),
    ]

    @Test func everyScriptIsDrawn() throws {
        var f = ContentStageTests.Fixture()
        f.template = Self.sentences.map { #"<p id="\#($0.id)" style="margin: 4px 0; font-size: 17px; line-height: 24px; color: #000">\#($0.text)</p>"# }.joined()
        // Drawn whole (--show-limits), so that no sentence sits under the 320 pt cap.
        let results = try f.render { $0.appearances = [.light]; $0.showLimits = true }
        let expanded = try #require(results.first { $0.view == "expanded-limits" })
        #expect(expanded.errors.isEmpty && !expanded.warnings.contains { $0.contains("glyph") }, "\(expanded.warnings)")
        let png = try ContentStageTests.png(expanded)
        let boxes = try ContentStageTests.boxes(expanded)
        for (id, _) in Self.sentences {
            let box = try #require(boxes.first { $0.id == id }, "\(id)")
            var ink = 0
            for y in Int(box.y * 3)..<Int((box.y + box.height) * 3) where y < png.height {
                for x in Int(box.x * 3)..<min(png.width, Int((box.x + box.width) * 3)) {
                    let p = png.pixel(x: x, y: y)
                    if Int(p.r) + Int(p.g) + Int(p.b) < 300 || (id == "emoji" && (Int(p.r) - Int(p.b)).magnitude > 60) { ink += 1 }
                }
            }
            #expect(ink > 150, "\(id): \(ink) inked pixels")
        }
    }

    /// A character no font has is counted, warned about and drawn as a box, as a browser draws it.
    @Test func missingGlyphsAreDrawnAsBoxes() throws {
        var f = ContentStageTests.Fixture()
        f.template = #"<p id="unknown" style="font-size: 30px; color: #000">&#x10FFFD;&#xE000;</p>"#
        let results = try f.render { $0.appearances = [.light] }
        let expanded = try #require(results.first { $0.view == "expanded" })
        #expect(expanded.warnings.contains { $0.contains("no glyph") }, "\(expanded.warnings)")
        let box = try #require(try ContentStageTests.boxes(expanded).first { $0.id == "unknown" })
        let png = try ContentStageTests.png(expanded)
        var ink = 0
        for y in Int(box.y * 3)..<Int((box.y + box.height) * 3) { for x in Int(box.x * 3)..<Int((box.x + 80) * 3) where png.pixel(x: x, y: y).r < 128 { ink += 1 } }
        #expect(ink > 100, "the box for a missing glyph is not drawn: \(ink)")
    }

    /// In a right-to-left locale the whole notification is mirrored, as iOS mirrors it: the icon
    /// on the right, the time on the left, text aligned right, and the page says dir="rtl".
    @Test func rightToLeftLocalesAreMirrored() throws {
        var f = ContentStageTests.Fixture()
        f.payload = #"{"aps": {"alert": {"title-loc-key": "T", "loc-key": "B"}, "category": "card"}}"#
        let project = try f.write()
        let dir = project.folder.appendingPathComponent("ar.lproj")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try Data("\"T\" = \"العبارة تغادر\";\n\"B\" = \"تغادر العبارة من الرصيف ٣\";\n".utf8).write(to: dir.appendingPathComponent("Localizable.strings"))
        var options = RenderOptions()
        options.locales = ["ar"]
        options.layoutJSON = true
        options.outputFolder = project.folder.appendingPathComponent("Output")
        let results = try makeRenderer().render(payloadFile: project.folder.appendingPathComponent("payloads/p.apns"), project: project, options: options)
        for view in ["banner", "expanded"] {
            let r = try #require(results.first { $0.view == view })
            let boxes = try ContentStageTests.boxes(r)
            func box(_ id: String) throws -> LaidOutBox { try #require(boxes.first { $0.id == id }, "\(view): #\(id)") }
            let icon = try box("app-icon"), time = try box("time"), card = try box("notification")
            #expect(icon.x > card.x + card.width / 2 && time.x < card.x + card.width / 2, "\(view): icon at \(icon.x), time at \(time.x)")
            let page = try String(contentsOfFile: try #require(r.outputs.first { $0.hasSuffix(".html") }), encoding: .utf8)
            #expect(page.contains(#"dir="rtl""#) && page.contains("unicode-bidi: plaintext"))
            #expect(!r.warnings.contains { $0.contains("not supported") }, "\(r.warnings)")
        }
    }
}

