import Checked
import ContentStage
import Foundation
import Payload
import ServiceStage
import Styling
import XcodeImport

/// A project folder (DESIGN.md, "Project folder") and its `pushpreview.json` settings.
public struct Project: Sendable {
    public var folder: URL
    public var appName = "PushPreview"
    /// The app icon's images: `appIcon` (a file in the project), else the Xcode app's icon set.
    public var appIcon: AppIconFiles?
    /// Why the icon is the placeholder, said on every mock-up that draws it.
    public var appIconProblem: String?
    /// The folders holding the app's strings: the project's own, then an Xcode app's.
    public var stringsFolders: [URL]
    /// Font files loaded for every page: `fonts` in the settings, and the Xcode app's UIAppFonts.
    public var fonts: [URL] = []
    /// The Xcode project `"xcode"` names, read on every run (nil without one).
    public var xcode: URL?
    /// The files a run reads from the Xcode app (its pbxproj, or XcodeGen spec and xcconfig files,
    /// Info.plists, icon, fonts and strings), so that `gallery --incremental` sees when one changes.
    public var xcodeInputs: [URL] = []
    /// Time budget, media roots, allowed hosts, decryption and enrichment.
    public var service = ServiceSettings()
    public var devices: [String] = []
    public var locales: [String] = []
    public var warnings: [String] = []
    /// Content extensions, categories and per-category view settings.
    public var content = ContentConfiguration()
    /// Whether an `.lproj` gives the app a display name (InfoPlist.strings), so every locale is drawn.
    public var localizesDisplayName = false

    public static let settingsFile = "pushpreview.json"

    public init(folder: URL) throws(ProjectError) {
        self.folder = folder.standardizedFileURL
        stringsFolders = [self.folder]
        localizesDisplayName = Self.stringsFiles(in: self.folder).contains { $0.lastPathComponent == "InfoPlist.strings" }
        let settings = self.folder.appendingPathComponent(Self.settingsFile)
        guard let data = FileManager.default.contents(atPath: settings.path) else {
            content = ContentConfiguration(projectFolder: self.folder, settings: nil, settingsFile: settings.path)
            return
        }
        var extensionPlists: [ContentConfiguration.InfoPlist] = []
        let json: JSONValue
        do { json = try JSONParser.parse([UInt8](data), file: settings.path) } catch { throw ProjectError(message: error.description) }
        guard case .object(let members) = json else { throw ProjectError(message: "\(settings.path): expected an object, got \(json.typeName)") }
        func strings(_ v: JSONValue, _ key: String) throws(ProjectError) -> [String] {
            guard case .array(let items) = v, items.allSatisfy({ $0.string != nil }) else {
                throw ProjectError(message: "\(settings.path): \(key): expected an array of strings, got \(v.compact)")
            }
            return items.compactMap(\.string)
        }
        // `appIcon` and `fonts` may lie anywhere in the repository `"xcode"` names, never outside it.
        let roots = [self.folder] + (json["xcode"]?.string.map { [Repository(around: URL(fileURLWithPath: $0, relativeTo: self.folder).standardizedFileURL).root] } ?? [])
        for (key, value) in members {
            switch key {
            case "appName":
                guard let s = value.string else { throw ProjectError(message: "\(settings.path): appName: expected string, got \(value.typeName)") }
                appName = s
            case "appIcon":
                guard let s = value.string else { throw ProjectError(message: "\(settings.path): appIcon: expected string, got \(value.typeName)") }
                if let url = Confinement.file(s, relativeTo: self.folder, within: roots) { appIcon = AppIconFiles(light: url) }
                else { appIconProblem = "\(settings.path): appIcon: \(s) lies outside the project and the repository xcode names; drawing the placeholder" }
            case "fonts":
                for path in try strings(value, key) {
                    if let url = Confinement.file(path, relativeTo: self.folder, within: roots) { fonts.append(url) }
                    else { warnings.append("\(settings.path): fonts: \(path) lies outside the project and the repository xcode names; not loaded") }
                }
            case "xcode":
                guard let s = value.string, !s.isEmpty else { throw ProjectError(message: "\(settings.path): xcode: expected the path of an .xcodeproj, .xcworkspace, XcodeGen project.yml or folder, got \(value.compact)") }
                xcode = URL(fileURLWithPath: s, relativeTo: self.folder).standardizedFileURL
            case _ where ServiceSettings.keys.contains(key): break
            case "devices": devices = try strings(value, key)
            case "locales": locales = try strings(value, key)
            case "categories": break
            default: warnings.append("\(settings.path): \(key): unknown setting, ignored")
            }
        }
        do { service = try ServiceSettings(settings: json, file: settings.path) } catch { throw ProjectError(message: error.message) }
        if service.mayChange("thread-id") {
            warnings.append("\(settings.path): set or enrich changes thread-id, but a gallery stacks threads by the payloads' own thread-id (each stack's newest is drawn with the changed one)")
        }
        if let xcode { extensionPlists = try readXcode(xcode, settingsFile: settings.path, nameSet: json["appName"] != nil) }
        content = ContentConfiguration(projectFolder: self.folder, settings: json, settingsFile: settings.path, extensionPlists: extensionPlists)
    }

    /// What the Xcode app gives a run where the settings do not: its name, icon, fonts, strings
    /// and content extensions, read where they live; each thing it lacks is a warning.
    private mutating func readXcode(_ path: URL, settingsFile: String, nameSet: Bool) throws(ProjectError) -> [ContentConfiguration.InfoPlist] {
        let app: XcodeApp
        do { app = try XcodeApp(path: path) } catch { throw ProjectError(message: "\(settingsFile): xcode: \(error.description)") }
        var problems = app.problems
        if !nameSet, let name = app.displayName { appName = name }
        if appIcon == nil, appIconProblem == nil {
            var iconProblems: [String] = []
            if let set = app.appIcon(problems: &iconProblems), let light = set.light ?? set.dark {
                appIcon = AppIconFiles(light: light, dark: set.dark, tinted: set.tinted)
            }
            appIconProblem = iconProblems.isEmpty ? nil : iconProblems.joined(separator: "; ") + "; drawing the placeholder"
        }
        fonts += app.fonts(problems: &problems)
        stringsFolders += app.stringsFolders(problems: &problems).filter { $0 != folder }
        let strings = stringsFolders.dropFirst().flatMap(Self.stringsFiles)
        localizesDisplayName = localizesDisplayName || strings.contains { $0.lastPathComponent == "InfoPlist.strings" }
        warnings += problems
        let plists = ([app.app].compactMap { $0 } + app.extensions.map(\.target)).compactMap { $0.configuration()?["INFOPLIST_FILE"] }.filter { !$0.isEmpty }
            .compactMap { var said: [String] = []; return app.file($0, problems: &said) }
        let icons = [appIcon?.light, appIcon?.dark, appIcon?.tinted].compactMap { $0 }
        xcodeInputs = (app.project.definitionFiles + plists + icons + fonts + strings).sorted { $0.path < $1.path }
        return app.extensions.filter(\.isContent).map { ContentConfiguration.InfoPlist(file: $0.infoPlistFile?.path ?? "\($0.target.name)'s generated Info.plist", root: $0.infoPlist) }
    }

    /// What is wrong with the project as a whole (its settings, Info.plists, categories), each
    /// with the severity `validate` gives it: said once per run, not on every mock-up.
    public var issues: [ConfigIssue] {
        warnings.map { ConfigIssue(.warning, file: "", $0) } + content.issues.filter { $0.category == nil } + localizationIssues
    }

    /// Every strings table, stringsdict and catalog of the project and of the Xcode app it
    /// reads, parsed: a broken one would lose its translations without a word. What cannot be
    /// read at all is an error, an entry in a form that is not read a warning.
    public var localizationIssues: [ConfigIssue] {
        var out: [ConfigIssue] = []
        for file in stringsFolders.flatMap(Self.stringsFiles) {
            guard let data = FileManager.default.contents(atPath: file.path) else { continue }
            let bytes = [UInt8](data)
            do {
                switch file.pathExtension {
                case "xcstrings": out += try StringCatalog(bytes, file: file.path).problems.map { ConfigIssue(.warning, file: "", $0) }
                case "stringsdict": out += try StringsDict.parse(bytes, file: file.path).problems.map { ConfigIssue(.warning, file: "", $0) }
                default: _ = try StringsFile.parse(bytes, file: file.path)
                }
            } catch { out.append(ConfigIssue(.error, file: "", "\(error)")) }
        }
        return out
    }

    /// A strings folder's String Catalogs and its `LANG.lproj` tables and stringsdicts, sorted.
    static func stringsFiles(in folder: URL) -> [URL] {
        let fm = FileManager.default
        let names = ((try? fm.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
        let files = names.filter { $0.hasSuffix(".xcstrings") }.map { folder.appendingPathComponent($0) }
            + names.filter { $0.hasSuffix(".lproj") }.flatMap { lproj in
                ((try? fm.contentsOfDirectory(atPath: folder.appendingPathComponent(lproj).path)) ?? []).sorted()
                    .filter { $0.hasSuffix(".strings") || $0.hasSuffix(".stringsdict") }.map { folder.appendingPathComponent("\(lproj)/\($0)") }
            }
        // One linked from outside the folder is not read (the Localizer says so when it meets it).
        return files.filter { Confinement.file($0.lastPathComponent, relativeTo: $0.deletingLastPathComponent(), within: [folder]) != nil }
    }

    /// `payloads/*.apns` and `*.json`, sorted by name.
    public var payloadFiles: [URL] {
        let dir = folder.appendingPathComponent("payloads")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        return names.filter { $0.hasSuffix(".apns") || $0.hasSuffix(".json") }.sorted().map { dir.appendingPathComponent($0) }
    }

    /// A file's path relative to the project folder (the full path when it lies outside).
    public func relativePath(_ file: URL) -> String {
        let path = file.standardizedFileURL.path, root = folder.path + "/"
        return path.hasPrefix(root) ? String(path.dropFirst(root.count)) : path
    }

    /// The project a payload belongs to: the folder above `payloads/`, else the payload's folder.
    public static func folder(containing payload: URL) -> URL {
        let dir = payload.deletingLastPathComponent()
        return dir.lastPathComponent == "payloads" ? dir.deletingLastPathComponent() : dir
    }
}

/// An app icon's image per appearance (the Xcode 14 set's `dark` and `tinted`, when it has them).
public struct AppIconFiles: Sendable, Equatable {
    public var light: URL
    public var dark: URL?
    public var tinted: URL?
    public init(light: URL, dark: URL? = nil, tinted: URL? = nil) { self.light = light; self.dark = dark; self.tinted = tinted }

    public func file(for appearance: Appearance) -> URL { appearance == .dark ? dark ?? light : light }
}

public struct ProjectError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}

/// The repository's own `Templates/` (system chrome and stock templates): `PUSHPREVIEW_HOME`,
/// else found upwards from the executable, else from the source tree this was built from.
public func repositoryTemplates() -> URL? {
    let fm = FileManager.default
    func check(_ root: URL) -> URL? {
        let t = root.appendingPathComponent("Templates")
        return fm.fileExists(atPath: t.appendingPathComponent("system/expanded.html").path) ? t : nil
    }
    if let home = ProcessInfo.processInfo.environment["PUSHPREVIEW_HOME"], let t = check(URL(fileURLWithPath: home)) { return t }
    var dir = URL(fileURLWithPath: CommandLine.arguments.first ?? ".").standardizedFileURL.resolvingSymlinksInPath().deletingLastPathComponent()
    for _ in 0..<6 {
        if let t = check(dir) { return t }
        dir = dir.deletingLastPathComponent()
    }
    return check(URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardizedFileURL)
}
