import Foundation
import Testing
import ProjectImport

/// Issue 15: which project and targets an app is, on Tests/Fixtures/xcode/Lighthouse (an app
/// with a content and a service extension, two configurations, a generated Info.plist over a
/// file, a String Catalog and localized InfoPlist.strings), alone, in a workspace, in a repository.
struct XcodeAppTests {
    static let lighthouse = xcodeFixtures.appendingPathComponent("Lighthouse")

    /// A copy of the fixture repository with `more` other projects beside it.
    static func repository(_ more: [(name: String, pbxproj: String)] = [], _ name: String = #function) throws -> URL {
        let root = temporaryFolder(name).appendingPathComponent("repo")
        try FileManager.default.copyItem(at: lighthouse, to: root)
        for (name, text) in more {
            let bundle = root.appendingPathComponent("\(name).xcodeproj")
            try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: bundle.appendingPathComponent("project.pbxproj"))
        }
        return root
    }

    static let pbxproj = try! String(contentsOf: lighthouse.appendingPathComponent("Lighthouse.xcodeproj/project.pbxproj"), encoding: .utf8)

    @Test func theAppAndItsNotificationExtensions() throws {
        let app = try XcodeApp(path: Self.lighthouse.appendingPathComponent("Lighthouse.xcodeproj"))
        #expect(app.app?.name == "Lighthouse" && app.displayName == "Lighthouse")
        #expect(app.extensions.map(\.target.name) == ["LighthouseContent", "LighthouseService"])
        #expect(app.extensions.map(\.point) == [XcodeApp.Extension.content, XcodeApp.Extension.service])
        // The Info.plist as built: the file's keys, the generated ones and $(VAR) expanded.
        let service = try #require(app.extensions.last)
        #expect(service.infoPlist["NSExtension"]?["NSExtensionPrincipalClass"]?.string == "LighthouseService.NotificationService")
        #expect(app.appInfoPlist["UIAppFonts"]?.strings == ["LighthouseSerif.ttf"] && app.appInfoPlist["CFBundleDisplayName"]?.string == "Lighthouse")
        var problems: [String] = []
        let icon = try #require(app.appIcon(problems: &problems))
        #expect(icon.set?.light?.lastPathComponent == "AppIcon.png" && icon.set?.dark?.lastPathComponent == "AppIcon-Dark.png" && icon.set?.tinted?.lastPathComponent == "AppIcon-Tinted.png")
        #expect(app.stringsFolders(problems: &problems).map(\.lastPathComponent) == ["App"])
        #expect(app.sources(problems: &problems).map(\.lastPathComponent) == ["AppDelegate.swift", "NotificationCategories.swift", "LHCategoryRegistrar.m", "NotificationViewController.swift", "NotificationService.swift"])
        #expect(app.fonts(problems: &problems).map(\.lastPathComponent) == ["LighthouseSerif.ttf"])
        #expect(problems.isEmpty, "\(problems)")
        #expect(app.project.targets.first { $0.name == "Lighthouse" }?.configuration("Debug")?["PRODUCT_BUNDLE_IDENTIFIER"] == "org.example.lighthouse.debug")
    }

    /// In a repository or a workspace, the project with the extensions is the app's; two such
    /// projects are an error naming both, as is a folder with none.
    @Test func choosingTheProject() throws {
        let plain = Self.pbxproj.replacingOccurrences(of: "com.apple.product-type.app-extension", with: "com.apple.product-type.framework")
        let root = try Self.repository([("Kit", plain)])
        #expect(try XcodeApp(path: root).project.name == "Lighthouse")
        let workspace = root.appendingPathComponent("Lighthouse.xcworkspace")
        try FileManager.default.createDirectory(at: workspace, withIntermediateDirectories: true)
        try Data(#"<?xml version="1.0" encoding="UTF-8"?><Workspace version="1.0"><FileRef location="group:Kit.xcodeproj"></FileRef><FileRef location="group:Lighthouse.xcodeproj"></FileRef></Workspace>"#.utf8)
            .write(to: workspace.appendingPathComponent("contents.xcworkspacedata"))
        #expect(try XcodeApp(path: workspace).project.name == "Lighthouse")

        let twice = try Self.repository([("Copy", Self.pbxproj)])
        do {
            _ = try XcodeApp(path: twice)
            Issue.record("two projects with extensions were not an error")
        } catch { #expect(error.description.contains("2 projects have notification extensions") && error.description.contains("Copy.xcodeproj") && error.description.contains("Lighthouse.xcodeproj")) }
        do {
            _ = try XcodeApp(path: temporaryFolder())
            Issue.record("an empty folder was read")
        } catch { #expect(error.description.contains("no Xcode project found")) }
    }

    /// A file the project names outside the repository is not read, and said.
    @Test func filesOutsideTheRepositoryAreNotRead() throws {
        let root = try Self.repository()
        let escaping = Self.pbxproj.replacingOccurrences(of: "path = Localizable.xcstrings;", with: "path = ../../../../etc/Localizable.xcstrings;")
        try Data(escaping.utf8).write(to: root.appendingPathComponent("Lighthouse.xcodeproj/project.pbxproj"))
        let app = try XcodeApp(path: root)
        var problems: [String] = []
        #expect(app.stringsFolders(problems: &problems).map(\.lastPathComponent) == ["App"])
        #expect(problems.contains { $0.contains("lies outside") && $0.contains("etc") }, "\(problems)")
    }
}

/// A project with more than one application (Rocket.Chat's has two): init says which one is drawn
/// (the app, its name, icon and strings) and why.
struct AppChoiceTests {
    static func spec(apps: [(name: String, id: String)]) -> [String: String] {
        var targets = apps.map { app in
            "  \(app.name):\n    type: application\n    platform: iOS\n    sources: [\(app.name)]\n    settings:\n      PRODUCT_BUNDLE_IDENTIFIER: \(app.id)\n"
        }
        targets.append("  Service:\n    type: app-extension\n    platform: iOS\n    sources: [Service]\n    info:\n      path: Service/Info.plist\n      properties:\n        NSExtension:\n"
                       + "          NSExtensionPointIdentifier: com.apple.usernotifications.service\n    settings:\n      PRODUCT_BUNDLE_IDENTIFIER: com.example.chat.service\n")
        var files = ["project.yml": "name: Chat\ntargets:\n" + targets.joined(), "Service/NotificationService.swift": "import UserNotifications\n"]
        for app in apps { files["\(app.name)/App.swift"] = "import SwiftUI\n" }
        return files
    }

    @Test func theAppDrawnIsSaidWhenThereAreSeveral() throws {
        let spec = try XcodeGenTests.spec(Self.spec(apps: [("Alpha", "org.example.alpha"), ("Chat", "com.example.chat")]))
        let app = try XcodeApp(path: spec)
        #expect(app.app?.name == "Chat")
        #expect(app.problems.contains { $0.contains("2 application targets (Alpha, Chat); the app drawn is Chat, the one whose bundle identifier") }, "\(app.problems)")
        let unrelated = try XcodeApp(path: try XcodeGenTests.spec(Self.spec(apps: [("First", "org.one"), ("Second", "org.two")]), name: "unrelated"))
        #expect(unrelated.app?.name == "First" && unrelated.problems.contains { $0.contains("the app drawn is First, the first: no application's bundle identifier") },
                "\(unrelated.problems)")
        let one = try XcodeApp(path: try XcodeGenTests.spec(Self.spec(apps: [("Chat", "com.example.chat")]), name: "one"))
        #expect(!one.problems.contains { $0.contains("application targets") }, "\(one.problems)")
    }
}
