import Foundation
import Payload
import Testing
import ProjectImport
import Formats

/// Issue 15: `pushpreview init` on Tests/Fixtures/xcode/Lighthouse — what it writes, that it
/// writes the same bytes twice, and that a file a person changed is kept unless forced.
struct ProjectInitTests {
    static func repository(_ name: String = #function) throws -> URL {
        let root = temporaryFolder(name).appendingPathComponent("Lighthouse")
        try FileManager.default.copyItem(at: xcodeFixtures.appendingPathComponent("Lighthouse"), to: root)
        return root
    }

    @Test func whatItWrites() throws {
        let root = try Self.repository()
        let plan = try ProjectInit(path: root)
        #expect(plan.folder == root.appendingPathComponent("pushpreview").standardizedFileURL)
        #expect(plan.files.map(\.path) == ["Templates/STORM_WARNING.html", "categories.json", "payloads/FERRY_DELAY.apns", "payloads/STORM_WARNING.apns",
                                           "payloads/TIDE_TABLE.apns", "pushpreview.json"])
        let settings = try #require(plan.files.first { $0.path == "pushpreview.json" }?.text)
        let json = try JSONParser.parse(Array(settings.utf8), file: "pushpreview.json")
        #expect(json["xcode"]?.string == "../Lighthouse.xcodeproj")
        #expect(json["locales"] == .array([.string("en"), .string("nl")]))
        // The categories from the Swift and the Objective-C code, merged into one file.
        let categories = try JSONParser.parse(Array(try #require(plan.files.first { $0.path == "categories.json" }?.text).utf8), file: "categories.json")
        guard case .array(let list)? = categories["categories"] else { Issue.record("no categories array"); return }
        #expect(list.compactMap { $0["identifier"]?.string } == ["FERRY_DELAY", "STORM_WARNING", "TIDE_TABLE"])
        // The sample payload carries the keys the extensions read, and mutable-content for the service extension.
        let sample = try JSONParser.parse(Array(try #require(plan.files.first { $0.path == "payloads/STORM_WARNING.apns" }?.text).utf8), file: "p")
        #expect(sample["aps"]?["category"]?.string == "STORM_WARNING" && sample["aps"]?["mutable-content"] == .number(1))
        #expect(sample["wind"] != nil && sample["chart-url"] != nil && sample["station"]?["name"] != nil, "\(sample.compact)")
        // The storyboard as the template, its outlets bound as the extension's code binds them.
        let template = try #require(plan.files.first { $0.path == "Templates/STORM_WARNING.html" }?.text)
        #expect(template.contains("{{title}}") && template.contains("{{body}}") && template.contains("{{userInfo.wind}}"), "\(template)")
        #expect(plan.found.contains { $0.hasPrefix("target LighthouseContent: app-extension (com.apple.usernotifications.content-extension)") })
        #expect(plan.found.contains { $0.hasPrefix("app icon: light App/Assets.xcassets/AppIcon.appiconset/AppIcon.png, dark ") })
        #expect(plan.found.contains { $0.hasPrefix("category STORM_WARNING: ACKNOWLEDGE, REPLY, MUTE_FOR_DAY") }, "\(plan.found)")
        // The catalog the app and the content extension share is read once (WordPress shares one).
        #expect(!plan.problems.contains { $0.contains("a second colour") }, "\(plan.problems)")
    }

    @Test func rerunsAreSafe() throws {
        let root = try Self.repository()
        let plan = try ProjectInit(path: root)
        let first = try InitWriter.write(plan.files, into: plan.folder, force: false)
        #expect(first.written.count == plan.files.count && first.kept.isEmpty)
        let bytes = try Self.tree(plan.folder)
        // The same project: the same bytes, nothing written.
        let again = try InitWriter.write(try ProjectInit(path: root).files, into: plan.folder, force: false)
        #expect(again.written.isEmpty && again.unchanged.count == plan.files.count)
        #expect(try Self.tree(plan.folder) == bytes)

        // A template the person edited is kept; one init wrote is brought up to date.
        let template = plan.folder.appendingPathComponent("Templates/STORM_WARNING.html")
        try Data("<div>mine</div>".utf8).write(to: template)
        let code = root.appendingPathComponent("App/NotificationCategories.swift")
        try Data(try String(contentsOf: code, encoding: .utf8).replacingOccurrences(of: "\"TIDE_TABLE\"", with: "\"TIDES\"").utf8).write(to: code)
        let third = try InitWriter.write(try ProjectInit(path: root).files, into: plan.folder, force: false)
        #expect(third.kept == ["Templates/STORM_WARNING.html"] && third.written.contains("categories.json") && third.written.contains("payloads/TIDES.apns"))
        #expect(try String(contentsOf: template, encoding: .utf8) == "<div>mine</div>")
        let forced = try InitWriter.write(try ProjectInit(path: root).files, into: plan.folder, force: true)
        #expect(forced.written == ["Templates/STORM_WARNING.html"] && forced.kept.isEmpty)
    }

    /// A storyboard with outlets is still converted when the code adds views beside them, and the
    /// template and init say where (issue 22).
    @Test func aStoryboardWithViewsAddedInCode() throws {
        let root = try Self.repository()
        let code = root.appendingPathComponent("Content/NotificationViewController.swift")
        let source = try String(contentsOf: code, encoding: .utf8)
        try Data(source.replacingOccurrences(of: "        detailLabel.text = content.body\n", with: "        detailLabel.text = content.body\n        view.addSubview(UIView())\n").utf8).write(to: code)
        let line = try #require(try String(contentsOf: code, encoding: .utf8).components(separatedBy: "\n").firstIndex { $0.contains("view.addSubview") }) + 1
        let plan = try ProjectInit(path: root)
        let template = try #require(plan.files.first { $0.path == "Templates/STORM_WARNING.html" }?.text)
        #expect(template.hasPrefix("{{! warning: LighthouseContent also adds views in code at Content/NotificationViewController.swift:\(line) (addSubview); they are not in this template }}\n"))
        #expect(template.contains("{{userInfo.wind}}"), "the storyboard's outlets are still bound")
        #expect(plan.problems.contains("Content/NotificationViewController.swift:\(line): LighthouseContent makes its content view in code beside its storyboard's outlets; Templates/STORM_WARNING.html holds the storyboard's views only, and each mock-up says so until you draw that view there"), "\(plan.problems)")
    }

    static func tree(_ folder: URL) throws -> [String: Data] {
        var out: [String: Data] = [:]
        let e = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        while let url = e?.nextObject() as? URL {
            var dir: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &dir), !dir.boolValue { out[url.path] = try Data(contentsOf: url) }
        }
        return out
    }
}
