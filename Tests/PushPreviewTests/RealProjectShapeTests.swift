import ConfinedFiles
import ContentStage
import Foundation
import PushPreview
import Testing

/// Configurations that real, shipping iOS projects have (learned from public apps' Info.plists,
/// strings and category code; written here in the same shapes): each is accepted as iOS accepts it.
struct RealProjectShapeTests {
    typealias Fixture = ContentStageTests.Fixture

    /// A blogging app offers its reply and like actions in two categories each.
    @Test func oneActionInSeveralCategoriesIsFine() throws {
        var f = Fixture()
        f.categories = """
        {"categories": [
          {"identifier": "card", "actions": [{"identifier": "COMMENT_REPLY", "title": "Reply", "textInput": {"buttonTitle": "Reply", "placeholder": "Write a reply…"}},
                                            {"identifier": "COMMENT_LIKE", "title": "Like"}]},
          {"identifier": "comment-mention", "actions": [{"identifier": "COMMENT_REPLY", "title": "Reply", "textInput": {"buttonTitle": "Reply", "placeholder": "Write a reply…"}},
                                                        {"identifier": "COMMENT_LIKE", "title": "Like"}]},
          {"identifier": "share-upload-failure"}
        ]}
        """
        let project = try f.write()
        #expect(project.content.issues.filter { $0.severity == .error }.isEmpty, "\(project.content.issues)")
        let results = try f.render()
        #expect(results.allSatisfy { $0.errors.isEmpty && !$0.warnings.contains { $0.contains("COMMENT") } }, "\(results.map(\.warnings))")
        #expect(results.first { $0.view == "expanded" }?.actions?.map(\.identifier) == ["COMMENT_REPLY", "COMMENT_LIKE"])
    }

    /// A view that sizes itself ships with a ratio of 0: no warning, no empty initial box, the
    /// content's own height.
    @Test func initialContentSizeRatioZero() throws {
        var f = Fixture()
        f.attributes["UNNotificationExtensionInitialContentSizeRatio"] = 0.0
        f.template = #"<div id="card" style="height: 120px; background: #2a9d8f"></div>"#
        let results = try f.render()
        let expanded = try #require(results.first { $0.view == "expanded" })
        #expect(expanded.warnings.isEmpty && expanded.errors.isEmpty, "\(expanded.warnings) \(expanded.errors)")
        #expect(expanded.content?.customViewHeight == 120)
    }

    /// `.lproj` names as iOS reads them: underscores (a messenger's pt_BR, zh_Hans), the old
    /// English name, and a locale with no table at all is a warning, not silent English.
    @Test func lprojNamesAsIOSReadsThem() throws {
        var f = Fixture()
        f.payload = #"{"aps": {"alert": {"title-loc-key": "FERRY", "loc-key": "DEPARTS"}, "category": "card"}}"#
        let project = try f.write()
        for (folder, title) in [("English", "Ferry"), ("pt_BR", "Balsa"), ("zh_Hans", "渡轮"), ("zh-Hant", "渡輪")] {
            let dir = project.folder.appendingPathComponent("\(folder).lproj")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            try Data("/* \(folder) */\n\"FERRY\" = \"\(title)\";\nDEPARTS = \"…\";\n".utf8).write(to: dir.appendingPathComponent("Localizable.strings"))
        }
        let renderer = try makeRenderer()
        for (locale, title) in [("pt-BR", "Balsa"), ("zh-Hans", "渡轮"), ("zh_Hant", "渡輪"), ("en", "Ferry"), ("pt", "Ferry")] {
            var options = RenderOptions()
            options.locales = [locale]
            options.formats = ["html"]
            options.outputFolder = project.folder.appendingPathComponent("Output-\(locale)")
            let results = renderer.render(payloadFile: project.folder.appendingPathComponent("payloads/p.apns"), project: project, options: options)
            let banner = try #require(results.first { $0.view == "banner" })
            let page = try String(contentsOfFile: try #require(banner.outputs.first { $0.hasSuffix(".html") }), encoding: .utf8)
            #expect(page.contains(title), "\(locale): \(title) not shown")
            #expect(banner.warnings.contains { $0.contains("no strings for pt") } == (locale == "pt"), "\(locale): \(banner.warnings)")
        }
    }

    /// A messenger's service extension Info.plist among the app's extensions is recognised (not a
    /// content extension, not a problem); in the content extension's own place it is an error.
    @Test func serviceExtensionInfoPlist() throws {
        let f = Fixture()
        let project = try f.write()
        let service: [String: Any] = ["NSExtension": ["NSExtensionPointIdentifier": ContentExtension.servicePointIdentifier,
                                                      "NSExtensionPrincipalClass": "$(PRODUCT_MODULE_NAME).NotificationService"]]
        let data = try PropertyListSerialization.data(fromPropertyList: service, format: .xml, options: 0)
        let dir = project.folder.appendingPathComponent("Extensions/RiotNSE")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try data.write(to: dir.appendingPathComponent("Info.plist"))
        #expect(try Project(folder: project.folder).content.issues.isEmpty)
        try data.write(to: project.folder.appendingPathComponent("Info.plist"))
        let issues = try Project(folder: project.folder).content.issues
        #expect(issues.contains { $0.severity == .error && $0.message.contains("Service Extension's Info.plist") }, "\(issues)")
    }

    /// A project-level problem is said once per run, with validate's severity, and does not mark
    /// every payload "with warnings".
    @Test func projectIssuesAreSaidOnce() throws {
        let project = try examplesCopy(payloads: ["body-only.apns", "emoji.apns", "plain-alert.apns"])
        let settings = project.appendingPathComponent("pushpreview.json")
        var text = try String(contentsOf: settings, encoding: .utf8)
        text = text.replacingOccurrences(of: "{", with: "{\"appIconSet\": \"AppIcon\", ", options: [], range: text.range(of: "{"))
        try Data(text.utf8).write(to: settings)
        let out = project.deletingLastPathComponent().appendingPathComponent("Output")
        let g = try runProcess(pushpreviewBinary, ["gallery", project.path, "--out", out.path, "--device", "iphone-17", "--locale", "en"])
        #expect(g.stderr.components(separatedBy: "appIconSet").count == 2, "said \(g.stderr.components(separatedBy: "appIconSet").count - 1) times: \(g.stderr)")
        let report = try GalleryReport.read(in: ConfinedFolder(trusted: out, links: .refused))
        #expect(report.projectIssues?.contains { $0.hasPrefix("warning: ") && $0.contains("appIconSet") } == true)
        #expect(report.inputs.allSatisfy { $0.outcome == "rendered" }, "\(report.inputs.map(\.outcome))")
        let v = try runProcess(pushpreviewBinary, ["validate", project.path])
        #expect((v.stdout + v.stderr).contains("warning: ") && (v.stdout + v.stderr).contains("appIconSet"))
        let page = try String(contentsOf: out.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(page.contains("appIconSet"))
    }

    /// Action titles kept in the app's own table, and its display name in InfoPlist.strings: a
    /// payload with no loc-keys is still drawn per locale, each in its language.
    @Test func actionTitlesAndDisplayNamePerLocale() throws {
        var f = Fixture()
        // No title: the row's title is the app's display name.
        f.payload = #"{"aps": {"alert": {"body": "Departs soon"}, "category": "card"}}"#
        f.categories = #"{"categories": [{"identifier": "card", "actions": [{"identifier": "open", "title": {"key": "ACTION_OPEN", "table": "Notifications", "default": "Open"}}, {"identifier": "r", "title": "Reply", "textInput": {"buttonTitle": {"key": "SEND", "table": "Notifications"}, "placeholder": {"key": "WRITE", "table": "Notifications"}}}]}]}"#
        let project = try f.write()
        for (language, open, name) in [("nl", "Openen", "Haven"), ("en", "Open", "Harbour")] {
            let dir = project.folder.appendingPathComponent("\(language).lproj")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            try Data("\"ACTION_OPEN\" = \"\(open)\";\n\"SEND\" = \"\(language == "nl" ? "Stuur" : "Send")\";\n".utf8).write(to: dir.appendingPathComponent("Notifications.strings"))
            try Data("CFBundleDisplayName = \"\(name)\";\n".utf8).write(to: dir.appendingPathComponent("InfoPlist.strings"))
        }
        var options = RenderOptions()
        options.locales = ["nl", "en"]
        options.formats = ["html"]
        options.outputFolder = project.folder.appendingPathComponent("Output")
        let results = try makeRenderer().render(payloadFile: project.folder.appendingPathComponent("payloads/p.apns"), project: try Project(folder: project.folder), options: options)
        for (locale, open, name) in [("nl", "Openen", "Haven"), ("en", "Open", "Harbour")] {
            let expanded = try #require(results.first { $0.locale == locale && $0.view == "expanded" }, "no \(locale) mock-up")
            #expect(expanded.actions?.first?.title == open)
            let page = try String(contentsOfFile: try #require(expanded.outputs.first), encoding: .utf8)
            #expect(page.contains(">\(name)</div>"), "\(locale): no \(name) as the title")
            let reply = try #require(results.first { $0.locale == locale && $0.view == "reply" })
            let replyPage = try String(contentsOfFile: try #require(reply.outputs.first), encoding: .utf8)
            #expect(replyPage.contains(locale == "nl" ? "Stuur" : "Send"))
            // WRITE has no translation anywhere: said, and the key shown.
            #expect(reply.warnings.contains { $0.contains("\"WRITE\"") }, "\(reply.warnings)")
        }
    }

    /// An InfoPlist.strings with only the privacy texts (as most apps have) localizes nothing a
    /// notification shows: a payload without loc-keys is drawn once (issue 22: 6× and 40× before).
    /// One that translates the app's name (strings or catalog) is drawn in every locale.
    @Test(arguments: [("\"NSCameraUsageDescription\" = \"Scan tickets\";", "strings", 1),
                      ("\"CFBundleDisplayName\" = \"Haven\";", "strings", 2),
                      (#"{"sourceLanguage": "en", "strings": {"NSCameraUsageDescription": {"localizations": {"en": {"stringUnit": {"state": "translated", "value": "Scan"}}, "nl": {"stringUnit": {"state": "translated", "value": "Scannen"}}}}}, "version": "1.0"}"#, "xcstrings", 1),
                      (#"{"sourceLanguage": "en", "strings": {"CFBundleDisplayName": {"localizations": {"en": {"stringUnit": {"state": "translated", "value": "Harbour"}}, "nl": {"stringUnit": {"state": "translated", "value": "Haven"}}}}}, "version": "1.0"}"#, "xcstrings", 2)])
    func drawnPerLocaleOnlyWhenLocalized(_ text: String, _ kind: String, _ drawings: Int) throws {
        var f = Fixture()
        f.payload = #"{"aps": {"alert": {"title": "Gate change", "body": "Departs soon"}}}"#
        let project = try f.write()
        if kind == "strings" {
            for language in ["en", "nl"] {
                let dir = project.folder.appendingPathComponent("\(language).lproj")
                try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
                try Data(text.utf8).write(to: dir.appendingPathComponent("InfoPlist.strings"))
            }
        } else {
            try Data(text.utf8).write(to: project.folder.appendingPathComponent("InfoPlist.xcstrings"))
        }
        var options = RenderOptions()
        options.locales = ["nl", "en"]
        options.formats = ["html"]
        options.outputFolder = project.folder.appendingPathComponent("Output")
        let results = try makeRenderer().render(payloadFile: project.folder.appendingPathComponent("payloads/p.apns"), project: try Project(folder: project.folder), options: options)
        #expect(results.filter { $0.view == "expanded" }.count == drawings, "\(results.map { "\($0.view) \($0.locale ?? "-")" })")
    }
}
