import ConfinedFiles
import Formats
import Foundation

/// An Expo app before `npx expo prebuild`, read as the project prebuild would make: the app from
/// its config (app.json / app.config.*, read, never run) and a target for each `targets/NAME`
/// folder of `@bacons/apple-targets` whose type is a notification extension. As the plugin does
/// (EvanBacon/expo-apple-targets@2c5d8601, packages/apple-targets/src): the folder is the target's,
/// every file in it but its Info.plist and config (with-xcode-changes.ts:450-480); the bundle
/// identifier is the config's (a leading `.` appended to the app's), else the app's + `.` + the
/// type (with-widget.ts:295-316); a missing Info.plist is the one prebuild writes for the type
/// (with-widget.ts:258-293, target.ts:444-454, 537-548); `targets/_shared/` is every target's; the
/// app's icon is the config's `ios.icon` or `icon` image, which prebuild makes the asset catalog of.
public enum ExpoTargetsKind: ProjectKind {
    public static let name = "Expo config (before prebuild)"
    public static let manifestName: String? = nil
    static let configNames = ["app.json", "app.config.ts", "app.config.js", "app.config.mjs", "app.config.cjs"]
    public static func isProject(_ path: URL) -> Bool { configNames.contains(path.lastPathComponent) }

    /// The extension point each notification type of the plugin makes (target.ts:36-44).
    static let points = ["notification-content": XcodeApp.Extension.content, "notification-service": XcodeApp.Extension.service]

    /// The config file to read an Expo app at `folder` from, when its `targets/` holds a notification target.
    public static func config(at folder: URL, in repository: Repository) -> URL? {
        let targets = folder.appendingPathComponent("targets")
        // A first look at the configs' text; ExpoConfig reads their `type` when the project is read.
        let hasNotificationTarget = repository.names(targets).contains { name in
            let folder = targets.appendingPathComponent(name)
            return repository.names(folder).contains { file in
                ["expo-target.config.js", "expo-target.config.json"].contains(file) && (repository.contents(folder.appendingPathComponent(file), limit: 1 << 20)
                    .map { String(decoding: $0, as: UTF8.self).contains("notification-") } ?? false)
            }
        }
        guard hasNotificationTarget, let file = configNames.first(where: { repository.exists(folder.appendingPathComponent($0)) }) else { return nil }
        return folder.appendingPathComponent(file)
    }

    public static func read(_ path: URL, in repository: Repository?) throws(XcodeProject.ReadError) -> XcodeProject {
        let folder = path.deletingLastPathComponent().standardizedFileURL
        let repository = repository ?? Repository(around: folder)
        guard let shell = CrossPlatformApp.detect(at: folder, in: repository) else {
            throw XcodeProject.ReadError(description: "\(path.path): not an Expo app's config (no package.json depending on expo beside it)")
        }
        let config = ExpoConfig.read(shell, in: repository)
        let appName = config.name ?? folder.lastPathComponent
        let appID = config.bundleIdentifier ?? "com.example.\(appName.filter { $0.isLetter || $0.isNumber }.lowercased())"
        var project = XcodeProject(bundle: path, name: appName, repository: repository)
        project.definitionFiles = config.files.map { folder.appendingPathComponent($0) }
        project.knownRegions = ["en"]
        project.developmentRegion = "en"
        project.problems = config.problems
        project.appIconImages = config.icon
        if config.bundleIdentifier == nil {
            project.problems.append("\(path.path): no fixed ios.bundleIdentifier; the app is drawn as \(appID) (prebuild takes the one the config gives when it runs)")
        }
        var app = XcodeProject.Target(id: "app", name: appName, productType: "com.apple.product-type.application")
        app.configurations = [.init(name: "Debug", settings: ["PRODUCT_NAME": appName, "PRODUCT_BUNDLE_IDENTIFIER": appID, "GENERATE_INFOPLIST_FILE": "YES",
                                                              "INFOPLIST_KEY_CFBundleDisplayName": appName])]
        project.targets.append(app)
        // targets/_shared: files the plugin adds to every target (with-xcode-changes.ts:442-446, 507-551).
        let shared = SynchronizedFolder.files(folder.appendingPathComponent("targets/_shared"), in: repository, excluding: [])
        for target in config.targets {
            guard let point = points[target.type] else { continue }
            let name = target.name ?? target.folder
            let relative = "targets/\(target.folder)"
            let id = target.bundleIdentifier.map { $0.hasPrefix(".") ? appID + $0 : $0 } ?? "\(appID).\(target.type)"
            var t = XcodeProject.Target(id: relative, name: name, productType: "com.apple.product-type.app-extension")
            var settings = ["PRODUCT_NAME": name, "PRODUCT_MODULE_NAME": name, "PRODUCT_BUNDLE_IDENTIFIER": id]
            let files = SynchronizedFolder.files(folder.appendingPathComponent(relative), in: repository, excluding: []) { path, _ in
                path == "Info.plist" || path.hasPrefix("expo-target.config.")
            }
            t.sources = files.sources.map { "\(relative)/\($0)" } + shared.sources.map { "targets/_shared/\($0)" }
            t.resources = files.resources.map { "\(relative)/\($0)" }
            if repository.exists(folder.appendingPathComponent("\(relative)/Info.plist")) {
                settings["INFOPLIST_FILE"] = "\(relative)/Info.plist"
            } else {
                t.generatedInfoPlist = defaultInfoPlist(point)
                project.problems.append("\(relative): no Info.plist; drawn with the one prebuild writes for \(target.type)"
                    + (point == XcodeApp.Extension.content ? " (its category is the placeholder myNotificationCategory: write the Info.plist with yours)" : ""))
            }
            t.configurations = [.init(name: "Debug", settings: settings)]
            project.targets.append(t)
        }
        return project
    }

    /// The Info.plist @bacons/apple-targets writes for a notification target with none (target.ts:444-454, 537-548).
    static func defaultInfoPlist(_ point: String) -> JSONValue {
        let content = point == XcodeApp.Extension.content
        let attributes: JSONValue = content
            ? .object([("UNNotificationExtensionCategory", .string("myNotificationCategory")), ("UNNotificationExtensionInitialContentSizeRatio", .number(1))])
            : .object([("NSExtensionActivationRule", .string("TRUEPREDICATE"))])
        return .object([("NSExtension", .object([
            ("NSExtensionAttributes", attributes),
            ("NSExtensionPrincipalClass", .string(content ? "$(PRODUCT_MODULE_NAME).NotificationViewController" : "$(PRODUCT_MODULE_NAME).NotificationService")),
            ("NSExtensionPointIdentifier", .string(point)),
        ]))])
    }
}

extension XcodeProject {
    /// A project with no targets yet, for a kind that makes its targets itself.
    init(bundle: URL, name: String, repository: Repository) {
        self.bundle = bundle.standardizedFileURL
        self.name = name
        self.repository = repository
    }
}
