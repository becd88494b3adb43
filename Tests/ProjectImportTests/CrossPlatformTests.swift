import Foundation
import Payload
import Testing
@testable import ProjectImport
import Formats

/// Issue 39: React Native, Flutter, Capacitor and Expo apps (Tests/Fixtures/crossplatform, each in
/// the shape of the public apps in notes/xplat/REPOS.md, with names and strings of their own). Their
/// categories are registered in TypeScript or Dart, read by tree-sitter in a child process.
/// Found as init finds it, beside the running executable (a sanitizer's scratch folder has none: skipped there, said).
let treeSitter = TreeSitterChild.find()
let treeSitterInstalled = (try? treeSitter.get()) != nil
let needsTreeSitter = "tree-sitter is not beside the test executable (.build/python, which scripts/install-deps installs from PyPI; a sanitizer build's scratch folder has none)"

struct CrossPlatformTests {
    static func fixture(_ name: String, _ test: String = #function) throws -> URL {
        let root = temporaryFolder(test).appendingPathComponent(name)
        try FileManager.default.copyItem(at: repositoryRoot.appendingPathComponent("Tests/Fixtures/crossplatform/\(name)"), to: root)
        return root
    }

    static func categories(_ plan: ProjectInit) throws -> [JSONValue] {
        let text = try #require(plan.files.first { $0.path == "categories.json" }?.text)
        guard case .array(let list)? = try JSONParser.parse(Array(text.utf8), file: "categories.json")["categories"] else { return [] }
        return list
    }

    @Test(.enabled(if: treeSitterInstalled, Comment(rawValue: needsTreeSitter)))
    func reactNativeCategoriesFromTypeScript() throws {
        let root = try Self.fixture("react-native")
        let plan = try ProjectInit(path: root)
        #expect(plan.found.contains("framework: React Native, from package.json: react-native 0.81.4; its iOS app is in ios/"), "\(plan.found)")
        // react-native-notifications: a method returning the category, constants imported from another module.
        #expect(plan.found.contains("category ROOM_MESSAGE: ROOM_REPLY, ROOM_MUTE (src/push/categories.ts:16)"), "\(plan.found)")
        let category = try #require(try Self.categories(plan).first)
        guard case .array(let actions)? = category["actions"] else { Issue.record("no actions"); return }
        // 'background' with authenticationRequired true; react-intl's default messages; 'foreground'.
        #expect(actions[0]["title"]?.string == "Reply" && actions[0]["options"] == .array([.string("authenticationRequired")]))
        #expect(actions[0]["textInput"]?["buttonTitle"]?.string == "Send" && actions[0]["textInput"]?["placeholder"]?.string == "Message the room…")
        #expect(actions[1]["title"]?.string == "Mute for an hour" && actions[1]["options"] == .array([.string("foreground")]))
        // What cannot be followed is said at its line; the other app's payloads are left out, said.
        #expect(plan.problems.contains { $0.hasPrefix("src/push/categories.ts:25:9:") && $0.contains("serverCategories") }, "\(plan.problems)")
        #expect(plan.problems.contains { $0.hasPrefix("Example/: 1 payload file in another app's folder; left out") }, "\(plan.problems)")
        #expect(plan.files.contains { $0.path == "payloads/push.apns" } && !plan.files.contains { $0.path.contains("example") })
    }

    @Test(.enabled(if: treeSitterInstalled, Comment(rawValue: needsTreeSitter)))
    func flutterCategoriesFromDartWithoutGeneratedXcconfig() throws {
        let root = try Self.fixture("flutter")
        let plan = try ProjectInit(path: root)
        #expect(plan.found.contains("framework: Flutter, from pubspec.yaml: the Flutter SDK; its iOS app is in ios/"), "\(plan.found)")
        #expect(plan.found.contains("category ride-offer: ride-accept, ride-decline (lib/notifications/categories.dart:10)"), "\(plan.found)")
        #expect(plan.found.contains("category driver-chat: driver-reply (lib/notifications/categories.dart:22)"), "\(plan.found)")
        let list = try Self.categories(plan)
        let offer = try #require(list.first { $0["identifier"]?.string == "ride-offer" })
        #expect(offer["options"] == .array([.string("hiddenPreviewsShowTitle")]))
        guard case .array(let actions)? = offer["actions"] else { Issue.record("no actions"); return }
        #expect(actions.map { $0["title"]?.string } == ["Take the ride", "Pass"], "the titles from lib/l10n/app_en.arb")
        #expect(actions.map { $0["options"] } == [.array([.string("foreground")]), .array([.string("destructive")])])
        // Generated.xcconfig (flutter pub get): one finding naming the command and what is read without it.
        let generated = plan.problems.filter { $0.contains("Generated.xcconfig") }
        #expect(generated.count == 1 && generated[0].contains("flutter pub get") && generated[0].contains("read without it"), "\(plan.problems)")
        #expect(plan.problems.contains { $0.hasPrefix("lib/notifications/categories.dart:30:") && $0.contains("zoneCategoryId()") }, "\(plan.problems)")
    }

    @Test(.enabled(if: treeSitterInstalled, Comment(rawValue: needsTreeSitter)))
    func capacitorActionTypes() throws {
        let root = try Self.fixture("capacitor")
        let plan = try ProjectInit(path: root)
        #expect(plan.found.contains("framework: Capacitor, from capacitor.config.ts; its iOS app is in ios/App/"), "\(plan.found)")
        let category = try #require(try Self.categories(plan).first)
        #expect(category["identifier"]?.string == "HARVEST_READY" && category["hiddenPreviewsBodyPlaceholder"]?.string == "Harvest news")
        guard case .array(let actions)? = category["actions"] else { Issue.record("no actions"); return }
        // The plugin keeps only the first true option: foreground, not destructive.
        #expect(actions[0]["options"] == .array([.string("foreground")]), "\(actions[0].compact)")
        #expect(actions[1]["textInput"]?["buttonTitle"]?.string == "Save" && actions[1]["textInput"]?["placeholder"]?.string == "Which rows?")
        #expect(actions[2]["options"] == .array([.string("destructive")]))
    }

    /// Without notification targets in targets/ there is nothing to draw before prebuild: explained.
    @Test(.enabled(if: treeSitterInstalled, Comment(rawValue: needsTreeSitter)))
    func expoWithoutIOSIsExplained() throws {
        let root = try Self.fixture("expo")
        let target = root.appendingPathComponent("targets/garden-alerts/expo-target.config.js")
        try Data(try String(contentsOf: target, encoding: .utf8).replacingOccurrences(of: "notification-service", with: "widget").utf8).write(to: target)
        do {
            _ = try ProjectInit(path: root)
            Issue.record("an Expo app without ios/ gave a plan")
        } catch {
            let text = error.description
            #expect(!text.contains("no Xcode project found"))
            #expect(text.contains("an Expo app (package.json: expo ~54.0.0, react-native 0.81.4) with no ios/ folder"), "\(text)")
            #expect(text.contains("npx expo prebuild --platform ios") && text.contains("from app.config.ts"), "\(text)")
            #expect(text.contains("app: Marigold, bundle identifier decided when the config runs (app.config.ts:8:8)"), "\(text)")
            #expect(text.contains("targets/garden-alerts: an @bacons/apple-targets target of type widget; not a notification extension"), "\(text)")
            #expect(text.contains("plugin ./plugins/withGardenWidget: a plugin of the app's own (not run)"), "\(text)")
            #expect(text.contains("category watering: watered, snooze (src/notifications/setup.ts:4)"), "\(text)")
            #expect(text.contains("src/notifications/setup.ts:7:5: the action `\"diary\"` has no buttonTitle"), "\(text)")
        }
    }

    /// An Expo app before prebuild with @bacons/apple-targets notification targets is drawn from
    /// them, as prebuild would make its project: the content extension's Info.plist and code in
    /// targets/, the service extension with the Info.plist prebuild writes, the categories from TS.
    @Test(.enabled(if: treeSitterInstalled, Comment(rawValue: needsTreeSitter)))
    func expoTargetsAreDrawnBeforePrebuild() throws {
        let root = try Self.fixture("expo-targets")
        let plan = try ProjectInit(path: root)
        #expect(plan.found.contains { $0.hasPrefix("framework: Expo, from package.json: expo ~54.0.12, react-native 0.81.4; no ios/ yet: drawn from app.json and targets/") }, "\(plan.found)")
        #expect(plan.found.contains("target RecipeCard: app-extension (com.apple.usernotifications.content-extension)"), "\(plan.found)")
        #expect(plan.found.contains("target rich-media: app-extension (com.apple.usernotifications.service)"), "\(plan.found)")
        #expect(plan.found.contains("category recipe-ready: start-cooking, save (src/notifications.ts:6)"), "\(plan.found)")
        #expect(plan.found.contains("media keys (the service extension downloads and attaches them): image_url"), "\(plan.found)")
        #expect(plan.problems.contains("targets/rich-media: no Info.plist; drawn with the one prebuild writes for notification-service"), "\(plan.problems)")
        // The config's icon image is the app's icon (prebuild makes the catalog from it); targets/_shared is every target's
        // (the content target reads userInfo[RecipeKeys.recipe], a constant declared there).
        #expect(plan.found.contains("app icon: light assets/icon.png"), "\(plan.found)")
        #expect(plan.found.contains("userInfo keys the extensions read: image_url (url), minutes (number), recipe (string)"), "\(plan.found)")
        let settings = try JSONParser.parse(Array(try #require(plan.files.first { $0.path == "pushpreview.json" }?.text).utf8), file: "pushpreview.json")
        #expect(settings["xcode"]?.string == "../app.json", "\(settings)")
        #expect(plan.files.contains { $0.path == "Templates/recipe-ready.html" } && plan.files.contains { $0.path == "payloads/recipe-ready.apns" })
        // Runs read the same config: bundle identifiers as the plugin gives them.
        let app = try XcodeApp(path: root.appendingPathComponent("app.json"))
        #expect(app.project.kind == "Expo config (before prebuild)" && app.bundleID == "org.example.fennel")
        let ids = app.extensions.map { $0.target.configuration()?["PRODUCT_BUNDLE_IDENTIFIER"] }
        #expect(ids == ["org.example.fennel.recipe-card", "org.example.fennel.notification-service"], "\(ids)")
        try #require(app.extensions.count == 2)
        #expect(app.extensions[0].infoPlist["NSExtension"]?["NSExtensionAttributes"]?["UNNotificationExtensionCategory"]?.strings == ["recipe-ready"])
        #expect(app.extensions[1].infoPlist["NSExtension"]?["NSExtensionPrincipalClass"]?.string == "rich-media.NotificationService")
        // The plugin loads a target's config from .js or .json only: a .ts one makes no target, said.
        let variant = try Self.fixture("expo-targets", "expoTargetsVariant")
        let rich = variant.appendingPathComponent("targets/rich-media")
        try FileManager.default.moveItem(at: rich.appendingPathComponent("expo-target.config.js"), to: rich.appendingPathComponent("expo-target.config.ts"))
        let card = variant.appendingPathComponent("targets/recipe-card")
        try FileManager.default.removeItem(at: card.appendingPathComponent("expo-target.config.js"))
        try Data(#"{"type": "notification-content", "name": "RecipeCard", "bundleIdentifier": ".recipe-card"}"#.utf8).write(to: card.appendingPathComponent("expo-target.config.json"))
        try FileManager.default.removeItem(at: variant.appendingPathComponent("assets/icon.png"))
        let json = try ProjectInit(path: variant)
        #expect(json.problems.contains { $0.hasSuffix("app.json: the app's icon ./assets/icon.png does not exist") }, "\(json.problems)")
        #expect(json.found.contains("target RecipeCard: app-extension (com.apple.usernotifications.content-extension)") && !json.found.contains { $0.contains("rich-media") }, "\(json.found)")
        #expect(json.problems.contains("targets/rich-media/expo-target.config.ts: @bacons/apple-targets loads only expo-target.config.js or .json; prebuild makes no target from this folder"), "\(json.problems)")
        // The first Expo fixture's service target, with no Info.plist and its bundle identifier decided at run time.
        let marigold = try ProjectInit(path: try Self.fixture("expo"))
        #expect(marigold.found.contains("target GardenAlerts: app-extension (com.apple.usernotifications.service)"), "\(marigold.found)")
        #expect(marigold.problems.contains { $0.contains("app.config.ts: no fixed ios.bundleIdentifier; the app is drawn as com.example.marigold") }, "\(marigold.problems)")
    }

    @Test func withoutTreeSitterTheFilesAreNamed() throws {
        let root = try Self.fixture("capacitor")
        let files = [root.appendingPathComponent("src/pages/Harvest.tsx")]
        let code = CodeImport.readScripts(files, in: .init(root: root), root: root, parser: .failure(.init(text: "tree-sitter is not installed")))
        #expect(code.categories.isEmpty && code.problems == ["src/pages/Harvest.tsx: registers notification categories, not read: tree-sitter is not installed"], "\(code.problems)")
    }

    // MARK: hostile files: the child is contained

    @Test(.enabled(if: treeSitterInstalled, Comment(rawValue: needsTreeSitter)))
    func aDeepFileIsReadWithoutRecursion() throws {
        var child = try treeSitter.get()
        child.timeout = 30
        let deep = "const CATEGORY = 'deep';\nNotifications.setCategories(" + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + ");\n"
        let parse = try #require(child.parse([(Array(deep.utf8), .typescript)]).first)
        #expect(parse.failure == nil && parse.nodes.count > 100_000)
        let read = ScriptSourceReader.read(parse, file: "deep.ts", kind: .script)
        #expect(read.calls.count == 1 && read.facts.bindings.first?.path == ["CATEGORY"])
    }

    @Test(.enabled(if: treeSitterInstalled, Comment(rawValue: needsTreeSitter)))
    func memoryIsLimited() throws {
        var child = try treeSitter.get()
        // 400,000 nested arrays take ~290 MB to parse; the child may have 128 (RLIMIT_AS): tree-sitter's
        // allocation fails inside the C library and the child dies, and only that file is lost.
        child.memoryMB = 128
        let deep = "x = " + String(repeating: "[", count: 400_000) + String(repeating: "]", count: 400_000)
        let parses = child.parse([(Array(deep.utf8), .typescript), (Array("const A = 'a';\n".utf8), .typescript)])
        #expect(parses[0].failure.map { $0.contains("128 MB") || $0.contains("killed (signal") } == true, "\(parses[0].failure ?? "parsed")")
        #expect(parses[0].failure?.hasSuffix("; the file is not read") == true || parses[0].failure?.contains("128 MB") == true)
        #expect(parses[1].failure == nil && parses[1].nodes.count > 2, "the next file is still read")
    }

    @Test(.enabled(if: treeSitterInstalled, Comment(rawValue: needsTreeSitter)))
    func timeIsLimited() throws {
        var child = try treeSitter.get()
        child.fileSeconds = 0.5
        // Printable noise that tree-sitter's error recovery spends seconds on.
        var state: UInt64 = 39
        let alphabet = Array("{([<;'\"`abc=+ \n".utf8)
        let noise = (0..<1_500_000).map { _ -> UInt8 in state = state &* 6364136223846793005 &+ 1442695040888963407; return alphabet[Int(state >> 59) % alphabet.count] }
        let started = Date()
        let parses = child.parse([(noise, .typescript), (Array("const A = 'a';\n".utf8), .typescript)])
        #expect(parses[0].failure == "tree-sitter gave up after 0.5 s", "\(parses[0].failure ?? "parsed in \(Date().timeIntervalSince(started)) s")")
        #expect(parses[1].failure == nil && parses[1].nodes.count > 2, "the next file is still read")
        #expect(Date().timeIntervalSince(started) < 10)

        // The parent's deadline is the backstop: the child's group is killed.
        child.fileSeconds = 60
        child.timeout = 1
        let killed = Date()
        let stopped = try #require(child.parse([(noise, .typescript)]).first)
        #expect(stopped.failure == "tree-sitter took over 1 s; the file is not read", "\(stopped.failure ?? "parsed")")
        #expect(Date().timeIntervalSince(killed) < 5)
    }

    @Test(.enabled(if: treeSitterInstalled, Comment(rawValue: needsTreeSitter)))
    func notSourceFilesAreRefused() throws {
        let child = try treeSitter.get()
        let parses = child.parse([([0x66, 0x00, 0x67], .dart), ([0xff, 0xfe, 0x41], .typescript)])
        #expect(parses.map(\.failure) == ["holds NUL bytes: not a source file", "not UTF-8 (byte 0): not a source file"])
    }
}
