import Foundation
import Payload

/// `pushpreview init`: the project folder for an Xcode app. It points at the Xcode project
/// (`"xcode"`, relative), so every run reads the app's Info.plists, strings, catalogs, icon and
/// fonts where they live, and holds only what the project cannot say at run time: the categories
/// imported from code, a starter template per content-extension category (from its storyboard
/// when it has one), and a sample payload per category. Same inputs, same bytes.
public struct ProjectInit {
    public var app: XcodeApp
    public var folder: URL
    /// Path relative to `folder` → contents, sorted by path.
    public var files: [(path: String, text: String)] = []
    /// What was found, a line each, for the person running init.
    public var found: [String] = []
    /// What could not be read or resolved, each with its file (and line, where there is one).
    public var problems: [String] = []

    /// `folder`: where the project folder goes (default: `pushpreview/` beside `path`).
    public init(path: URL, folder: URL? = nil) throws(XcodeProject.ReadError) {
        app = try XcodeApp(path: path)
        let path = path.standardizedFileURL
        self.folder = (folder ?? (["xcodeproj", "xcworkspace", "swift"].contains(path.pathExtension) ? path.deletingLastPathComponent() : path)
            .appendingPathComponent("pushpreview")).standardizedFileURL
        problems = app.problems
        let project = app.project
        found.append("project: \(relative(project.bundle))")
        for target in project.targets {
            let point = app.extensions.first { $0.target.id == target.id }?.point
            found.append("target \(target.name): \(target.productType.replacingOccurrences(of: "com.apple.product-type.", with: ""))" + (point.map { " (\($0))" } ?? ""))
        }
        if let name = app.displayName { found.append("app name: \(name)") }
        if let icon = app.appIcon(problems: &problems) {
            let kinds = [("light", icon.light), ("dark", icon.dark), ("tinted", icon.tinted)].filter { $0.1 != nil }
            found.append("app icon: " + kinds.map { "\($0.0) \(relative($0.1!))" }.joined(separator: ", "))
        }
        let fonts = app.fonts(problems: &problems)
        if !fonts.isEmpty { found.append("fonts: " + fonts.map(relative).joined(separator: ", ")) }
        let locales = Self.locales(project)
        found.append("locales: " + locales.joined(separator: ", ") + " (the first is the development region)")
        let strings = app.stringsFolders(problems: &problems)
        if !strings.isEmpty { found.append("strings: " + strings.map(relative).joined(separator: ", ")) }

        // Categories from the app's and the extensions' code.
        let code = CodeImport.read(app.sources(problems: &problems), root: app.root)
        problems += code.problems
        for category in code.categories {
            found.append("category \(category.identifier): " + (category.actions.isEmpty ? "no actions" : category.actions.map(\.identifier).joined(separator: ", ")) + " (\(category.sites.joined(separator: ", ")))")
        }
        var settings: [(key: String, value: JSONValue)] = [("xcode", .string(relative(project.bundle, from: self.folder)))]
        if locales.count > 1 { settings.append(("locales", .array(locales.map(JSONValue.string)))) }
        files.append(("pushpreview.json", JSONValue.object(settings).pretty))
        if !code.categories.isEmpty { files.append(("categories.json", code.categoriesJSON())) }

        // A template per category a content extension claims; a payload per category.
        // Each catalog once: a catalog the app and its extensions share is not two sets of colours.
        var catalogs = Set<String>()
        let colors = AssetColors.read(catalogs: ([app.app].compactMap { $0 } + app.extensions.map(\.target)).flatMap(\.resources)
            .filter { $0.hasSuffix(".xcassets") && catalogs.insert($0).inserted }.compactMap { app.file($0, problems: &problems) }, problems: &problems)
        var claimed: [String] = []
        for ext in app.extensions where ext.isContent {
            let attributes = (ext.infoPlist["NSExtension"] as? [String: Any])?["NSExtensionAttributes"] as? [String: Any] ?? [:]
            let categories = (attributes["UNNotificationExtensionCategory"] as? [String]) ?? [(attributes["UNNotificationExtensionCategory"] as? String)].compactMap { $0 }
            let extensionCode = CodeImport.read(ext.target.sources.compactMap { app.file($0, problems: &problems) }, root: app.root)
            let template = starterTemplate(ext, bindings: extensionCode.outletBindings, colors: colors)
            for category in categories {
                guard Self.isFileName(category) else { problems.append("\(ext.target.name): category \"\(category)\" cannot name a template file; write Templates/… and set its template in categories.json"); continue }
                files.append(("Templates/\(category).html", template))
                claimed.append(category)
            }
        }
        let hasService = app.extensions.contains { !$0.isContent }
        let userInfoKeys = CodeImport.read(app.extensions.flatMap(\.target.sources).compactMap { app.file($0, problems: &problems) }, root: app.root).userInfoKeys
        if !userInfoKeys.isEmpty { found.append("userInfo keys the extensions read: " + userInfoKeys.joined(separator: ", ")) }
        var seen = Set<String>()
        let categories = (code.categories.map(\.identifier) + claimed).filter { seen.insert($0).inserted && Self.isFileName($0) }.sorted()
        for category in categories.isEmpty ? [nil] : categories.map(Optional.some) {
            files.append(("payloads/\(category ?? "sample").apns", Self.samplePayload(category: category, appName: app.displayName ?? project.name,
                                                                                        mutable: hasService, userInfoKeys: userInfoKeys)))
        }
        files.sort { $0.path < $1.path }
    }

    /// The content extension's storyboard as a template, else a starter that says the view is
    /// drawn in code.
    mutating func starterTemplate(_ ext: XcodeApp.Extension, bindings: [String: String], colors: [String: NamedColor]) -> String {
        let storyboardName = (ext.infoPlist["NSExtension"] as? [String: Any])?["NSExtensionMainStoryboard"] as? String
        if let storyboardName {
            let candidates = ext.target.resources.filter { $0.hasSuffix("/\(storyboardName).storyboard") || $0 == "\(storyboardName).storyboard" }
            // The Base localization first, as the storyboard's layout lives there.
            if let path = candidates.first(where: { $0.contains("Base.lproj/") }) ?? candidates.first, let file = app.file(path, problems: &problems) {
                do {
                    let converted = try StoryboardTemplate.convert(file, bindings: bindings, colors: colors)
                    problems += converted.problems
                    found.append("storyboard \(relative(file)) → template, outlets: " + (converted.outlets.isEmpty ? "none" : converted.outlets.joined(separator: ", ")))
                    return converted.html
                } catch { problems.append(error.description) }
            } else {
                problems.append("\(ext.target.name): NSExtensionMainStoryboard is \(storyboardName), which is not among its resources; a starter template is written")
            }
        }
        let sources = ext.target.sources.filter { $0.hasSuffix(".swift") || $0.hasSuffix(".m") }
        return """
        {{! \(ext.target.name) draws its view in code (\(sources.joined(separator: ", "))).
            A starter: make it look like that view, with Mustache over the notification —
            title, subtitle, body, userInfo.KEY, attachment.url (each in double braces). }}
        <style>
          .starter { padding: 16px; display: flex; flex-direction: column; gap: 6px; color: var(--label); }
          .starter-title { font: var(--font-headline); margin: 0; }
          .starter-body { font: var(--font-body); margin: 0; }
          .starter-image { display: block; width: 100%; border-radius: 8px; }
        </style>
        <div class="starter">
          {{#attachment}}{{#url}}<img class="starter-image" src="{{url}}" alt="" style="aspect-ratio: {{width}} / {{height}}">{{/url}}{{/attachment}}
          <p class="starter-title">{{title}}</p>
          <p class="starter-body">{{body}}</p>
        </div>

        """
    }

    /// A sample of `category` (nil: the app's plain notification) with the keys its extensions read.
    static func samplePayload(category: String?, appName: String, mutable: Bool, userInfoKeys: [String]) -> String {
        var aps: [(key: String, value: JSONValue)] = [("alert", .object([("title", .string(appName)),
                                                                          ("body", .string("A sample \(category.map { "\($0) " } ?? "")notification: edit this payload to show your own."))]))]
        if let category { aps.append(("category", .string(category))) }
        if mutable { aps.append(("mutable-content", .number(1))) }
        aps.append(("sound", .string("default")))
        // a.b.c → {"a": {"b": {"c": "sample c"}}}, keys sharing a prefix in one object.
        func members(_ paths: [[String]]) -> [(key: String, value: JSONValue)] {
            let groups = Dictionary(grouping: paths.filter { !$0.isEmpty }, by: { $0[0] })
            return groups.keys.sorted().map { key in
                let rest = groups[key]!.map { Array($0.dropFirst()) }.filter { !$0.isEmpty }
                return (key, rest.isEmpty ? .string("sample \(key)") : .object(members(rest)))
            }
        }
        let custom = members(userInfoKeys.filter { $0 != "aps" && !$0.hasPrefix("aps.") }.map { $0.split(separator: ".").map(String.init) })
        return JSONValue.object([("aps", .object(aps))] + custom).pretty
    }

    /// The project's regions as locale names (`pt_BR` is `pt-BR`, the old `English` is `en`),
    /// the development one first, Base left out, each once.
    static func locales(_ project: XcodeProject) -> [String] {
        let legacy = ["english": "en", "french": "fr", "german": "de", "japanese": "ja", "spanish": "es", "italian": "it", "dutch": "nl"]
        func name(_ region: String) -> String { legacy[region.lowercased()] ?? region.replacingOccurrences(of: "_", with: "-") }
        let development = name(project.developmentRegion ?? "en")
        var seen: Set<String> = [development, "Base"]
        return [development] + project.knownRegions.map(name).sorted().filter { seen.insert($0).inserted }
    }

    static func isFileName(_ s: String) -> Bool { !s.isEmpty && !s.contains("/") && !s.hasPrefix(".") && !s.contains("\0") }

    func relative(_ url: URL) -> String { relative(url, from: app.root) }

    /// `url`'s path from `base` (`../Harbor.xcodeproj`), both made absolute and symlinks resolved.
    func relative(_ url: URL, from base: URL) -> String {
        let to = url.standardizedFileURL.resolvingSymlinksInPath().pathComponents, from = base.standardizedFileURL.resolvingSymlinksInPath().pathComponents
        let common = zip(to, from).prefix { $0 == $1 }.count
        let parts = Array(repeating: "..", count: from.count - common) + to.dropFirst(common)
        return parts.isEmpty ? "." : parts.joined(separator: "/")
    }
}
