import Foundation
import Imaging
import Testing
import PushPreview

/// A category template's CSS styles its own view and nothing else: rules for `*`, `body`, `div`,
/// `header` and the chrome's own class names leave the system chrome exactly as it was, in the
/// PNG and in the HTML page, whose style sheet carries the same scoped rules.
struct TemplateScopeTests {
    static let hostile = """
    <style>
      * { background-color: #ff0000; color: #ff0000; font-size: 40px; letter-spacing: 9px }
      body, html { background-color: #ff0000 }
      div { padding: 30px; border: 3px solid #ff0000 }
      header, .header, .notification, #notification, .app-name, .content, .title, .actions, .action, .screen { background-color: #ff0000; margin: 50px; display: none }
    </style>
    """

    func render(_ style: String) throws -> (boxes: [String: (x: Double, y: Double, w: Double, h: Double)], expanded: MockupResult, png: RGBAImage) {
        var f = ContentStageTests.Fixture()
        f.template = style + #"<div id="card" style="height: 40px"></div>"#
        let results = try f.render()
        let expanded = try #require(results.first { $0.view == "expanded" })
        var boxes: [String: (Double, Double, Double, Double)] = [:]
        for b in try ContentStageTests.boxes(expanded) { if let id = b.id { boxes[id] = (b.x, b.y, b.width, b.height) } }
        return (boxes, expanded, try ContentStageTests.png(expanded))
    }

    @Test func templateRulesStayInTheCustomView() throws {
        let plain = try render(""), hostile = try render(Self.hostile)
        // The chrome below the custom view is the same box for box and pixel for pixel, moved
        // down only by how much taller the hostile view is.
        let dy = try #require(hostile.boxes["row"]).y - (try #require(plain.boxes["row"])).y
        for id in ["notification", "row", "app-icon", "title", "time", "body"] {
            let a = try #require(plain.boxes[id], "\(id)"), b = try #require(hostile.boxes[id], "\(id)")
            // The notification grows with its custom view; nothing else about it changes.
            let y = id == "notification" ? a.y : a.y + dy
            #expect(a.x == b.x && y == b.y && a.w == b.w && (a.h == b.h || id == "notification"), "\(id): \(a) became \(b)")
        }
        let row = try #require(plain.boxes["row"])
        for y in stride(from: Int(row.y * 3), to: Int((row.y + row.h) * 3), by: 3) {
            for x in stride(from: 0, to: plain.png.width, by: 5) where plain.png.pixel(x: x, y: y) != hostile.png.pixel(x: x, y: y + Int(dy * 3)) {
                Issue.record("the chrome changed at \(x),\(y)"); return
            }
        }
        // Inside its own view the template's rules still apply: the card is red and padded.
        let card = try #require(hostile.boxes["card"]), plainCard = try #require(plain.boxes["card"])
        #expect(card.h == plainCard.h + 66, "\(card.h)")
        let p = hostile.png.pixel(x: Int((card.x + card.w / 2) * 3), y: Int((card.y + card.h / 2) * 3))
        #expect(p.r > 240 && p.g < 20, "\(p)")
        // The page the browser opens is scoped the same way.
        let page = try String(contentsOfFile: try #require(hostile.expanded.outputs.first { $0.hasSuffix(".html") }), encoding: .utf8)
        #expect(page.contains("#custom-view *") && page.contains("#custom-view .notification") && !page.contains("\n* {"), "unscoped rules in the page")
    }
}
