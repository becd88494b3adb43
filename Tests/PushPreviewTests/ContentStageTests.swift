import ConfinedFiles
import ContentStage
import Foundation
import Imaging
import Layout
import PushPreview
import Testing

/// The content stage against real projects on disk: Info.plist (XML and binary), categories.json,
/// the per-category view settings, and what each draws.
struct ContentStageTests {
    /// A project folder with one payload of `category`, a template for it and an extension claiming it.
    struct Fixture {
        let folder = temporaryFolder("content")
        var attributes: [String: Any] = ["UNNotificationExtensionCategory": "card", "UNNotificationExtensionInitialContentSizeRatio": 1.0]
        var pointIdentifier = ContentExtension.pointIdentifier
        var binaryPlist = false
        var template = #"<div id="card" style="height: 100px; background: #2a9d8f"></div>"#
        var categories = #"{"categories": [{"identifier": "card", "actions": [{"identifier": "open", "title": "Open"}]}]}"#
        var settings = #"{"appName": "Harbor"}"#
        var payload = #"{"aps": {"alert": {"title": "Ferry", "body": "Departs in 10 minutes"}, "category": "card"}}"#

        func write() throws -> Project {
            let fm = FileManager.default
            try fm.createDirectory(at: folder.appendingPathComponent("payloads"), withIntermediateDirectories: true)
            try fm.createDirectory(at: folder.appendingPathComponent("Templates"), withIntermediateDirectories: true)
            let plist: [String: Any] = ["NSExtension": ["NSExtensionPointIdentifier": pointIdentifier, "NSExtensionAttributes": attributes]]
            try PropertyListSerialization.data(fromPropertyList: plist, format: binaryPlist ? .binary : .xml, options: 0)
                .write(to: folder.appendingPathComponent("Info.plist"))
            try Data(template.utf8).write(to: folder.appendingPathComponent("Templates/card.html"))
            try Data(categories.utf8).write(to: folder.appendingPathComponent("categories.json"))
            try Data(settings.utf8).write(to: folder.appendingPathComponent("pushpreview.json"))
            try Data(payload.utf8).write(to: folder.appendingPathComponent("payloads/p.apns"))
            return try Project(folder: folder)
        }

        func render(_ configure: (inout RenderOptions) -> Void = { _ in }) throws -> [MockupResult] {
            let project = try write()
            var options = RenderOptions()
            options.outputFolder = folder.appendingPathComponent("Output")
            options.layoutJSON = true
            configure(&options)
            return try makeRenderer().render(payloadFile: folder.appendingPathComponent("payloads/p.apns"), project: project, options: options)
        }
    }

    static func boxes(_ r: MockupResult) throws -> [LaidOutBox] {
        try JSONDecoder().decode([LaidOutBox].self, from: Data(contentsOf: URL(fileURLWithPath: try #require(r.outputs.first { $0.hasSuffix(".layout.json") }))))
    }
    static func png(_ r: MockupResult) throws -> RGBAImage {
        try PNGCodec.decode(sha(URL(fileURLWithPath: try #require(r.outputs.first { $0.hasSuffix(".png") }))))
    }
    static func view(_ results: [MockupResult], _ name: String) throws -> MockupResult {
        try #require(results.first { $0.view == name || ($0.view.hasPrefix(name + "-") && name != "banner") })
    }

    /// A view with no height of its own is width × InitialContentSizeRatio: the long look's 362 (402 − 2 × 20) × 0.5 = 181 on iPhone 17.
    @Test func viewWithoutHeightTakesTheRatio() throws {
        var f = Fixture()
        f.attributes["UNNotificationExtensionInitialContentSizeRatio"] = 0.5
        f.template = #"<div id="fill" style="position: absolute; left: 0; top: 0; right: 0; bottom: 0; background: #264653"></div>"#
        let expanded = try Self.view(try f.render(), "expanded")
        #expect(expanded.errors.isEmpty, "\(expanded.errors)")
        #expect(expanded.content?.customViewHeight == 181 && expanded.content?.clippedBy == 0)
        let fill = try #require(try Self.boxes(expanded).first { $0.id == "fill" })
        #expect(fill.width == 362 && fill.height == 181)
    }

    @Test func defaultContentHiddenAndTitleOverridden() throws {
        var f = Fixture()
        let shown = try Self.boxes(try Self.view(try f.render(), "expanded"))
        #expect(shown.contains { $0.id == "row" } && shown.contains { $0.id == "title" })

        // The view controller's title is the notification's title in the row below the custom view
        // (iOS 15 and later have no header); the banner keeps the notification's own.
        f.attributes["UNNotificationExtensionOverridesDefaultTitle"] = true
        f.settings = #"{"appName": "Harbor", "categories": {"card": {"title": "Boarding · {{title}}"}}}"#
        let overridden = try f.render()
        let html = try String(contentsOfFile: try #require(try Self.view(overridden, "expanded").outputs.first { $0.hasSuffix(".html") }), encoding: .utf8)
        #expect(html.contains(">Boarding · Ferry</div>"))
        let banner = try String(contentsOfFile: try #require(try Self.view(overridden, "banner").outputs.first { $0.hasSuffix(".html") }), encoding: .utf8)
        #expect(!banner.contains("Boarding · Ferry") && banner.contains(">Ferry</div>"))

        // With the default content hidden too, the title shows nowhere: said.
        f.attributes["UNNotificationExtensionDefaultContentHidden"] = true
        let expanded = try Self.view(try f.render(), "expanded")
        let hidden = try Self.boxes(expanded)
        #expect(!hidden.contains { $0.id == "row" || $0.id == "title" || $0.id == "body" })
        #expect(expanded.notes?.contains { $0.contains("OverridesDefaultTitle") && $0.contains("DefaultContentHidden") } == true, "\(expanded.notes ?? [])")

        // Overriding without a title setting keeps the app name and says why.
        f.settings = #"{"appName": "Harbor"}"#
        let plain = try Self.view(try f.render(), "expanded")
        #expect(plain.warnings.contains { $0.contains("OverridesDefaultTitle") })
    }

    /// Destructive actions are system red: #FF3B30 in light, #FF453A in dark.
    @Test(arguments: [("light", (255, 59, 48)), ("dark", (255, 69, 58))])
    func destructiveActionsAreSystemRed(_ appearance: String, _ red: (Int, Int, Int)) throws {
        var f = Fixture()
        f.categories = #"{"categories": [{"identifier": "card", "actions": [{"identifier": "keep", "title": "Keep"}, {"identifier": "del", "title": "Delete Everything", "options": ["destructive"]}]}]}"#
        let expanded = try Self.view(try f.render { $0.appearances = [appearance == "dark" ? .dark : .light] }, "expanded")
        let boxes = try Self.boxes(expanded), image = try Self.png(expanded)
        func colours(_ id: String) throws -> [(Int, Int, Int)] {
            let b = try #require(boxes.first { $0.id == id })
            var out: [(Int, Int, Int)] = []
            for y in Int(b.y * 3)..<Int((b.y + b.height) * 3) { for x in Int(b.x * 3)..<Int((b.x + b.width) * 3) {
                let p = image.pixel(x: x, y: y); out.append((Int(p.r), Int(p.g), Int(p.b)))
            } }
            return out
        }
        let near = { (c: (Int, Int, Int)) in abs(c.0 - red.0) <= 3 && abs(c.1 - red.1) <= 3 && abs(c.2 - red.2) <= 3 }
        #expect(try colours("action-1").filter(near).count > 50, "the destructive title is drawn in \(red)")
        #expect(try colours("action-0").filter(near).isEmpty, "a plain action is not red")
    }

    /// Up to 10 actions in the long-look; the banner's limited space shows the first 2.
    @Test func tenActionsExpandedTwoInTheBanner() throws {
        var f = Fixture()
        let actions = (0..<11).map { #"{"identifier": "a\#($0)", "title": "Action \#($0)"}"# }.joined(separator: ",")
        f.categories = #"{"categories": [{"identifier": "card", "actions": [\#(actions)]}]}"#
        let results = try f.render()
        let expanded = try Self.view(results, "expanded"), banner = try Self.view(results, "banner")
        let boxes = try Self.boxes(expanded)
        #expect((0..<10).allSatisfy { i in boxes.contains { $0.id == "action-\(i)" } } && !boxes.contains { $0.id == "action-10" })
        #expect(expanded.actions?.count == 10 && banner.actions?.map(\.identifier) == ["a0", "a1"])
        #expect(expanded.warnings.contains { $0.contains("11 actions; iOS shows the first 10") })
    }

    @Test func textInputActionGetsAReplyMockup() throws {
        var f = Fixture()
        f.categories = #"{"categories": [{"identifier": "card", "actions": [{"identifier": "r", "title": "Reply", "textInput": {"buttonTitle": "Post", "placeholder": "Say hi"}}]}]}"#
        let results = try f.render()
        let reply = try Self.view(results, "reply")
        let html = try String(contentsOfFile: try #require(reply.outputs.first { $0.hasSuffix(".html") }), encoding: .utf8)
        #expect(html.contains(">Say hi</div>") && html.contains(">Post</div>") && !html.contains("id=\"actions\""))
        #expect(reply.outputs.first { $0.hasSuffix(".png") }?.hasSuffix("iphone-17-light-reply.png") == true)
    }

    /// none draws nothing; default shows play while paused and pause while playing; overlay shows
    /// play while paused and hides while playing.
    @Test(arguments: [("none", false, nil), ("none", true, nil), ("default", false, "play"), ("default", true, "pause"),
                      ("overlay", false, "play"), ("overlay", true, nil)] as [(String, Bool, String?)])
    func playPauseButton(_ type: String, _ playing: Bool, _ glyph: String?) throws {
        var f = Fixture()
        f.settings = #"{"categories": {"card": {"mediaPlayPauseButtonType": "\#(type)", "mediaPlayPauseButtonFrame": [20, 30, 40, 40]}}}"#
        let expanded = try Self.view(try f.render { $0.mediaPlaying = playing }, "expanded")
        let boxes = try Self.boxes(expanded)
        let html = try String(contentsOfFile: try #require(expanded.outputs.first { $0.hasSuffix(".html") }), encoding: .utf8)
        if let glyph {
            let button = try #require(boxes.first { $0.id == "play-pause" })
            let view = try #require(boxes.first { $0.id == "custom-view" })
            #expect(button.x - view.x == 20 && button.y - view.y == 30 && button.width == 40)
            #expect(html.contains("play-pause-\(type)"))
            // The play glyph is one path; pause is two bars.
            #expect(html.contains(glyph == "play" ? "M7 4.5v15" : "<rect x=\"5.5\" y=\"4\""))
        } else {
            #expect(!boxes.contains { $0.id == "play-pause" })
        }
    }

    /// The banner thumbnail is the attachment cut to its clipping rect, then aspect-filled.
    @Test func bannerThumbnailHonoursTheClippingRect() throws {
        var f = Fixture()
        let media = f.folder.appendingPathComponent("media")
        try FileManager.default.createDirectory(at: media, withIntermediateDirectories: true)
        // Left half red, right half blue.
        var pixels: [UInt8] = []
        for _ in 0..<100 { for x in 0..<200 { pixels += x < 100 ? [255, 0, 0, 255] : [0, 0, 255, 255] } }
        let image = RGBAImage(width: 200, height: 100, pixels: pixels)
        try Data(try PNGCodec.encode(image)).write(to: media.appendingPathComponent("halves.png"))
        func thumbnail(_ options: String) throws -> RGBAImage? {
            f.payload = #"{"aps": {"alert": {"title": "T", "body": "B"}, "mutable-content": 1}, "image-url": "media/halves.png"\#(options)}"#
            let banner = try Self.view(try f.render(), "banner")
            guard let page = banner.outputs.first(where: { $0.hasSuffix(".html") }), let file = imageFile(ofPage: page, id: "thumbnail") else { return nil }
            #expect(banner.errors.isEmpty)
            return try PNGCodec.decode(sha(file))
        }
        let right = try #require(try thumbnail(#", "attachment-options": {"thumbnail-clipping-rect": {"X": 0.5, "Y": 0, "Width": 0.5, "Height": 1}}"#))
        #expect(right.width == 96 && right.pixel(x: 5, y: 48).b > 240 && right.pixel(x: 90, y: 48).b > 240)
        try? FileManager.default.removeItem(at: f.folder.appendingPathComponent("Output"))
        let whole = try #require(try thumbnail(""))
        #expect(whole.pixel(x: 5, y: 48).r > 240 && whole.pixel(x: 90, y: 48).b > 240)
        try? FileManager.default.removeItem(at: f.folder.appendingPathComponent("Output"))
        #expect(try thumbnail(#", "attachment-options": {"thumbnail-hidden": true}"#) == nil)
    }

    @Test func hiddenPreviewsShowThePlaceholder() throws {
        var f = Fixture()
        f.categories = #"{"categories": [{"identifier": "card", "hiddenPreviewsBodyPlaceholder": "%u new boarding pass", "options": ["hiddenPreviewsShowTitle"]}]}"#
        let banner = try Self.view(try f.render { $0.hiddenPreviews = true }, "banner-hidden")
        let html = try String(contentsOfFile: try #require(banner.outputs.first { $0.hasSuffix("-banner-hidden.html") }), encoding: .utf8)
        #expect(html.contains(">Ferry</div>") && html.contains(">1 new boarding pass</div>") && !html.contains("Departs in 10 minutes"))
    }

    @Test func binaryInfoPlistIsRead() throws {
        var f = Fixture()
        f.binaryPlist = true
        f.attributes["UNNotificationExtensionCategory"] = ["other", "card"]
        f.attributes["UNNotificationExtensionInitialContentSizeRatio"] = 0.25
        f.template = ""
        let project = try f.write()
        #expect(try Data(contentsOf: f.folder.appendingPathComponent("Info.plist")).prefix(6) == Data("bplist".utf8))
        #expect(project.content.extensions.first?.categories == ["other", "card"] && project.content.issues.isEmpty)
        let expanded = try Self.view(try f.render(), "expanded")
        #expect(expanded.content?.customViewHeight == 90.5) // the long look's 362 pt × 0.25
    }

    @Test func categoryClaimedTwiceIsAnError() throws {
        let f = Fixture()
        _ = try f.write()
        let second = f.folder.appendingPathComponent("Extensions/Second")
        try FileManager.default.createDirectory(at: second, withIntermediateDirectories: true)
        let plist: [String: Any] = ["NSExtension": ["NSExtensionPointIdentifier": ContentExtension.pointIdentifier,
                                                    "NSExtensionAttributes": ["UNNotificationExtensionCategory": ["card", "fresh"], "UNNotificationExtensionInitialContentSizeRatio": 1]]]
        try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0).write(to: second.appendingPathComponent("Info.plist"))
        let project = try Project(folder: f.folder)
        let issue = try #require(project.content.issues.first { $0.severity == .error })
        #expect(issue.file.hasSuffix("Extensions/Second/Info.plist") && issue.message.contains("\"card\" is already claimed by") && issue.message.contains(f.folder.lastPathComponent))
        #expect(project.content.contentExtension(for: "fresh")?.file.hasSuffix("Second/Info.plist") == true)
        #expect(project.content.contentExtension(for: "card")?.file == f.folder.appendingPathComponent("Info.plist").path)
    }

    /// The seeds' "com.apple.usernotifications.content" is a common mistake: a warning naming the key.
    @Test func seedsPointIdentifierIsFlagged() throws {
        var f = Fixture()
        f.pointIdentifier = "com.apple.usernotifications.content"
        let project = try f.write()
        let issue = try #require(project.content.issues.first)
        #expect(issue.severity == .warning && issue.keyPath == "NSExtension.NSExtensionPointIdentifier" && issue.message.contains("content-extension"))
    }

    @Test(arguments: [
        ("<plist><dict><key>NSExtension</key>", "not a property list"),
        // Entity expansion ("billion laughs") and external entities are refused, not expanded.
        ("<?xml version=\"1.0\"?><!DOCTYPE plist [<!ENTITY a0 \"lol\">" + (1...9).map { "<!ENTITY a\($0) \"" + String(repeating: "&a\($0 - 1);", count: 10) + "\">" }.joined()
         + "]><plist version=\"1.0\"><dict><key>NSExtension</key><string>&a9;</string></dict></plist>", "not a property list"),
        ("<?xml version=\"1.0\"?><!DOCTYPE plist [<!ENTITY x SYSTEM \"file:///etc/passwd\">]><plist version=\"1.0\"><dict><key>NSExtension</key><string>&x;</string></dict></plist>", "not a property list"),
        (#"<?xml version="1.0"?><plist version="1.0"><dict><key>NSExtension</key><dict><key>NSExtensionPointIdentifier</key><string>com.apple.usernotifications.content-extension</string><key>NSExtensionAttributes</key><dict><key>UNNotificationExtensionCategory</key><integer>7</integer></dict></dict></dict></plist>"#,
         "UNNotificationExtensionCategory: expected a string or an array of strings"),
        (#"<?xml version="1.0"?><plist version="1.0"><dict><key>NSExtension</key><dict><key>NSExtensionPointIdentifier</key><string>com.apple.usernotifications.content-extension</string><key>NSExtensionAttributes</key><dict><key>UNNotificationExtensionCategory</key><string>card</string></dict></dict></dict></plist>"#,
         "UNNotificationExtensionInitialContentSizeRatio: missing (required)"),
    ])
    func badInfoPlistsNameTheFileAndKey(_ text: String, _ expected: String) throws {
        let folder = temporaryFolder("plist")
        let file = folder.appendingPathComponent("Info.plist")
        try Data(text.utf8).write(to: file)
        let (_, issues) = ContentExtension.read(file, in: try ConfinedFolder(trusted: file.deletingLastPathComponent()))
        #expect(issues.contains { $0.description.hasPrefix(file.path) && $0.description.contains(expected) }, "\(issues)")
    }

    @Test(arguments: [
        ("{\"categories\": [", "1:17"),
        (#"{"categories": {}}"#, "categories: expected an array, got object"),
        (#"{"categories": [{"identifier": "a", "actions": [{"identifier": "x", "title": "X", "options": ["loud"]}]}]}"#, "categories[0].actions[0].options[0]: \"loud\" is not one of"),
        (#"{"categories": [{"identifier": "a", "actions": [{"identifier": "x", "title": "X"}]}, {"identifier": "b", "actions": [{"identifier": "x", "title": "Y"}]}]}"#, "categories[1].actions[0].identifier: \"x\" is also an action of \"a\" with a different title"),
        (#"{"categories": [{"identifier": 5}]}"#, "categories[0].identifier: expected a string, got number"),
    ])
    func badCategoriesNameTheFileAndPath(_ text: String, _ expected: String) throws {
        let folder = temporaryFolder("categories")
        let file = folder.appendingPathComponent("categories.json")
        try Data(text.utf8).write(to: file)
        let (_, issues) = NotificationCategory.read(file, in: try ConfinedFolder(trusted: file.deletingLastPathComponent()))
        #expect(issues.contains { $0.description.hasPrefix(file.path) && $0.description.contains(expected) }, "\(issues)")
    }

    @Test func unknownIconIsAPlaceholderAndAWarning() throws {
        var f = Fixture()
        f.categories = #"{"categories": [{"identifier": "card", "actions": [{"identifier": "x", "title": "X", "icon": {"system": "tortoise.fill"}}, {"identifier": "y", "title": "Y", "icon": {"system": "trash.fill"}}]}]}"#
        let expanded = try Self.view(try f.render(), "expanded")
        #expect(expanded.warnings.contains { $0.contains("no look-alike for the system image \"tortoise.fill\"") })
        #expect(!expanded.warnings.contains { $0.contains("trash.fill") })
    }
}
