import ContentStage
import Foundation
import Imaging
import Testing
import PushPreview

/// Every system view on every device profile, light and dark: each platter (the notification,
/// the actions, the reply row) lies inside the page, centred, exactly as wide as the profile says,
/// and the page ends in wallpaper, not a line of another colour.
struct CardGeometryTests {
    @Test func plattersAreTheProfileWidthAndCentred() throws {
        let project = try examplesCopy(payloads: ["crew-message.apns", "photo-tall.apns", "voice-note.apns", "image-jpeg.apns", "harbor-master.apns", "dinner-reservation.apns"])
        let renderer = try makeRenderer()
        let loaded = try Project(folder: project)
        let devices = try renderer.deviceProfiles(for: loaded)
        var options = RenderOptions()
        options.devices = devices.map(\.id)
        options.appearances = [.light, .dark]
        options.layoutJSON = true
        options.reviewVariants = true
        options.formats = ["png"]
        options.outputFolder = project.deletingLastPathComponent().appendingPathComponent("Output")
        var views: Set<String> = [], checked = 0
        for payload in loaded.payloadFiles {
            for r in renderer.render(payloadFile: payload, project: loaded, options: options) {
                #expect(r.errors.isEmpty, "\(r.payload) \(r.view): \(r.errors)")
                let device = try #require(devices.first { $0.id == r.device })
                let boxes = try ContentStageTests.boxes(r)
                let page = try #require(boxes.first { $0.tag == "body" })
                for id in ["notification", "reply"] {
                    guard let card = boxes.first(where: { $0.id == id }) else { continue }
                    let at = "\(r.payload) \(r.device) \(r.appearance) \(r.view) #\(id)"
                    #expect(abs(card.width - device.notificationWidth) < 0.01, "\(at): \(card.width) pt wide, the profile says \(device.notificationWidth)")
                    #expect(card.x >= 0 && card.x + card.width <= page.width + 0.01, "\(at): runs off the page")
                    #expect(abs(card.x - (page.width - card.width) / 2) < 0.01, "\(at): not centred (x \(card.x))")
                    checked += 1
                }
                // The action menu is the system's (250 pt), at the notification's leading edge.
                if let menu = boxes.first(where: { $0.id == "actions" }), let card = boxes.first(where: { $0.id == "notification" }) {
                    #expect(menu.width == min(250, device.notificationWidth) && abs(menu.x - card.x) < 0.01, "\(r.payload) \(r.view): menu at \(menu.x), \(menu.width) wide")
                }
                views.insert(r.view)
                // The last row of device pixels is wallpaper (the page height is rounded up to a whole
                // pixel): the row above it continued, iOS 26's wallpaper being a soft gradient.
                let png = try ContentStageTests.png(r)
                for x in [0, png.width / 2, png.width - 1] {
                    let above = png.pixel(x: x, y: png.height - 2), last = png.pixel(x: x, y: png.height - 1)
                    let step = max(abs(Int(above.r) - Int(last.r)), abs(Int(above.g) - Int(last.g)), abs(Int(above.b) - Int(last.b)))
                    #expect(step <= 2, "\(r.device) \(r.appearance) \(r.view): last row \(last) at x \(x), the wallpaper above it \(above)")
                }
            }
        }
        #expect(views.isSuperset(of: ["expanded", "banner", "reply", "expanded-limits", "expanded-playing", "banner-hidden"]), "\(views)")
        #expect(checked > 100)
    }

    /// A text-input action with no placeholder still shows a full-height field.
    @Test func replyFieldKeepsItsHeightWithoutAPlaceholder() throws {
        var f = ContentStageTests.Fixture()
        f.categories = #"{"categories": [{"identifier": "card", "actions": [{"identifier": "reply", "title": "Reply", "textInput": {"buttonTitle": "Send"}}]}]}"#
        let results = try f.render()
        let reply = try #require(results.first { $0.view == "reply" })
        let field = try #require(try ContentStageTests.boxes(reply).first { $0.id == "reply-field" })
        #expect(field.height >= 36, "the field collapsed to \(field.height) pt")
    }
}
