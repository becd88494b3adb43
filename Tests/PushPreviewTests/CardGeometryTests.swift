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
                // Each view's platter has its own inset (ios18/metrics.json): a banner's is the
                // profile's width, the long look's and a list's narrower on an iPhone.
                let chrome = try ChromeMetrics.load(templates: ChromeMetricsTests.templates)
                let inset = r.view.hasPrefix("expanded") || r.view == "reply" ? chrome["longLook.inset"]
                    : r.view.contains("lockscreen") || r.view.contains("notification-center") || r.view.contains("stack") ? chrome["list.inset"] : chrome["banner.inset"]
                let width = device.isPad ? device.notificationWidth : device.notificationWidth - 2 * (inset - chrome["banner.inset"])
                for id in ["notification", "reply"] {
                    guard let card = boxes.first(where: { $0.id == id }) else { continue }
                    let at = "\(r.payload) \(r.device) \(r.appearance) \(r.view) #\(id)"
                    // The reply bar spans the screen, above the keyboard.
                    let want = id == "reply" ? device.width : width
                    #expect(abs(card.width - want) < 0.01, "\(at): \(card.width) pt wide, want \(want)")
                    #expect(card.x >= 0 && card.x + card.width <= page.width + 0.01, "\(at): runs off the page")
                    #expect(abs(card.x - (page.width - card.width) / 2) < 0.01, "\(at): not centred (x \(card.x))")
                    checked += 1
                }
                // The action menu is the system's (250 pt), centred on the screen, 20 pt below the platter.
                if let menu = boxes.first(where: { $0.id == "actions" }), let card = boxes.first(where: { $0.id == "notification" }) {
                    #expect(menu.width == min(chrome["menu.width"], device.notificationWidth) && abs(menu.x + menu.width / 2 - page.width / 2) < 0.01,
                            "\(r.payload) \(r.view): menu at \(menu.x), \(menu.width) wide")
                    #expect(abs(menu.y - (card.y + card.height) - chrome["menu.gap"]) < 0.01, "\(r.payload) \(r.view): menu \(menu.y - card.y - card.height) pt below")
                }
                if r.view == "reply", let bar = boxes.first(where: { $0.id == "reply" }), let keyboard = boxes.first(where: { $0.id == "keyboard" }) {
                    #expect(abs(keyboard.y - (bar.y + bar.height)) < 0.01 && abs(keyboard.height - chrome["reply.keyboardHeight"]) < 0.01, "\(r.payload): the keyboard is not under the bar")
                }
                views.insert(r.view)
                // The last row of device pixels is wallpaper (the page height is rounded up to a whole
                // pixel): the row above it continued, iOS 26's wallpaper being a soft gradient. The
                // reply view ends in its keyboard.
                if r.view == "reply" { continue }
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

/// The row's measured insets (ios18/metrics.json) in both directions, on every device profile:
/// the icon 14 pt from the leading edge, the time 17 from the trailing edge, the text 12 after the
/// icon, at least 66 pt tall; a right-to-left locale swaps the sides.
struct RowInsetTests {
    @Test func insetsHoldBothWaysOnEveryDevice() throws {
        let chrome = try ChromeMetrics.load(templates: ChromeMetricsTests.templates)
        var p = CurrentIOSTests.Project()
        p.settings = #"{"appName": "Harbor", "appIcon": "media/icon.png", "locales": ["en", "ar"]}"#
        p.payloads["a"] = #"{"aps": {"alert": {"title": "Gale", "body": "Double your lines"}}}"#
        let devices = try DeviceProfile.catalog(templates: ChromeMetricsTests.templates).map(\.id)
        let results = try p.render("a") { $0.locales = ["en"]; $0.devices = devices } + (try p.render("a") { $0.locales = ["ar"]; $0.devices = devices })
        var checked = 0
        for r in results where r.view == "banner" {
            let card = try CurrentIOSTests.box(r, "notification"), icon = try CurrentIOSTests.box(r, "app-icon")
            let time = try CurrentIOSTests.box(r, "time"), text = try CurrentIOSTests.box(r, "text")
            let at = "\(r.device) \(r.locale ?? "en")"
            let (iconInset, timeInset, gap) = r.outputs.contains { $0.contains("-ar-") }
                ? (card.x + card.width - icon.x - icon.width, time.x - card.x, icon.x - text.x - text.width)
                : (icon.x - card.x, card.x + card.width - time.x - time.width, text.x - icon.x - icon.width)
            #expect(abs(iconInset - chrome["row.paddingLeading"]) < 0.01, "\(at): icon \(iconInset) from the leading edge")
            #expect(abs(timeInset - chrome["row.paddingTrailing"]) < 0.01, "\(at): time \(timeInset) from the trailing edge")
            #expect(abs(gap - chrome["text.gap"]) < 0.01, "\(at): text \(gap) after the icon")
            #expect(card.height >= chrome["row.minHeight"] - 0.01, "\(at): \(card.height) pt tall")
            checked += 1
        }
        #expect(checked == devices.count * 2)
    }
}
