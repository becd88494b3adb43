import Checked
import ConfinedFiles
import Foundation
import Payload
import Formats

/// An Expo app with no ios/ folder (continuous native generation): its Xcode project is what
/// `npx expo prebuild` makes from app.json / app.config.{js,ts} and their config plugins. The
/// config is read, never run (a JS config through tree-sitter, as the app's code is); the known
/// notification plugins say which extension prebuild would add; and the explanation names what to
/// run and what to point init at.
struct ExpoConfig {
    var configFile: String?
    var name: String?
    var bundleIdentifier: String?
    /// Where the config decides the bundle identifier at run time (an environment variable, a variant).
    var bundleIdentifierAtRunTime: String?
    /// Plugin names as the config lists them.
    var plugins: [String] = []
    var problems: [String] = []
    /// `@bacons/apple-targets` targets: their folder, `type`, and the `name` and `bundleIdentifier` their config gives.
    var targets: [(folder: String, type: String, name: String?, bundleIdentifier: String?)] = []
    /// The app's icon images (`ios.icon`, else `icon`), relative to the app's folder: one image, or one per appearance.
    var icon: (light: String?, dark: String?, tinted: String?)?
    /// The files the config was read from, relative to the app's folder.
    var files: [String] = []

    /// What each known plugin adds to the project prebuild makes (notes/xplat/EXPO.md).
    static let knownPlugins: [String: String] = [
        "expo-notifications": "no extension (it sets aps-environment, the notification sounds and the remote-notification background mode)",
        "onesignal-expo-plugin": "a service extension target OneSignalNotificationServiceExtension (its NotificationService from the plugin's template, or the file its iosNSEFilePath prop names)",
        "expo-notification-service-extension-plugin": "a service extension target NotificationServiceExtension from the file its iosNSEFilePath prop names",
        "@bacons/apple-targets": "a target for each folder of targets/ with an expo-target.config.js (its sources and Info.plist are in that folder)",
        "@notifee/react-native": "nothing for notifications on iOS",
        "@react-native-firebase/messaging": "no extension (push entitlements only)",
    ]

    static func read(_ app: CrossPlatformApp, in repository: Repository) -> ExpoConfig {
        var config = ExpoConfig()
        let names = Set(repository.names(app.root))
        var objects: [CodeCall] = []
        var resolver = CodeResolver([])
        if names.contains("app.json"), let bytes = repository.contents(app.root.appendingPathComponent("app.json"), limit: 4 << 20) {
            config.configFile = "app.json"
            config.files.append("app.json")
            do {
                let json = try JSONParser.parse(bytes, file: "app.json")
                let expo = json["expo"] ?? json
                config.name = expo["name"]?.string
                config.bundleIdentifier = expo["ios"]?["bundleIdentifier"]?.string
                if let icon = expo["ios"]?["icon"] ?? expo["icon"] {
                    config.icon = icon.string.map { ($0, nil, nil) } ?? (icon["light"]?.string ?? icon["any"]?.string, icon["dark"]?.string, icon["tinted"]?.string)
                }
                if case .array(let items)? = expo["plugins"] {
                    for item in items {
                        if let s = item.string { config.plugins.append(s) } else if case .array(let pair) = item, let s = pair.first?.string { config.plugins.append(s) }
                    }
                }
            } catch { config.problems.append("app.json: \(error)") }
        }
        let scripted = ["app.config.ts", "app.config.js", "app.config.mjs", "app.config.cjs"].filter(names.contains)
        var targetConfigs: [(folder: String, file: String)] = []
        let targetsFolder = app.root.appendingPathComponent("targets")
        for folder in repository.names(targetsFolder).sorted() {
            let names = repository.names(targetsFolder.appendingPathComponent(folder)).filter { $0.hasPrefix("expo-target.config.") }.sorted()
            // The plugin loads `expo-target.config.@(json|js)` only (config-plugin.ts:38 in EvanBacon/expo-apple-targets@2c5d8601).
            if names.contains("expo-target.config.js") { targetConfigs.append((folder, "expo-target.config.js")) }
            else if names.contains("expo-target.config.json") {
                let file = "targets/\(folder)/expo-target.config.json"
                config.files.append(file)
                do {
                    let json = try JSONParser.parse(try repository.read(app.root.appendingPathComponent(file), limit: 1 << 20), file: file)
                    if let type = json["type"]?.string { config.targets.append((folder, type, json["name"]?.string, json["bundleIdentifier"]?.string)) }
                    else { config.problems.append("\(file): no \"type\"; prebuild makes no target from it") }
                } catch { config.problems.append("\(error)") }
            } else if let other = names.first {
                config.problems.append("targets/\(folder)/\(other): @bacons/apple-targets loads only expo-target.config.js or .json; prebuild makes no target from this folder")
            }
        }
        if !scripted.isEmpty || !targetConfigs.isEmpty {
            switch TreeSitterChild.find() {
            case .failure(let why): config.problems.append("\((scripted + targetConfigs.map { "targets/\($0.folder)/\($0.file)" }).joined(separator: ", ")): not read: \(why.text)")
            case .success(let child):
                let files = scripted.map { app.root.appendingPathComponent($0) } + targetConfigs.map { targetsFolder.appendingPathComponent("\($0.folder)/\($0.file)") }
                var sources: [(bytes: [UInt8], language: TreeSitterChild.Language)] = []
                var read: [(String, [UInt8])] = []
                for f in files {
                    guard let b = repository.contents(f, limit: 1 << 20) else { config.problems.append("\(f.lastPathComponent): cannot be read"); continue }
                    read.append((f.path.replacingOccurrences(of: app.root.path + "/", with: ""), b))
                    config.files.append(read.last!.0)
                    sources.append((b, f.pathExtension.hasPrefix("t") ? .typescript : .javascript))
                }
                let parses = child.parse(sources)
                var facts: [SourceFacts] = []
                for (k, parse) in parses.enumerated() {
                    let r = ScriptSourceReader.read(parse, file: read[k].0, kind: .script)
                    facts.append(r.facts)
                    config.problems += r.facts.problems
                    if read[k].0.hasPrefix("targets/") {
                        let folder = read[k].0.split(separator: "/")[1]
                        for o in r.configObjects {
                            guard let t = o["type"], case .text(let type) = t else { continue }
                            func text(_ key: String) -> String? { if case .text(let s)? = o[key] { return s }; return nil }
                            config.targets.append((String(folder), type, text("name"), text("bundleIdentifier")))
                        }
                    } else {
                        config.configFile = read[k].0 + (config.configFile.map { " (over \($0))" } ?? "")
                        objects += r.configObjects
                    }
                }
                resolver = CodeResolver(facts)
            }
        }
        for o in objects {
            let fields = Dictionary(zip(o.labels, o.arguments), uniquingKeysWith: { a, _ in a })
            if let id = fields["bundleIdentifier"] {
                if let s = resolver.text(id) { config.bundleIdentifier = s } else {
                    config.bundleIdentifierAtRunTime = "\(o.site)"
                    config.problems.append("\(o.site): the bundle identifier is decided when the config runs (\(id.sketch)); prebuild gives the one of the variant its environment selects")
                }
            }
            if let n = fields["name"], let s = resolver.text(n), config.name == nil { config.name = s }
            if let i = fields["icon"], let s = resolver.text(i) { config.icon = (s, nil, nil) }
            if let p = fields["plugins"], let items = resolver.list(p) {
                for item in items {
                    if let s = resolver.text(item) { config.plugins.append(s) } else if let pair = resolver.list(item), let s = resolver.text(pair.first) { config.plugins.append(s) }
                }
            }
        }
        var seen = Set<String>()
        config.plugins = config.plugins.filter { seen.insert($0).inserted }
        return config
    }

    /// What init says of an Expo app with no ios/ folder, as one explanation.
    func explanation(_ app: CrossPlatformApp, path: String, categories: CodeImport) -> String {
        var lines = ["\(path): an Expo app (\(app.evidence)) with no ios/ folder: its Xcode project is made by `npx expo prebuild --platform ios` from \(configFile ?? "its config") and is not in the repository (continuous native generation), so there is no Xcode project to read yet."]
        lines.append("  app: " + (name ?? "(no name in the config)") + ", bundle identifier " + (bundleIdentifier ?? bundleIdentifierAtRunTime.map { "decided when the config runs (\($0))" } ?? "not set (ios.bundleIdentifier; prebuild asks for one)"))
        if plugins.isEmpty { lines.append("  config plugins: none") }
        for plugin in plugins {
            if let what = Self.knownPlugins[plugin] { lines.append("  plugin \(plugin): prebuild adds \(what)") }
            else if plugin.hasPrefix(".") { lines.append("  plugin \(plugin): a plugin of the app's own (not run); what it adds is seen only after prebuild") }
        }
        let notification = targets.filter { $0.type.hasPrefix("notification") }
        for t in targets { lines.append("  targets/\(t.folder): an @bacons/apple-targets target of type \(t.type)" + (t.type.hasPrefix("notification") ? ": prebuild makes it a \(t.type == "notification-content" ? "content" : "service") extension from targets/\(t.folder)" : "; not a notification extension")) }
        if notification.isEmpty, !plugins.contains(where: { ["onesignal-expo-plugin", "expo-notification-service-extension-plugin"].contains($0) }) {
            lines.append("  no notification extension: notifications are shown as iOS shows them without one")
        }
        for c in categories.categories {
            lines.append("  category \(c.identifier): " + (c.actions.isEmpty ? "no actions" : c.actions.map(\.identifier).joined(separator: ", ")) + " (\(c.sites.joined(separator: ", ")))")
        }
        for p in problems + categories.problems { lines.append("  not read: \(p)") }
        lines.append("Run `npx expo prebuild --platform ios` in \(path) (it writes ios/ and needs the app's node_modules: `npm install` first), then `pushpreview init \(path)`: it reads ios/ and these categories.")
        return lines.joined(separator: "\n")
    }
}
