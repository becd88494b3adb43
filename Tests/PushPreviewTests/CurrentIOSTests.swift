import ConfinedFiles
import ContentStage
import Foundation
import Imaging
import Layout
import PushPreview
import Testing
import Typography

/// What iOS 17 and 18 draw (issue 14): communication notifications, interruption levels, thread
/// stacks, Dynamic Type, a mirrored Arabic notification and the Lock Screen, each on a project
/// written here and checked in the boxes, the pixels and the page.
struct CurrentIOSTests {
    /// A project with a solid blue app icon and a solid red and green avatar in media/.
    struct Project {
        let folder = temporaryFolder("ios")
        var settings = #"{"appName": "Harbor", "appIcon": "media/icon.png", "communication": {"senderName": "{{userInfo.from}}", "senderImage": "{{userInfo.face}}", "groupName": "{{userInfo.group}}", "groupImage": "{{userInfo.groupFace}}"}}"#
        var categories = #"{"categories": [{"identifier": "chat", "categorySummaryFormat": "SUMMARY", "actions": [{"identifier": "read", "title": "Mark as Read"}]}]}"#
        var payloads: [String: String] = [:]
        var files: [String: String] = [:]

        func write() throws -> PushPreview.Project {
            let fm = FileManager.default
            for dir in ["payloads", "media"] { try fm.createDirectory(at: folder.appendingPathComponent(dir), withIntermediateDirectories: true) }
            for (name, rgba) in [("icon", (0, 0, 255)), ("red", (255, 0, 0)), ("green", (0, 200, 0))] {
                let image = RGBAImage(width: 120, height: 120, filledWith: (UInt8(rgba.0), UInt8(rgba.1), UInt8(rgba.2), 255))
                try Data(try PNGCodec.encode(image)).write(to: folder.appendingPathComponent("media/\(name).png"))
            }
            try Data(settings.utf8).write(to: folder.appendingPathComponent("pushpreview.json"))
            try Data(categories.utf8).write(to: folder.appendingPathComponent("categories.json"))
            for (name, text) in payloads { try Data(text.utf8).write(to: folder.appendingPathComponent("payloads/\(name).apns")) }
            for (name, text) in files {
                let url = folder.appendingPathComponent(name)
                try fm.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(text.utf8).write(to: url)
            }
            return try PushPreview.Project(folder: folder)
        }

        func render(_ name: String, _ configure: (inout RenderOptions) -> Void = { _ in }) throws -> [MockupResult] {
            let project = try write()
            var options = RenderOptions()
            options.outputFolder = folder.appendingPathComponent("Output")
            options.layoutJSON = true
            configure(&options)
            return try makeRenderer().render(payloadFile: folder.appendingPathComponent("payloads/\(name).apns"), project: project, options: options)
        }
    }

    static func box(_ r: MockupResult, _ id: String) throws -> LaidOutBox {
        try #require(try ContentStageTests.boxes(r).first { $0.id == id }, "\(r.view) has no #\(id)")
    }
    static func page(_ r: MockupResult) throws -> String {
        try String(contentsOfFile: try #require(r.outputs.first { $0.hasSuffix(".html") }), encoding: .utf8)
    }
    /// The colour at the centre of a box, in device pixels.
    static func centre(_ png: RGBAImage, _ b: LaidOutBox, scale: Int = 3) -> (r: UInt8, g: UInt8, b: UInt8) {
        let p = png.pixel(x: Int((b.x + b.width / 2) * Double(scale)), y: Int((b.y + b.height / 2) * Double(scale)))
        return (p.r, p.g, p.b)
    }

    /// The sender's avatar where the app icon goes, the app icon badged at its bottom-trailing
    /// corner, the sender's name as the title: in the banner and the long-look.
    @Test func communicationAvatarAndBadge() throws {
        var p = Project()
        p.payloads["m"] = #"{"aps": {"alert": {"title": "New message", "body": "See you at the pier"}, "category": "chat", "mutable-content": 1}, "from": "Marta Kowalska", "face": "media/red.png"}"#
        let results = try p.render("m")
        for view in ["banner", "expanded"] {
            let r = try ContentStageTests.view(results, view)
            #expect(r.errors.isEmpty && r.warnings.isEmpty, "\(view): \(r.errors) \(r.warnings)")
            let png = try ContentStageTests.png(r)
            let avatar = try Self.box(r, "sender-avatar"), badge = try Self.box(r, "app-icon")
            // The long look's leading image is smaller than the banner's (ios18/metrics.json).
            let side = try ChromeMetrics.load(templates: ChromeMetricsTests.templates)[view == "expanded" ? "longLook.iconSize" : "icon.size"]
            #expect(avatar.width == side && avatar.height == side, "\(view): \(avatar.width)")
            let face = Self.centre(png, avatar)
            #expect(face.r > 240 && face.g < 20 && face.b < 20, "\(view): avatar \(face)")
            let icon = Self.centre(png, badge)
            #expect(icon.b > 240 && icon.r < 20, "\(view): badge \(icon)")
            // Badged at the avatar's bottom-trailing corner, overlapping it.
            #expect(badge.width < 20 && badge.x + badge.width > avatar.x + avatar.width && badge.y + badge.height > avatar.y + avatar.height
                    && badge.x < avatar.x + avatar.width && badge.y < avatar.y + avatar.height, "\(view): badge at \(badge)")
            // The avatar is a circle: its corner shows the platter, not red.
            let corner = png.pixel(x: Int(avatar.x * 3) + 2, y: Int(avatar.y * 3) + 2)
            #expect(!(corner.r > 200 && corner.g < 60), "\(view): square avatar")
            #expect(try Self.page(r).contains(">Marta Kowalska</div>"), "\(view): the sender is not the title")
        }
        let banner = try ContentStageTests.view(results, "banner")
        #expect(banner.service.steps.contains { $0.step == "communicate" && $0.outcome == "donated" })
        // With previews hidden: the app icon, not the sender, and "Notification".
        let hidden = try ContentStageTests.view(try p.render("m") { $0.hiddenPreviews = true }, "banner-hidden")
        #expect(!(try ContentStageTests.boxes(hidden)).contains { $0.id == "sender-avatar" })
        #expect(try Self.page(hidden).contains(">Notification</div>") && !(try Self.page(hidden)).contains("Marta"))

        // A group: the group's image and name; the sender stays the title.
        p.payloads["g"] = #"{"aps": {"alert": {"body": "Reef early?"}, "category": "chat", "mutable-content": 1}, "from": "Ines", "face": "media/red.png", "group": "Sea Breeze crew", "groupFace": "media/green.png"}"#
        let group = try ContentStageTests.view(try p.render("g"), "banner")
        let face = Self.centre(try ContentStageTests.png(group), try Self.box(group, "sender-avatar"))
        #expect(face.g > 180 && face.r < 20, "group avatar \(face)")
        let page = try Self.page(group)
        #expect(page.contains(">Ines</div>") && page.contains(">Sea Breeze crew</div>"))

        // No image: the monogram of the sender's initials; an image outside the media roots: said.
        p.payloads["n"] = #"{"aps": {"alert": {"body": "Hi"}, "mutable-content": 1}, "from": "jonas berg", "face": "../outside.png"}"#
        let plain = try ContentStageTests.view(try p.render("n"), "banner")
        #expect(try Self.page(plain).contains(">JB</div>"))
        #expect(plain.warnings.contains { $0.contains("sender image") && $0.contains("monogram") }, "\(plain.warnings)")
    }

    /// An enrich rule may set the sender; bad `communication` settings name the file and key.
    @Test func communicationFromEnrichAndBadSettings() throws {
        var p = Project()
        p.settings = #"{"appName": "Harbor", "enrich": [{"key": "sender-id", "data": "app-group/people.json", "set": {"communication.senderName": "{{name}}", "communication.senderImage": "{{face}}"}}]}"#
        p.files["app-group/people.json"] = #"{"m1": {"name": "Marta", "face": "media/red.png"}}"#
        p.payloads["e"] = #"{"aps": {"alert": {"body": "On my way"}, "mutable-content": 1}, "sender-id": "m1"}"#
        let r = try ContentStageTests.view(try p.render("e"), "banner")
        #expect(try Self.page(r).contains(">Marta</div>"))
        let face = Self.centre(try ContentStageTests.png(r), try Self.box(r, "sender-avatar"))
        #expect(face.r > 240 && face.g < 20)

        for (settings, says) in [(#"{"communication": "Marta"}"#, "communication: expected an object"),
                                 (#"{"communication": {"senderName": 3}}"#, "communication.senderName: expected a template string"),
                                 (#"{"communication": {"avatar": "x"}}"#, "communication.avatar: unknown field")] {
            p.settings = settings
            #expect(throws: ProjectError.self) { _ = try p.write() }
            do { _ = try p.write() } catch { #expect("\(error)".contains("pushpreview.json") && "\(error)".contains(says), "\(error)") }
        }
        // A hostile template is an error of that payload's service step, not a crash.
        p.settings = #"{"communication": {"senderName": "{{#userInfo}}"}}"#
        let broken = try ContentStageTests.view(try p.render("e"), "banner")
        #expect(broken.service.steps.contains { $0.step == "communicate" && $0.outcome == "failed" }, "\(broken.service.steps)")
        #expect(broken.warnings.contains { $0.contains("communicate") })
    }

    /// time-sensitive and critical: the label in the PNG (above the title) and the page;
    /// passive: the note; active draws neither.
    @Test func interruptionLevels() throws {
        var p = Project()
        p.settings = #"{"appName": "Harbor"}"#
        for level in ["active", "time-sensitive", "critical", "passive"] {
            p.payloads[level] = #"{"aps": {"alert": {"title": "Gale warning", "body": "Double your lines"}, "interruption-level": "\#(level)"}}"#
        }
        let active = try ContentStageTests.view(try p.render("active"), "banner")
        #expect(!(try ContentStageTests.boxes(active)).contains { $0.id == "level-label" })
        for (level, label) in [("time-sensitive", "Time Sensitive"), ("critical", "Critical")] {
            let r = try ContentStageTests.view(try p.render(level), "banner")
            #expect(r.interruptionLevel == level)
            #expect(try Self.page(r).contains(">\(label)</span></div>"))
            let box = try Self.box(r, "level-label"), title = try Self.box(r, "title")
            // (The title's box reaches 4 pt above its line, for marks that would otherwise be clipped.)
            // (The label's line overlaps the title's by label.lineAdjust, as iOS 18's do.)
            let overlap = -(try ChromeMetrics.load(templates: ChromeMetricsTests.templates)["label.lineAdjust"])
            #expect(box.y + box.height <= title.y + 4.01 + overlap, "the label is not above the title")
            // Drawn: the label's box holds ink, in system red for a critical alert.
            let png = try ContentStageTests.png(r)
            var ink = 0, red = 0
            for y in Int(box.y * 3)..<Int((box.y + box.height) * 3) {
                for x in Int(box.x * 3)..<Int((box.x + box.width) * 3) {
                    let c = png.pixel(x: x, y: y)
                    if Int(c.r) + Int(c.g) + Int(c.b) < 500 || (c.r > 200 && c.g < 120) { ink += 1 }
                    if c.r > 200 && c.g < 120 && c.b < 120 { red += 1 }
                }
            }
            #expect(ink > 200, "\(level): no label drawn")
            #expect(level == "critical" ? red > 100 : red == 0, "\(level): \(red) red pixels")
        }
        let passive = try p.render("passive")
        #expect(try ContentStageTests.view(passive, "banner").notes?.contains { $0.contains("no banner") } == true)
    }

    /// Three payloads of one thread: a stack beside the newest, two plates, and the summary
    /// in English and in Polish, whose "few" form English lacks.
    @Test func stackOfThreeWithPluralSummary() throws {
        var p = Project()
        p.settings = #"{"appName": "Harbor", "locales": ["en", "pl"]}"#
        p.files["Localizable.xcstrings"] = #"""
        {"sourceLanguage": "en", "version": "1.0", "strings": {"SUMMARY": {"localizations": {
          "en": {"variations": {"plural": {"one": {"stringUnit": {"state": "translated", "value": "%u more message from %@"}}, "other": {"stringUnit": {"state": "translated", "value": "%u more messages from %@"}}}}},
          "pl": {"variations": {"plural": {"one": {"stringUnit": {"state": "translated", "value": "%u wiadomość więcej od %@"}}, "few": {"stringUnit": {"state": "translated", "value": "%u wiadomości więcej (few) od %@"}}, "many": {"stringUnit": {"state": "translated", "value": "%u wiadomości więcej (many) od %@"}}, "other": {"stringUnit": {"state": "translated", "value": "%u wiadomości (other) od %@"}}}}}}}}}
        """#
        for (i, who) in ["Marta", "Jonas", "Ines"].enumerated() {
            p.payloads["t\(i)"] = #"{"aps": {"alert": {"title": "\#(who)", "body": "Message \#(i)", "summary-arg": "\#(who)"\#(i == 0 ? #", "summary-arg-count": 2"# : "")}, "category": "chat", "thread-id": "crew"}}"#
        }
        p.payloads["other"] = #"{"aps": {"alert": {"body": "Not in the thread"}, "category": "chat", "thread-id": "elsewhere"}}"#
        let project = try p.write()
        var options = RenderOptions()
        options.outputFolder = p.folder.appendingPathComponent("Output")
        options.locales = ["en", "pl"]
        options.layoutJSON = true
        // iOS 18 writes the summary line; iOS 26 counts on the icon instead, and says what it leaves out.
        options.axes.iosVersions = [.ios18, .ios26]
        var run = GalleryRun(project: project, templates: repositoryRoot.appendingPathComponent("Templates"), fonts: try FontSet.standard(), options: options)
        run.workers = nil
        let report = try run.run().report
        #expect(MockupRenderer.threads(project.payloadFiles, project: project).map { $0.map(\.lastPathComponent) } == [["t0.apns", "t1.apns", "t2.apns"]])
        let newest = try #require(report.inputs.first { $0.payload == "payloads/t2.apns" })
        for (locale, summary) in [("en", "3 more messages from Marta, Jonas"), ("pl", "3 wiadomości więcej (few) od Marta, Jonas")] {
            let stack = try #require(newest.mockups.first { $0.view == "stack" && $0.locale == locale && $0.ios == "18" }, "no \(locale) stack")
            let modern = try #require(newest.mockups.first { $0.view == "stack" && $0.locale == locale && $0.ios == "26" })
            #expect(modern.notes?.contains { $0.contains("categorySummaryFormat (\"\(summary)\")") } == true, "\(modern.notes ?? [])")
            #expect(stack.errors.isEmpty, "\(stack.errors)")
            let html = try String(contentsOf: options.outputFolder.appendingPathComponent(try #require(stack.outputs.first { $0.hasSuffix(".html") })), encoding: .utf8)
            let shown = String(html.components(separatedBy: "id=\"summary\">").dropFirst().first?.prefix { $0 != "<" } ?? "")
            #expect(shown == summary, "\(locale): \(shown)")
            #expect(html.contains(">Ines</div>"), "the newest is not on top")
            let boxes = try JSONDecoder().decode([LaidOutBox].self, from: Data(contentsOf: options.outputFolder.appendingPathComponent(try #require(stack.outputs.first { $0.hasSuffix(".layout.json") }))))
            let card = try #require(boxes.first { $0.id == "notification" })
            let plates = boxes.filter { $0.id?.hasPrefix("plate-") == true }.sorted { $0.y < $1.y }
            #expect(plates.count == 2)
            // Each plate peeks 8 pt below the one above and is narrower.
            if plates.count == 2 {
                #expect(abs(plates[0].y - (card.y + card.height)) < 0.01 && plates[0].height == 8 && plates[0].width < card.width)
                #expect(plates[1].width < plates[0].width && abs(plates[1].y - (plates[0].y + 8)) < 0.01)
            }
        }
        // Payloads alone in their thread get no stack.
        #expect(!report.inputs.contains { $0.payload != "payloads/t2.apns" && $0.mockups.contains { $0.view == "stack" } })
        let gallery = try String(contentsOf: options.outputFolder.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(gallery.contains("iphone-17-light-pl-ios18-stack.png"))
    }

    /// The system's own summary when the category has none, in a language with its own forms.
    @Test func systemSummaryIsPluralizedPerLocale() throws {
        var p = Project()
        p.settings = #"{"appName": "Harbor"}"#
        p.categories = #"{"categories": []}"#
        for i in 0..<3 { p.payloads["s\(i)"] = #"{"aps": {"alert": {"body": "Ping \#(i)"}, "thread-id": "pings"}}"# }
        let project = try p.write()
        var options = RenderOptions()
        options.outputFolder = p.folder.appendingPathComponent("Output")
        options.locales = ["en", "pl", "ar", "xx"]
        options.axes.iosVersions = [.ios18] // iOS 26 counts on the icon instead (GlassTests)
        let results = try makeRenderer().renderStack(members: project.payloadFiles, project: project, options: options)
        func summary(_ locale: String) throws -> String {
            let r = try #require(results.first { $0.locale == locale })
            let html = try String(contentsOfFile: try #require(r.outputs.first { $0.hasSuffix(".html") }), encoding: .utf8)
            return String(html.components(separatedBy: "id=\"summary\">").dropFirst().first?.prefix { $0 != "<" } ?? "")
        }
        #expect(try summary("en") == "2 more notifications")
        #expect(try summary("pl") == "2 powiadomienia więcej")
        #expect(try summary("ar") == "إشعاران آخران")
        #expect(try summary("xx") == "2 more notifications")
        #expect(try #require(results.first { $0.locale == "xx" }).warnings.contains { $0.contains("no xx words") })
    }

    /// accessibility3 grows the banner's text by Apple's ratio (Subheadline 15/20 → 36/43) and
    /// the custom view is still capped.
    @Test func dynamicTypeScalesTextAndKeepsTheCap() throws {
        var f = ContentStageTests.Fixture()
        f.template = #"<div id="tall" style="height: 600px; font: var(--font-body)">{{title}}</div>"#
        let large = try f.render(), ax3 = try f.render { $0.textSizes = [.accessibility3] }
        let small = try ContentStageTests.view(large, "banner"), big = try ContentStageTests.view(ax3, "banner")
        #expect(big.textSize == "accessibility3" && big.outputs.allSatisfy { $0.contains("-accessibility3-banner") })
        let bodyStyle = try #require(TextStyle.all.first { $0.name == "subheadline" })
        let ratio = bodyStyle.leading(.accessibility3) / bodyStyle.leading(.large)
        #expect(ratio == 43.0 / 20.0)
        let a = try Self.box(small, "title"), b = try Self.box(big, "title")
        // The title's box is its line (its 4 pt clip padding is outside the line's height): the
        // row's text leading, Subheadline's plus the metrics' adjustment (18 pt at Large on iOS 18).
        let adjust = try ChromeMetrics.load(templates: ChromeMetricsTests.templates)["text.leadingAdjust"]
        let rowRatio = (bodyStyle.leading(.accessibility3) + adjust) / (bodyStyle.leading(.large) + adjust)
        #expect(abs((b.height - 8) / (a.height - 8) - rowRatio) < 0.01, "title \(a.height) → \(b.height)")
        #expect(try Self.page(big).contains("--font-subheadline: 400 36px/43px"))
        let expanded = try ContentStageTests.view(ax3, "expanded")
        #expect(expanded.content?.customViewHeight == 320 && (expanded.content?.clippedBy ?? 0) > 0)
        let body = try Self.box(expanded, "tall")
        #expect(body.height == 600)
        // A template's text follows the size too: body is 17 pt at large, 40 pt at accessibility3.
        #expect(try Self.page(expanded).contains("--font-body: 400 40px/48px"))
    }

    /// The text-style properties are `font` values: a template may use them whole, and one that
    /// adds a second weight gets Chromium's answer (the declaration is dropped) and a warning.
    @Test func textStylePropertiesAreFontValues() throws {
        var f = ContentStageTests.Fixture()
        f.template = #"<div id="a" style="font: var(--font-headline)">Headline</div><div id="b" style="font: 600 var(--font-body)">Body</div>"#
        let r = try ContentStageTests.view(try f.render(), "expanded")
        let a = try Self.box(r, "a")
        #expect(a.height == 22, "headline line \(a.height)")
        #expect(r.warnings.contains { $0.contains("font: 600 var(--font-body)") }, "\(r.warnings)")
    }

    /// A right-to-left locale mirrors the row: the icon on the right, the time on the left.
    @Test func arabicNotificationIsMirrored() throws {
        var p = Project()
        p.settings = #"{"appName": "Harbor", "appIcon": "media/icon.png", "locales": ["ar"]}"#
        p.files["ar.lproj/Localizable.strings"] = #""GALE" = "تحذير من العاصفة";"#
        p.payloads["a"] = #"{"aps": {"alert": {"title-loc-key": "GALE", "body": "ضاعف حبال الرسو"}, "interruption-level": "time-sensitive"}}"#
        let results = try p.render("a") { $0.locales = ["ar"] }
        for view in ["banner", "expanded"] {
            let r = try ContentStageTests.view(results, view)
            #expect(r.errors.isEmpty, "\(r.errors)")
            let card = try Self.box(r, "notification"), icon = try Self.box(r, "app-icon"), time = try Self.box(r, "time"), title = try Self.box(r, "title")
            #expect(icon.x + icon.width > card.x + card.width - 20, "\(view): the icon is not on the right (\(icon.x))")
            // (iOS 18 puts the time on the level label's line: the title runs the text column's width below it.)
            #expect(time.x < card.x + card.width / 2 && time.x + time.width < title.x + title.width - 40, "\(view): the time is not on the left")
            let page = try Self.page(r)
            #expect(page.contains("dir=\"rtl\"") && page.contains("تحذير من العاصفة") && page.contains(">حساس للوقت</span></div>"))
        }
    }

    /// A video attachment's poster is the frame at its thumbnail-time, decoded with FFmpeg's
    /// libraries; its duration is drawn on it; a truncated file is a warning and the placeholder.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg"), "needs Debian's ffmpeg CLI to make the test video"))
    func videoPosterIsTheFrameAtItsTime() throws {
        var p = Project()
        p.settings = #"{"appName": "Harbor"}"#
        let project = try p.write()
        func ffmpeg(_ arguments: [String]) throws {
            let r = try runProcess(URL(fileURLWithPath: "/usr/bin/ffmpeg"), ["-hide_banner", "-loglevel", "error", "-nostdin", "-y"] + arguments)
            try #require(r.status == 0, "\(r.stderr)")
        }
        let clip = p.folder.appendingPathComponent("media/clip.mp4")
        try ffmpeg(["-f", "lavfi", "-i", "testsrc=size=320x240:rate=10:duration=3", "-c:v", "libx264", "-g", "10", "-pix_fmt", "yuv420p", clip.path])
        func frame(_ seconds: Double) throws -> RGBAImage {
            let raw = p.folder.appendingPathComponent("frame-\(seconds).rgba")
            try ffmpeg(["-ss", "\(seconds)", "-i", clip.path, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgba", raw.path])
            return RGBAImage(width: 320, height: 240, pixels: sha(raw))
        }
        let bytes = sha(clip)
        try Data(bytes.prefix(bytes.count / 2)).write(to: p.folder.appendingPathComponent("media/cut.mp4"))
        for (name, file) in [("v", "clip"), ("cut", "cut")] {
            try Data(#"{"aps": {"alert": {"title": "Start", "body": "Watch"}, "mutable-content": 1}, "media-url": "media/\#(file).mp4", "attachment-options": {"thumbnail-time": 1.5}}"#.utf8)
                .write(to: p.folder.appendingPathComponent("payloads/\(name).apns"))
        }
        var options = RenderOptions()
        options.outputFolder = p.folder.appendingPathComponent("Output")
        options.layoutJSON = true
        let renderer = try makeRenderer()
        let results = renderer.render(payloadFile: p.folder.appendingPathComponent("payloads/v.apns"), project: project, options: options)
        let expanded = try ContentStageTests.view(results, "expanded")
        #expect(expanded.errors.isEmpty && expanded.warnings.isEmpty, "\(expanded.errors) \(expanded.warnings)")
        let page = try Self.page(expanded)
        let src = try #require(page.components(separatedBy: #"id="attachment" src="../"#).dropFirst().first?.prefix { $0 != "\"" })
        let poster = try PNGCodec.decode(sha(options.outputFolder.appendingPathComponent(String(src))))
        let at15 = try frame(1.5), at0 = try frame(0)
        #expect(poster.width == 320 && poster.height == 240)
        func largest(_ a: RGBAImage, _ b: RGBAImage) -> Int { zip(a.pixels, b.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0 }
        #expect(largest(poster, at15) <= 2, "the poster is not the frame at 1.5 s")
        #expect(largest(poster, at0) > 50, "the poster is the first frame")
        #expect(page.contains(#"id="duration">0:03</div>"#))
        let banner = try ContentStageTests.view(results, "banner")
        #expect((try ContentStageTests.boxes(banner)).contains { $0.id == "thumbnail" })

        let cut = try ContentStageTests.view(renderer.render(payloadFile: p.folder.appendingPathComponent("payloads/cut.apns"), project: project, options: options), "expanded")
        #expect(cut.errors.isEmpty)
        #expect(cut.warnings.contains { $0.contains("cut.mp4") && $0.contains("no poster frame") && $0.contains("placeholder") }, "\(cut.warnings)")
        #expect(try Self.page(cut).contains(#"<div class="media-placeholder" id="attachment">"#))
    }

    /// `--view lockscreen,notification-center`: the screen's full height, the clock centred above
    /// the notification, which rises from the bottom on the Lock Screen and is listed under the
    /// clock in Notification Center.
    @Test func lockScreenView() throws {
        var p = Project()
        p.settings = #"{"appName": "Harbor"}"#
        p.payloads["l"] = #"{"aps": {"alert": {"title": "Ferry", "body": "Departs soon"}}}"#
        let results = try p.render("l") { $0.extraViews = ["lockscreen", "notification-center"]; $0.devices = ["iphone-17", "iphone-se-3"] }
        for (device, height, scale) in [("iphone-17", 874, 3), ("iphone-se-3", 667, 2)] {
            let r = try #require(results.first { $0.view == "lockscreen" && $0.device == device })
            let png = try ContentStageTests.png(r)
            #expect(png.height == height * scale)
            let clock = try Self.box(r, "clock"), card = try Self.box(r, "notification")
            // Rising from the bottom: above the flashlight and camera where the iPhone has them
            // (not on one with a Home button).
            let buttons = (try ContentStageTests.boxes(r)).filter { $0.id == "flashlight" || $0.id == "camera" }
            #expect(buttons.count == (device == "iphone-se-3" ? 0 : 2))
            #expect(clock.y < card.y && card.y + card.height < Double(height) - (buttons.isEmpty ? 30 : 100) && card.y + card.height > Double(height) - 150)
            #expect(abs(clock.x + clock.width / 2 - Double(height == 874 ? 402 : 375) / 2) < 0.5, "the clock is not centred")
            #expect(try Self.page(r).contains(">9:41</div>") && (try Self.page(r)).contains(">Tuesday, January 9</div>"))
            // Notification Center: the same screen, the list under the clock, below its heading.
            let center = try #require(results.first { $0.view == "notification-center" && $0.device == device })
            let heading = try Self.box(center, "center-title"), listed = try Self.box(center, "notification"), top = try Self.box(center, "clock")
            #expect(top.y + top.height < heading.y && heading.y + heading.height <= listed.y && listed.y < Double(height) / 2)
            #expect(try Self.page(center).contains(">Notification Center</div>"))
        }
    }
}
