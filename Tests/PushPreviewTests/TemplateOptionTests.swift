import Foundation
import Testing
import Layout
import PushPreview

/// `--template FILE`: a custom view drawn inside the notification, sanitized and styled as its
/// own file; hostile and broken templates render or fail with a message naming the file.
struct TemplateOptionTests {
    func render(_ template: String, name: String = "view.html") throws -> MockupResult {
        let folder = temporaryFolder()
        let file = folder.appendingPathComponent(name)
        try Data(template.utf8).write(to: file)
        var options = RenderOptions()
        options.outputFolder = folder.appendingPathComponent("Output")
        options.template = file
        options.layoutJSON = true
        return try #require(try makeRenderer().render(payloadFile: examples.appendingPathComponent("payloads/plain-alert.apns"),
                                                        project: try Project(folder: examples), options: options).first)
    }

    @Test func customViewIsLaidOutInsideTheCard() throws {
        let r = try render(#"<style>.v { height: 120px; background: #e76f51 }</style><div class="v" id="v">{{title}}</div>"#)
        #expect(r.errors.isEmpty, "\(r.errors)")
        let boxes = try JSONDecoder().decode([LaidOutBox].self, from: Data(contentsOf: URL(fileURLWithPath: r.outputs.first { $0.hasSuffix(".layout.json") }!)))
        let view = try #require(boxes.first { $0.id == "v" })
        let card = try #require(boxes.first { $0.id == "notification" })
        #expect(view.height == 120 && view.y >= card.y && view.y + view.height < card.y + card.height)
        let html = try String(contentsOfFile: r.outputs.first { $0.hasSuffix(".html") }!, encoding: .utf8)
        #expect(html.contains("Ferry departs in 10 minutes</div>") && html.contains(".v { height: 120px"))
    }

    /// iOS caps a content extension's view at 320 pt on iPhone and 352 pt on iPad.
    @Test func customViewHeightIsCappedPerDevice() throws {
        let folder = temporaryFolder()
        let file = folder.appendingPathComponent("tall.html")
        try Data(#"<div id="tall" style="height: 600px; background: linear-gradient(#e63946, #457b9d)"></div>"#.utf8).write(to: file)
        var options = RenderOptions()
        options.outputFolder = folder.appendingPathComponent("Output")
        options.template = file
        options.devices = ["iphone-17", "ipad-pro-11"]
        options.layoutJSON = true
        let results = try makeRenderer().render(payloadFile: examples.appendingPathComponent("payloads/plain-alert.apns"),
                                                project: try Project(folder: examples), options: options)
        let phone = try #require(results.first { $0.device == "iphone-17" }?.content)
        let pad = try #require(results.first { $0.device == "ipad-pro-11" }?.content)
        #expect(phone.customViewHeight == 320 && phone.clippedBy == 280)
        #expect(pad.customViewHeight == 352 && pad.clippedBy == 248)
        #expect(results[0].warnings.contains { $0.contains("tall.html is 600 pt tall") && $0.contains("clips 280 pt") })
        let json = String(decoding: try JSONEncoder().encode(results[0]), as: UTF8.self)
        #expect(json.contains(#""content":{"#) && json.contains(#""clippedBy":280"#))

        // A view within the cap is reported unclipped.
        try Data(#"<div style="height: 100px"></div>"#.utf8).write(to: file)
        let short = try #require(try makeRenderer().render(payloadFile: examples.appendingPathComponent("payloads/plain-alert.apns"),
                                                           project: try Project(folder: examples), options: options).first?.content)
        #expect(short.customViewHeight == 100 && short.clippedBy == 0)
    }

    @Test func hostileTemplateRendersWithWarningsNamingItsLines() throws {
        let r = try render("""
        <div onclick="x()">hello</div>
        <script>alert(1)</script>
        <style>.a { color: red; unknown-thing: 4px } .b { background: url(http://evil.example/a.png) }</style>
        <img src="http://evil.example/pixel.gif">
        <div style="vertical-align: middle">aligned</div>
        """, name: "hostile.html")
        #expect(r.errors.isEmpty && r.outputs.count == 3, "\(r.errors)")
        let w = r.warnings.joined(separator: "\n")
        #expect(w.contains("hostile.html:1: removed event handler onclick"))
        #expect(w.contains("hostile.html:2: removed <script>"))
        #expect(w.contains("hostile.html:3") && w.contains("unknown-thing"))
        #expect(w.contains("hostile.html:4: removed src="))
        #expect(w.contains("hostile.html:5: CSS vertical-align"))
        let html = try String(contentsOfFile: r.outputs.first { $0.hasSuffix(".html") }!, encoding: .utf8)
        #expect(!html.contains("evil.example") && !html.contains("<script") && !html.contains("onclick"))
    }

    @Test func templateImagesComeFromMediaOrDataOnly() throws {
        let tiny = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
        let r = try render("""
        <img id="icon" src="media/AppIcon.png" style="width: 40px; height: 40px">
        <img id="dot" src="\(tiny)" style="width: 10px; height: 10px">
        <img id="gone" src="media/nope.png" style="width: 10px; height: 10px">
        <img id="escape" src="../../etc/hosts" style="width: 10px; height: 10px">
        """)
        #expect(r.errors.isEmpty, "\(r.errors)")
        let page = try #require(r.outputs.first { $0.hasSuffix(".html") })
        #expect(imageFile(ofPage: page, id: "icon").map { FileManager.default.fileExists(atPath: $0.path) } == true)
        #expect(r.warnings.contains { $0.contains("image media/nope.png") })
        #expect(r.warnings.contains { $0.contains("../../etc/hosts") }, "\(r.warnings)")
        #expect(!r.warnings.contains { $0.contains("image data:") })
    }

    @Test func brokenMustacheAndMissingFilesFailThatMockupOnly() throws {
        let broken = try render("<div>{{#items}}never closed</div>", name: "broken.html")
        #expect(broken.errors.first?.contains("broken.html:1") == true, "\(broken.errors)")
        var options = RenderOptions()
        options.outputFolder = temporaryFolder()
        options.template = URL(fileURLWithPath: "/nonexistent/view.html")
        let missing = try makeRenderer().render(payloadFile: examples.appendingPathComponent("payloads/plain-alert.apns"),
                                                project: try Project(folder: examples), options: options)
        #expect(missing.first?.errors.first?.contains("/nonexistent/view.html") == true)
    }
}
