import Foundation
import Imaging
import Layout
import PushPreview
import Testing

/// Push SDKs' own content views drawn from their payload keys by the stock copies
/// (Templates/stock/clevertap.html, braze-push-story.html), in the sizes their sources give.
struct SDKContentViewRenderTests {
    /// Solid 16:9 and 2:1 pictures, so a pixel says which image a view shows.
    static let red = try! PNGCodec.encode(RGBAImage(width: 160, height: 90, filledWith: (220, 30, 40, 255)))
    static let green = try! PNGCodec.encode(RGBAImage(width: 200, height: 100, filledWith: (30, 160, 60, 255)))
    static let blue = try! PNGCodec.encode(RGBAImage(width: 200, height: 100, filledWith: (30, 60, 200, 255)))

    func fixture(sdk: String, category: String, ratio: Double, payload: String) throws -> ContentStageTests.Fixture {
        var f = ContentStageTests.Fixture()
        f.attributes = ["UNNotificationExtensionCategory": category, "UNNotificationExtensionInitialContentSizeRatio": ratio,
                        "UNNotificationExtensionDefaultContentHidden": true]
        f.template = "{{> stock/\(sdk == "braze" ? "braze-push-story" : "clevertap")}}"
        f.categories = #"{"categories": [{"identifier": "\#(category)", "template": "card"}]}"#
        f.settings = #"{"appName": "Shop", "mediaRoots": ["media"], "sdks": ["\#(sdk)"]}"#
        f.payload = payload
        try FileManager.default.createDirectory(at: f.folder.appendingPathComponent("media"), withIntermediateDirectories: true)
        for (name, bytes) in [("red.png", Self.red), ("green.png", Self.green), ("blue.png", Self.blue)] {
            try Data(bytes).write(to: f.folder.appendingPathComponent("media/\(name)"))
        }
        return f
    }

    func cleverTap(_ custom: String, appearance: String = "light") throws -> (MockupResult, [LaidOutBox], RGBAImage) {
        let f = try fixture(sdk: "clevertap", category: "CTNotification", ratio: 0.1, payload:
            #"{"aps": {"alert": {"title": "Weekend picks", "body": "Three deals"}, "category": "CTNotification"}, \#(custom)}"#)
        let expanded = try ContentStageTests.view(try f.render { $0.devices = ["iphone-17"]; $0.appearances = [appearance == "dark" ? .dark : .light] }, "expanded")
        return (expanded, try ContentStageTests.boxes(expanded), try ContentStageTests.png(expanded))
    }

    func box(_ id: String, _ boxes: [LaidOutBox]) throws -> LaidOutBox { try #require(boxes.first { $0.id == id }, "no #\(id)") }

    /// The view is the 16:9 image and the 56 pt caption block (CTCarouselController.swift:281-291),
    /// the first slide aspect fit on pt_bg, dots for three slides, the manual carousel's arrows.
    @Test func cleverTapsManualCarousel() throws {
        let (result, boxes, png) = try cleverTap(##""pt_id": "pt_manual_carousel", "pt_img1": "media/red.png", "pt_img2": "media/green.png", "pt_img3": "media/blue.png", "pt_bg": "#FFF7E8", "pt_title": "Deals""##)
        let view = try box("clevertap", boxes), image = try box("ct-image", boxes)
        #expect(abs(view.height - (view.width * 0.5625 + 56)) < 0.6 && result.content?.customViewHeight == view.height, "\(view) \(String(describing: result.content))")
        #expect(abs(image.height - view.width * 0.5625) < 0.6)
        #expect(boxes.contains { $0.id == "ct-dots" } && boxes.contains { $0.id == "ct-next" } && boxes.contains { $0.id == "ct-previous" })
        #expect(boxes.filter { $0.classes.contains("ct-dot") }.count == 3)
        let s = 3.0, p = png.pixel(x: Int((image.x + image.width / 2) * s), y: Int((image.y + image.height / 3) * s))
        #expect(p.r > 200 && p.g < 60 && p.b < 60, "the first slide, pt_img1: \(p)")
        let caption = try box("ct-caption", boxes), under = png.pixel(x: Int((caption.x + caption.width - 4) * s), y: Int((caption.y + 2) * s))
        #expect(under.r == 0xFF && under.g == 0xF7 && under.b == 0xE8, "pt_bg behind the captions: \(under)")
        #expect(result.warnings.isEmpty, "\(result.warnings)")
    }

    @Test func anAutoCarouselHasNoArrowsAndOneImageNoDots() throws {
        let (_, boxes, _) = try cleverTap(#""pt_id": "pt_carousel", "pt_img1": "media/red.png""#)
        #expect(!boxes.contains { $0.id == "ct-next" } && !boxes.contains { $0.id == "ct-dots" } && boxes.contains { $0.id == "ct-image" })
    }

    /// Without an image the view is the caption block alone; a colour that is no hex colour is the default.
    @Test func captionsOnlyAndHostileColours() throws {
        let (result, boxes, png) = try cleverTap(#""pt_id": "pt_basic", "pt_bg": "red; background-image: url(x)", "pt_title_clr": "</style><p>""#)
        let view = try box("clevertap", boxes)
        #expect(view.height == 56 && !boxes.contains { $0.id == "ct-image" }, "\(view)")
        let p = png.pixel(x: Int((view.x + view.width - 4) * 3), y: Int((view.y + 4) * 3))
        #expect(p.r == 255 && p.g == 255 && p.b == 255, "CleverTap's default background: \(p)")
        #expect(result.warnings.isEmpty, "\(result.warnings)")
    }

    @Test func darkModeUsesTheDarkKeys() throws {
        let (_, boxes, png) = try cleverTap(##""pt_id": "pt_basic", "pt_bg": "#FFF7E8""##, appearance: "dark")
        let view = try box("clevertap", boxes)
        let p = png.pixel(x: Int((view.x + view.width - 4) * 3), y: Int((view.y + 4) * 3))
        #expect(p.r == 0x1C && p.g == 0x1C && p.b == 0x1E, "pt_bg_dark's default, not pt_bg: \(p)")
    }

    /// The content slider: a square image unless landscape, its first item's texts, no dots with showsPaging 0.
    @Test(arguments: [("portrait", 1), ("landscape", 0)])
    func cleverTapsContentSlider(_ orientation: String, _ paging: Int) throws {
        let slider = #"{\"orientation\": \"\#(orientation)\", \"showsPaging\": \#(paging), \"autoPlay\": 1, \"autoDismiss\": 1, \"type\": \"s\", \"items\": [{\"caption\": \"Linen\", \"subcaption\": \"From 29\", \"imageUrl\": \"media/red.png\", \"actionUrl\": \"\"}, {\"caption\": \"\", \"subcaption\": \"\", \"imageUrl\": \"media/blue.png\", \"actionUrl\": \"\"}]}"#
        let (result, boxes, _) = try cleverTap(#""ct_ContentSlider": "\#(slider)""#)
        let view = try box("clevertap", boxes), image = try box("ct-image", boxes)
        #expect(abs(image.height - view.width * (orientation == "landscape" ? 0.5625 : 1)) < 0.6 && abs(view.height - image.height - 56) < 0.6, "\(view) \(image)")
        #expect(boxes.contains { $0.id == "ct-dots" } == (paging == 1) && !boxes.contains { $0.id == "ct-next" })
        let page = try String(contentsOfFile: try #require(result.outputs.first { $0.hasSuffix(".html") }), encoding: .utf8)
        #expect(page.contains(">Linen<") && page.contains(">From 29<"), "the first item's texts")
        // A square slider is W + 56 tall: over iOS's 320 pt on an iPhone, as on the phone; said.
        #expect(result.warnings == (orientation == "landscape" ? [] : ["Templates/card.html: card.html is 418 pt tall; iOS shows 320 pt on iPhone 17 and clips 98 pt"]), "\(result.warnings)")
    }

    /// The story's height is the Info.plist ratio (the view never sets one); a page is 300/320 of
    /// the width with its 2:1 image, title and subtitle; the next page shows at the edge.
    @Test func brazesPushStory() throws {
        let f = try fixture(sdk: "braze", category: "ab_cat_push_story_v2", ratio: 0.65, payload: #"""
            {"aps": {"alert": {"title": "Your trip", "body": "Expand"}, "category": "ab_cat_push_story_v2", "mutable-content": 1},
             "ab": {"c": "c1", "c_items": [{"i": "media/green.png", "i_t": "png", "t": "The coast", "st": "Day 1", "t_j": "start"},
                                           {"i": "media/blue.png", "i_t": "png", "t": "The hills", "st": "Day 2"}]}}
            """#)
        let expanded = try ContentStageTests.view(try f.render { $0.devices = ["iphone-17"] }, "expanded")
        let boxes = try ContentStageTests.boxes(expanded), png = try ContentStageTests.png(expanded)
        let story = try box("push-story", boxes), page = try box("story-page", boxes), image = try box("story-image", boxes), next = try box("story-next", boxes)
        #expect(abs(story.height - (story.width * 0.65).rounded(toPlaces: 2)) < 0.6, "\(story)")
        #expect(abs(page.width - story.width * 0.9375) < 0.6 && abs(image.height - page.width / 2) < 0.6 && abs(page.height - (page.width / 2 + 55)) < 0.6, "\(page) \(image)")
        #expect(abs(next.x - (page.x + page.width + 4)) < 0.6 && next.x < story.x + story.width)
        let p = png.pixel(x: Int((image.x + image.width / 2) * 3), y: Int((image.y + image.height / 2) * 3))
        #expect(p.g > 140 && p.r < 60, "the first page's image: \(p)")
        let edge = png.pixel(x: Int((story.x + story.width - 2) * 3), y: Int((next.y + 20) * 3))
        #expect(edge.b > 180 && edge.r < 60, "the next page's image at the edge: \(edge)")
        #expect(expanded.warnings.isEmpty, "\(expanded.warnings)")
    }
}

private extension Double {
    func rounded(toPlaces n: Int) -> Double { let m = pow(10, Double(n)); return (self * m).rounded() / m }
}
