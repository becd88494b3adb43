import Foundation
import Payload
import Testing
import ProjectImport
import Formats

/// Tuist manifests read through swiftc's parse-only AST into the project model. The fixture,
/// Tests/Fixtures/xcode/tuist-driftwood, is written in the shapes public Tuist apps commit: a
/// Project.swift that calls a `Project.app(…)` helper, helpers in Tuist/ProjectDescriptionHelpers
/// that build each target with `.target(…)` (the content extension's Info.plist from
/// `.extendingDefault(with:)`, the service extension's from a file), a Workspace.swift, globs with
/// `excluding:`, .lproj strings, a String Catalog, and no .xcodeproj.
struct TuistTests {
    static let fixture = xcodeFixtures.appendingPathComponent("tuist-driftwood")

    /// Files written into a fresh folder; the URL of its Project.swift.
    static func manifest(_ files: [String: String], name: String = #function) throws -> URL {
        let folder = temporaryFolder(name)
        for (path, text) in files {
            let file = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file)
        }
        return folder.appendingPathComponent("Project.swift")
    }

    @Test func manifestAsProject() throws {
        let project = try ProjectKinds.read(Self.fixture.appendingPathComponent("Project.swift"))
        #expect(project.problems.isEmpty, "\(project.problems)")
        #expect(project.name == "Driftwood" && project.kind == "Tuist project" && project.folder.path == Self.fixture.standardizedFileURL.path)
        #expect(project.developmentRegion == "en" && project.knownRegions == ["de", "en"])
        #expect(project.targets.map(\.name) == ["Driftwood", "DriftwoodContent", "DriftwoodService", "DriftwoodKit", "DriftwoodTests"])
        #expect(project.targets.map(\.productType) == ["com.apple.product-type.application", "com.apple.product-type.app-extension",
                                                       "com.apple.product-type.app-extension", "com.apple.product-type.framework",
                                                       "com.apple.product-type.bundle.unit-test"])
        #expect(project.definitionFiles.map(\.lastPathComponent) == ["Project.swift", "Constants.swift", "Project+App.swift", "Target+Notifications.swift"])

        let app = try #require(project.targets.first)
        #expect(app.configurations.map(\.name) == ["Debug", "Release"] && app.defaultConfiguration == "Debug")
        let debug = try #require(app.configuration("Debug")), release = try #require(app.configuration("Release"))
        // The project's settings under the target's; a Bool setting is YES; `debug:` only in Debug.
        #expect(debug["PRODUCT_BUNDLE_IDENTIFIER"] == "com.example.driftwood" && debug["PRODUCT_NAME"] == "Driftwood")
        #expect(debug["SWIFT_VERSION"] == "5.9" && debug["MARKETING_VERSION"] == "3.1" && debug["ENABLE_USER_SCRIPT_SANDBOXING"] == "YES")
        #expect(debug["SWIFT_ACTIVE_COMPILATION_CONDITIONS"] == "DEBUG" && release["SWIFT_ACTIVE_COMPILATION_CONDITIONS"] == nil)
        #expect(debug["INFOPLIST_FILE"] == nil)
        #expect(app.sources == ["Driftwood/Sources/AppDelegate.swift"])
        #expect(app.resources == ["Driftwood/Resources/Assets.xcassets", "Driftwood/Resources/de.lproj/Localizable.strings",
                                  "Driftwood/Resources/en.lproj/Localizable.strings"])
        // Tuist's default keys, then the manifest's (`.string(displayName)` followed from the helper's parameter).
        let appPlist = try #require(app.generatedInfoPlist)
        #expect(appPlist["CFBundleDisplayName"] == .string("Driftwood Tides") && appPlist["CFBundlePackageType"] == .string("APPL"))
        #expect(appPlist["CFBundleIdentifier"] == .string("$(PRODUCT_BUNDLE_IDENTIFIER)") && appPlist["UIBackgroundModes"] == .array([.string("remote-notification")]))

        let content = project.targets[1]
        #expect(content.configuration()?["PRODUCT_BUNDLE_IDENTIFIER"] == "com.example.driftwood.content")
        #expect(content.sources == ["DriftwoodContent/Sources/NotificationViewController.swift"])
        #expect(content.resources == ["DriftwoodContent/Resources/Localizable.xcstrings"])
        let attributes = content.generatedInfoPlist?["NSExtension"]?["NSExtensionAttributes"]
        #expect(content.generatedInfoPlist?["NSExtension"]?["NSExtensionPointIdentifier"] == .string("com.apple.usernotifications.content-extension"))
        #expect(attributes?["UNNotificationExtensionCategory"] == .array([.string("TIDE_ALERT"), .string("SWELL_REPORT")]))
        #expect(attributes?["UNNotificationExtensionInitialContentSizeRatio"] == .number(0.6) && attributes?["UNNotificationExtensionDefaultContentHidden"] == .bool(false))

        let service = project.targets[2]
        #expect(service.configuration()?["INFOPLIST_FILE"] == "DriftwoodService/Info.plist" && service.generatedInfoPlist == nil)
        // `excluding:` leaves the Debug folder out.
        #expect(service.sources == ["DriftwoodService/Sources/NotificationService.swift"])
        var problems: [String] = []
        #expect(XcodeDiscovery.extensionPoint(of: service, in: project, problems: &problems) == "com.apple.usernotifications.service")
        #expect(XcodeDiscovery.extensionPoint(of: content, in: project, problems: &problems) == "com.apple.usernotifications.content-extension")
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test func appFromTheRepositoryFolder() throws {
        // The folder, its Workspace.swift and its Project.swift all lead to the manifest.
        for path in [Self.fixture, Self.fixture.appendingPathComponent("Workspace.swift"), Self.fixture.appendingPathComponent("Project.swift")] {
            #expect(try XcodeDiscovery.projects(at: path) == [Self.fixture.appendingPathComponent("Project.swift").standardizedFileURL])
        }
        let app = try XcodeApp(path: Self.fixture)
        #expect(app.problems.isEmpty, "\(app.problems)")
        #expect(app.app?.name == "Driftwood" && app.displayName == "Driftwood Tides")
        #expect(app.extensions.map(\.target.name) == ["DriftwoodContent", "DriftwoodService"])
        #expect(app.extensions.map(\.point) == [XcodeApp.Extension.content, XcodeApp.Extension.service])
        // The content extension's Info.plist as Tuist writes it (no file); the service's from its file, $(VAR) expanded.
        #expect(app.extensions[0].infoPlistFile == nil && app.extensions[1].infoPlistFile?.lastPathComponent == "Info.plist")
        #expect(app.extensions[1].infoPlist["CFBundleDisplayName"]?.string == "Driftwood Service")
        #expect(app.extensions[0].infoPlist["NSExtension"]?["NSExtensionPrincipalClass"]?.string == "DriftwoodContent.NotificationViewController")
        var problems: [String] = []
        #expect(app.appIcon(problems: &problems)?.set?.light?.lastPathComponent == "AppIcon.png")
        #expect(app.stringsFolders(problems: &problems).map(\.lastPathComponent) == ["Resources", "Resources"])
        #expect(app.sources(problems: &problems).map(\.lastPathComponent) == ["AppDelegate.swift", "NotificationViewController.swift", "NotificationService.swift"])
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test func initOnTheFixture() throws {
        let plan = try ProjectInit(path: Self.fixture, folder: temporaryFolder().appendingPathComponent("pushpreview"))
        // The fixture's content extension has no storyboard: its view is made in code, and said.
        #expect(plan.problems.count == 1 && plan.problems[0].contains("its view is made in code"), "\(plan.problems)")
        #expect(plan.found.contains("target DriftwoodContent: app-extension (com.apple.usernotifications.content-extension)"))
        #expect(plan.found.contains("app name: Driftwood Tides"))
        #expect(plan.files.map(\.path) == ["Templates/SWELL_REPORT.html", "Templates/TIDE_ALERT.html", "categories.json",
                                           "payloads/SWELL_REPORT.apns", "payloads/TIDE_ALERT.apns", "pushpreview.json"])
        let settings = try #require(plan.files.first { $0.path == "pushpreview.json" }?.text)
        #expect(settings.contains("Project.swift") && settings.contains("\"de\""))
    }
}

extension JSONValue {
    /// An object's member, for the tests.
    subscript(_ key: String) -> JSONValue? {
        if case .object(let pairs) = self { return pairs.last { $0.key == key }?.value }
        return nil
    }
}
