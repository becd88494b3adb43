import ContentStage
import Foundation
import Imaging
import Testing
import PushPreview

/// The triggers a mutation campaign found, each as it was found: every one used to trap, hang or
/// blow up memory in the renderer. Now each renders (or fails alone with a message), in this
/// process, so a regression crashes the test run itself.
struct HostileInputTests {
    typealias Fixture = ContentStageTests.Fixture

    func render(template: String, payload: String? = nil) throws -> [MockupResult] {
        var f = Fixture()
        f.template = template
        if let payload { f.payload = payload }
        return try f.render()
    }

    func expectDrawn(_ results: [MockupResult], _ comment: Comment? = nil) {
        #expect(!results.isEmpty)
        for r in results {
            #expect(r.errors.isEmpty, "\(r.view): \(r.errors)")
            #expect(r.outputs.contains { $0.hasSuffix(".png") }, comment)
        }
    }

    /// Lengths that are not finite or not representable: ignored (invalid) or saturated as Blink's
    /// layout units saturate, never a trap in a Double → Int conversion.
    @Test(arguments: [
        "width: infpx", "height: nanpx", "margin-left: -1e30px", "line-height: 1e30", "letter-spacing: 3e6px",
        "box-shadow: 0 0 10000px red", "border: 1e9px solid red", "gap: infpx", "gap: 1e30px", "padding: 1e308px",
        "font-size: 1e9px", "border-radius: 1e300px", "color: #ｆｆ0000", "flex: 1e308 1e308 0", "-webkit-line-clamp: 99999999999999999999",
    ])
    func extremeCSSValues(_ declaration: String) throws {
        let results = try render(template: #"<div style="display: flex; \#(declaration)"><p style="\#(declaration)">Harbor</p><span>x</span></div>"#)
        expectDrawn(results, "\(declaration)")
    }

    /// The commonest typo: a rule or at-rule left open. CSS closes it at the end of the sheet, so
    /// the rule still applies, and we say so.
    @Test func openRulesApplyWithAWarning() throws {
        for css in ["#card { background: #e76f51", "@media (prefers-color-scheme: dark) { #card { color: red }", "@media screen", "#card { color: red; } /* open"] {
            let results = try render(template: #"<style>\#(css)</style><div id="card" style="height: 40px">Ferry</div>"#)
            expectDrawn(results, "\(css)")
        }
        let results = try render(template: "<style>#card { background: #e76f51</style><div id=\"card\" style=\"height: 40px\"></div>")
        let expanded = try #require(results.first { $0.view == "expanded" })
        #expect(expanded.warnings.contains { $0.contains("never closed") }, "\(expanded.warnings)")
        let png = try ContentStageTests.png(expanded)
        // The custom view's box is orange: the open rule applied.
        let orange = (0..<png.height).contains { y in let p = png.pixel(x: png.width / 2, y: y); return p.r > 200 && p.g < 140 && p.b < 110 }
        #expect(orange)
    }

    @Test func svgPathsWithNonFiniteArcs() throws {
        let results = try render(template: #"<svg width="40" height="40" viewBox="0 0 40 40"><path d="M0 0 A0 0 0 1 1 1e308 1e308 A1e-320 1e308 0 0 0 nan 5 L inf 3 Z" fill="red"/></svg>"#)
        expectDrawn(results)
    }

    /// Flex columns 200 deep: each level used to lay its child out twice (to measure and to
    /// place), 2^200 layouts. Now each box is laid out once per set of constraints, and content
    /// past the 64th level is dropped with a warning.
    @Test func deeplyNestedFlexContainers() throws {
        for depth in [40, 200] {
            let html = String(repeating: #"<div style="display: flex; flex-direction: column">"#, count: depth) + "deep" + String(repeating: "</div>", count: depth)
            let results = try render(template: html)
            expectDrawn(results)
            #expect(results[0].warnings.contains { $0.contains("nest deeper than 64") } == (depth > 64), "\(results[0].warnings)")
        }
    }

    /// A 70 KB paragraph in a template is laid out to its first 5,000 characters, with a warning.
    @Test func hugeParagraphIsCutWithAWarning() throws {
        let text = String(repeating: "Ferry departs ", count: 5_000)
        let results = try render(template: "<p style=\"-webkit-line-clamp: 2\">\(text)</p><p>\(text)</p>")
        expectDrawn(results)
        #expect(results.contains { $0.warnings.contains { $0.contains("5000 characters") } })
    }

    /// Mustache that multiplies: sections 30,000 deep, and one list section nested 25 deep
    /// (3^25 iterations). Both stop with an error naming the template; nothing else is lost.
    @Test func mustacheBudgets() throws {
        let deep = String(repeating: "{{#a}}", count: 30_000) + String(repeating: "{{/a}}", count: 30_000)
        let nested = String(repeating: "{{#actions}}", count: 25) + "x" + String(repeating: "{{/actions}}", count: 25)
        for template in [deep, nested] {
            var f = Fixture()
            f.template = template
            f.categories = #"{"categories": [{"identifier": "card", "actions": [{"identifier": "a", "title": "A"}, {"identifier": "b", "title": "B"}, {"identifier": "c", "title": "C"}]}]}"#
            let results = try f.render()
            let expanded = try #require(results.first { $0.view == "expanded" })
            #expect(expanded.errors.contains { $0.contains("card.html") && ($0.contains("nest deeper") || $0.contains("expands past")) }, "\(expanded.errors)")
            // The banner has no custom view: it is still drawn.
            #expect(results.first { $0.view == "banner" }?.errors == [])
        }
    }

    /// An animated GIF drawn 10,000 pt wide is resampled only to the device pixels the page has.
    @Test func hugeImageIsResampledToThePage() throws {
        var f = Fixture()
        f.template = #"<img src="media/anim.gif" style="width: 10000px; height: 10000px">"#
        let frames = (0..<3).map { i in GIFCodec.Frame(indices: [UInt8](repeating: UInt8(i), count: 64 * 64), left: 0, top: 0, width: 64, height: 64) }
        let gif = try GIFCodec.encode(width: 64, height: 64, palette: [255, 0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0], frames: frames)
        try FileManager.default.createDirectory(at: f.folder.appendingPathComponent("media"), withIntermediateDirectories: true)
        try Data(gif).write(to: f.folder.appendingPathComponent("media/anim.gif"))
        expectDrawn(try f.render())
    }

    /// Numbers out of any range in the payload: a badge of 1e300 and a thumbnail time of 1e300.
    @Test func hugePayloadNumbers() throws {
        var f = Fixture()
        let frames = [GIFCodec.Frame(indices: [UInt8](repeating: 0, count: 16), left: 0, top: 0, width: 4, height: 4)]
        try FileManager.default.createDirectory(at: f.folder.appendingPathComponent("media"), withIntermediateDirectories: true)
        try Data(GIFCodec.encode(width: 4, height: 4, palette: [0, 0, 255, 0, 0, 0], frames: frames)).write(to: f.folder.appendingPathComponent("media/a.gif"))
        f.payload = #"{"aps": {"alert": {"title": "T", "body": "B"}, "badge": 1e300, "mutable-content": 1, "category": "card"}, "image-url": "media/a.gif", "attachment-options": {"thumbnail-time": 1e300}}"#
        let results = try f.render()
        #expect(results.allSatisfy { !$0.outputs.isEmpty }, "\(results.map(\.errors))")
        #expect(results[0].warnings.contains { $0.contains("badge") }, "\(results[0].warnings)")
    }
}
