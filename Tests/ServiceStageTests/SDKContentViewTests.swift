import Foundation
import Payload
import Testing
@testable import ServiceStage

/// What a push SDK's own content view reads, as its `contentView` in Templates/sdks says: its data
/// (CleverTap's `pt_json` string, else the payload), its layout key, and the images it downloads
/// itself — here from a real HTTP server on 127.0.0.1, without file extensions, as vendors serve them.
@Suite(.serialized)
struct SDKContentViewTests {
    let project = ScratchProject()
    let server: TestServer

    init() throws {
        for name in ["one", "two", "three"] { try project.write("served/\(name)", testJPEG) }
        try project.write("served/text", "not an image")
        server = try TestServer(serving: project.folder.appendingPathComponent("served"))
    }

    func settings(_ id: String) throws -> ServiceSettings {
        var s = ServiceSettings()
        s.sdks = [try #require(PushSDKTests.catalog.sdk(id))]
        s.allowedHosts = ["127.0.0.1:\(server.port)"]
        s.timeBudget = 10
        return s
    }

    func run(_ custom: String, sdk: String, mutable: Bool = true) throws -> DeliveredNotification {
        let aps = #""aps": {"alert": {"title": "Weekend picks", "body": "Three deals"}, "category": "CTNotification"\#(mutable ? #", "mutable-content": 1"# : "")}"#
        return try project.run("{\(aps), \(custom.replacingOccurrences(of: "BASE", with: "\(server.base)/files"))}", settings: try settings(sdk))
    }

    @Test func everySDKViewNamesItsTemplateAndSource() throws {
        let views = PushSDKTests.catalog.sdks.compactMap { sdk in sdk.contentView.map { (sdk.id, $0) } }
        #expect(views.map(\.0) == ["braze", "clevertap"])
        for (id, view) in views {
            #expect(view.source.contains("@") && view.source.contains(":"), "\(id)")
            #expect(FileManager.default.fileExists(atPath: repositoryRoot.appendingPathComponent("Templates/stock/\(view.template).html").path), "\(id): \(view.template)")
        }
    }

    @Test func cleverTapsCarouselDownloadsItsSlidesInOrder() throws {
        let note = try run(#""pt_id": "pt_manual_carousel", "pt_img1": "BASE/one", "pt_img2": "BASE/two", "pt_img3": "BASE/three""#, sdk: "clevertap")
        let view = try #require(note.contentView)
        #expect(view.sdk == "CleverTap" && view.template == "clevertap" && view.variants == ["pt_id": "pt_manual_carousel"])
        #expect(view.images.map(\.identifier) == ["pt_img1", "pt_img2", "pt_img3"] && view.images.allSatisfy { $0.uti == "public.jpeg" })
        let steps = note.trace.steps.filter { $0.step == "view" }
        #expect(steps.count == 3 && steps.allSatisfy { $0.outcome == "downloaded" && $0.message.contains("as CleverTap does (CleverTap/CTNotificationContent@") }, "\(steps)")
        // Read by the view, so not "looks like media but is not attached"; and none is an attachment the banner shows.
        #expect(note.trace.fallbacks.isEmpty && note.attachments.isEmpty, "\(note.trace.fallbacks)")
    }

    /// The content extension runs whether or not the service extension did.
    @Test func theViewReadsItsImagesWithoutTheServiceExtension() throws {
        let note = try run(#""pt_id": "pt_basic", "pt_big_img": "BASE/one""#, sdk: "clevertap", mutable: false)
        #expect(note.trace.steps.contains { $0.step == "service" && $0.outcome == "not run" })
        #expect(note.contentView?.images.map(\.identifier) == ["pt_big_img"])
    }

    @Test func ptJSONIsReadInPlaceOfTheFlatKeys() throws {
        let inner = #"{\"pt_title\": \"From the string\", \"pt_img1\": \"BASE/two\"}"#
        let note = try run(#""pt_id": "pt_carousel", "pt_title": "flat", "pt_img1": "BASE/one", "pt_json": "\#(inner)""#, sdk: "clevertap")
        let view = try #require(note.contentView)
        #expect(view.data.first { $0.key == "pt_title" }?.value == .string("From the string") && view.images.map(\.identifier) == ["pt_img1"])
        #expect(view.images.first.map { $0.path.hasSuffix("two") || $0.bytes == testJPEG } == true)
    }

    /// CleverTap's content slider: its JSON string is the view's data (before pt_json), its items' images in order.
    @Test func cleverTapsContentSlider() throws {
        let slider = #"{\"orientation\": \"landscape\", \"showsPaging\": 0, \"autoPlay\": 1, \"autoDismiss\": 1, \"type\": \"s\", \"items\": [{\"caption\": \"Linen\", \"subcaption\": \"29\", \"imageUrl\": \"BASE/two\", \"actionUrl\": \"\"}, {\"caption\": \"\", \"subcaption\": \"\", \"imageUrl\": \"BASE/three\", \"actionUrl\": \"\"}]}"#
        let note = try run(#""ct_ContentSlider": "\#(slider)", "pt_json": "{}", "pt_id": "pt_basic""#, sdk: "clevertap")
        let view = try #require(note.contentView)
        #expect(view.images.map(\.identifier) == ["items.0.imageUrl", "items.1.imageUrl"], "\(note.trace.steps)")
        #expect(view.variants == ["orientation": "landscape", "showsPaging": "0"], "\(view.variants)")
    }

    @Test func whatTheViewCannotHaveIsSaidAndLeftOut() throws {
        let note = try run(#""pt_id": "pt_carousel", "pt_img1": "BASE/missing", "pt_img2": "BASE/text", "pt_img3": "BASE/three", "pt_json": "{not json""#, sdk: "clevertap")
        let view = try #require(note.contentView)
        #expect(view.images.map(\.identifier) == ["pt_img3"], "\(note.trace.steps)")
        let said = note.trace.fallbacks.map(\.message)
        #expect(said.contains { $0.contains("view: failed: pt_json is not a JSON object in a string") }, "\(said)")
        #expect(said.contains { $0.contains("pt_img1: ") && $0.contains("the view leaves it out") }, "\(said)")
        #expect(said.contains { $0.contains("pt_img2: ") && $0.contains("the view leaves it out") }, "\(said)")
    }

    @Test func brazeStoryPagesEachDownloadTheirImage() throws {
        let note = try run(#""ab": {"c": "c1", "c_items": [{"i": "BASE/one", "i_t": "jpg", "t": "Coast"}, {"i": "BASE/two", "i_t": "jpg"}, {"t": "no image"}]}"#, sdk: "braze")
        let view = try #require(note.contentView)
        #expect(view.images.map(\.identifier) == ["ab.c_items.0.i", "ab.c_items.1.i"], "\(note.trace.steps)")
        #expect(note.trace.fallbacks.isEmpty, "\(note.trace.fallbacks)")
    }

    /// Hostile shapes: pages that are no list, a page list far longer than any story, a layout key
    /// that is no plain name, a data string that is an array.
    @Test func hostileShapesAreContained() throws {
        let wrong = try run(#""ab": {"c_items": {"i": "BASE/one"}}"#, sdk: "braze")
        #expect(wrong.contentView?.images.isEmpty == true)
        let pages = Array(repeating: #"{"i": "BASE/one"}"#, count: 60).joined(separator: ",")
        let long = try run(#""ab": {"c_items": [\#(pages)]}"#, sdk: "braze")
        #expect(long.contentView?.images.count == ContentViewStep.maxImages, "\(long.contentView?.images.count ?? -1)")
        #expect(long.trace.fallbacks.map(\.message).contains { $0.contains("names 60 images") }, "\(long.trace.fallbacks)")
        let odd = try run(#""pt_id": "pt_carousel\"><script>", "pt_json": "[1, 2]""#, sdk: "clevertap")
        #expect(odd.contentView?.variants.isEmpty == true && odd.contentView?.data.contains { $0.key == "pt_id" } == true)
    }

    @Test func withoutTheSDKNothingIsRead() throws {
        let note = try project.run(#"{"aps": {"alert": "Hi"}, "pt_id": "pt_carousel", "pt_img1": "media/x.jpg"}"#)
        #expect(note.contentView == nil)
    }
}
