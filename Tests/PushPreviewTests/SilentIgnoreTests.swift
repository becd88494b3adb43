import ConfinedFiles
import Foundation
import PushPreview
import Testing

/// Files that used to be dropped with exit 0 and no word: now each is an error or a warning
/// naming the file and where in it, from validate and from gallery alike.
struct SilentIgnoreTests {
    @Test func brokenDevicesJSONIsAnErrorWithItsPosition() throws {
        let project = try examplesCopy(payloads: ["body-only.apns"])
        try Data(#"[{"id": "tiny", "name": "Tiny", "width": 320, "scale": 2},]"#.utf8).write(to: project.appendingPathComponent("devices.json"))
        let out = project.deletingLastPathComponent().appendingPathComponent("Output")
        let g = try runProcess(pushpreviewBinary, ["gallery", project.path, "--out", out.path, "--device", "iphone-17"])
        #expect(g.status == 1 && g.stderr.contains("devices.json:1:") && !g.stderr.contains("unknown device"), "\(g.stderr)")
        let v = try runProcess(pushpreviewBinary, ["validate", project.path])
        #expect(v.status == 1 && (v.stdout + v.stderr).contains("devices.json:1:"), "\(v.stdout) \(v.stderr)")
    }

    @Test func brokenStringsAndCatalogsAreNamed() throws {
        let project = try examplesCopy(payloads: ["localized-boarding.apns"])
        try Data("\"FERRY_BOARDING\" = \"%1$@ boards at %2$@\"\n\"OTHER\" = \"x\";".utf8).write(to: project.appendingPathComponent("nl.lproj/Localizable.strings"))
        let v = try runProcess(pushpreviewBinary, ["validate", project.path])
        let said = v.stdout + v.stderr
        #expect(said.contains("nl.lproj/Localizable.strings:2"), "\(said)")
        let out = project.deletingLastPathComponent().appendingPathComponent("Output")
        _ = try runProcess(pushpreviewBinary, ["gallery", project.path, "--out", out.path, "--device", "iphone-17", "--locale", "nl"])
        let report = try GalleryReport.read(in: ConfinedFolder(trusted: out, links: .refused))
        let warnings = report.inputs.flatMap(\.mockups).flatMap(\.warnings)
        #expect(warnings.contains { $0.contains("nl.lproj/Localizable.strings:2") }, "\(warnings)")
        #expect(report.inputs.allSatisfy { $0.outcome == "warnings" })
        // And once for the run, with validate's severity.
        #expect(report.projectIssues?.contains { $0.hasPrefix("error: ") && $0.contains("nl.lproj/Localizable.strings:2") } == true, "\(report.projectIssues ?? [])")
    }

    @Test func brokenInfoPlistHasALine() throws {
        let project = try examplesCopy(payloads: ["body-only.apns"])
        let plist = project.appendingPathComponent("Info.plist")
        var text = try String(contentsOf: plist, encoding: .utf8)
        text = text.replacingOccurrences(of: "</dict>", with: "</dcit>", options: [], range: text.range(of: "</dict>"))
        try Data(text.utf8).write(to: plist)
        let v = try runProcess(pushpreviewBinary, ["validate", project.path])
        #expect((v.stdout + v.stderr).contains("Info.plist:27: "), "\(v.stdout) \(v.stderr)")
        // The same finding as fields, for editors and CI annotations.
        let json = try runProcess(pushpreviewBinary, ["validate", project.path, "--json"])
        let first = try #require(json.stdout.split(separator: "\n").first { $0.contains("Info.plist") })
        let record = try #require(try JSONSerialization.jsonObject(with: Data(first.utf8)) as? [String: Any])
        #expect(record["severity"] as? String == "error" && record["line"] as? Int == 27 && (record["file"] as? String)?.hasSuffix("Examples/Info.plist") == true
                && record["code"] as? String == "plist" && (record["message"] as? String)?.contains("/") == false, "\(record)")
    }
}

/// Degradations that used to be drawn without a word: each is now a warning on the mock-up.
struct NothingSilentTests {
    typealias Fixture = ContentStageTests.Fixture

    @Test func fontFamilyNoLoadedFontProvides() throws {
        var f = Fixture()
        f.template = #"<p style="font-family: 'SF Pro Rounded'">Ferry</p><p style="font-family: 'SF Pro Text', -apple-system, sans-serif">Fine</p>"#
        let expanded = try #require(try f.render().first { $0.view == "expanded" })
        let said = expanded.warnings.filter { $0.contains("font-family") }
        #expect(said.count == 1 && said[0].contains("SF Pro Rounded") && said[0].contains("--font-dir"), "\(expanded.warnings)")
    }

    @Test func aKeyTheTemplateDataLacksIsSaidOncePerPayload() throws {
        var f = Fixture()
        f.template = #"<p>Table for {{userInfo.party}}</p><p>{{title}}</p>"#
        f.categories = #"{"categories": [{"identifier": "card", "actions": [{"identifier": "r", "title": "Reply", "textInput": {"buttonTitle": "Send"}}]}]}"#
        let results = try f.render { $0.appearances = [.light, .dark] }
        let said = results.flatMap(\.warnings).filter { $0.contains("{{userInfo.party}}") }
        #expect(said.count == 1 && said[0].contains("card.html"), "\(said)")
        #expect(!results.flatMap(\.warnings).contains { $0.contains("{{title}}") })
    }

    @Test func aMediaURLUnderAKeyThatIsNotAMediaKey() throws {
        var f = Fixture()
        f.payload = #"{"aps": {"alert": {"title": "T", "body": "B"}, "mutable-content": 1, "category": "card"}, "photo": "https://cdn.example.com/deck.jpg", "link": "https://example.com/article"}"#
        let expanded = try #require(try f.render().first { $0.view == "expanded" })
        let said = expanded.warnings.filter { $0.contains("mediaKeys") }
        #expect(said.count == 1 && said[0].contains("photo") && !said[0].contains("link"), "\(expanded.warnings)")
    }
}
