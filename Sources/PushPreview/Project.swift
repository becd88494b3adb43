import Checked
import ConfinedFiles
import ContentStage
import Diagnostics
import Foundation
import Payload
import ServiceStage
import Styling
import ProjectImport
import Formats

/// A project folder (DESIGN.md, "Project folder") and its `pushpreview.json` settings.
public struct Project: Sendable {
    public var folder: URL { files.url }
    /// The project folder, held open: its settings, payloads, templates, keys and app group are
    /// read (and `received/` written) beneath it.
    public let files: ConfinedFolder
    /// Where the project's paths may lead: the project folder and the repository `"xcode"` names.
    public private(set) var inputs: ConfinedRoots
    public var appName = "PushPreview"
    /// The app's bundle ID (`bundleId`, else the Xcode app's `PRODUCT_BUNDLE_IDENTIFIER`): the
    /// apns-topic `serve`'s endpoint requires.
    public var bundleID: String?
    /// The app icon's images: `appIcon` (a file in the project), else the Xcode app's icon set.
    public var appIcon: AppIconFiles?
    /// Why the icon is the placeholder: said by validate, and on every mock-up that draws it.
    public var appIconProblem: Diagnostic?
    /// The folders holding the app's strings: the project's own, then an Xcode app's (each held
    /// open beneath the project or the repository).
    public var stringsFolders: [ConfinedFolder]
    /// Font files loaded for every page: `fonts` in the settings, and the Xcode app's UIAppFonts.
    public var fonts: [URL] = []
    /// `"wallpaper"`: the picture behind the banner, the Lock Screen and stacks, in the project or
    /// the repository `xcode` names (`--wallpaper` overrides it).
    public var wallpaper: URL?
    /// The Xcode project `"xcode"` names, read on every run (nil without one).
    public var xcode: URL?
    /// The files a run reads from the Xcode app (its pbxproj, or XcodeGen spec and xcconfig files,
    /// Info.plists, icon, fonts and strings), so that `gallery --incremental` sees when one changes.
    public var xcodeInputs: [URL] = []
    /// The Xcode app as read, for a worker to send to its supervisor.
    var xcodeReading: XcodeReading?
    /// Time budget, media roots, allowed hosts, decryption and enrichment.
    public var service: ServiceSettings { serviceFolders.settings }
    /// The folders the service stage reads and writes (media roots, keys, the cache), held open.
    public private(set) var serviceFolders: ServiceFolders
    public var devices: [String] = []
    public var locales: [String] = []
    /// iOS versions drawn when `--ios` is not given (`"ios": ["26", "18"]`).
    public var iosVersions: [IOSVersion] = []
    /// What reading the settings and the Xcode app found, said once per run.
    public var warnings: [Diagnostic] = []
    /// Content extensions, categories and per-category view settings.
    public var content = ContentConfiguration()
    /// Whether an `.lproj` gives the app a display name (InfoPlist.strings), so every locale is drawn.
    public var localizesDisplayName = false

    public static let settingsFile = "pushpreview.json"
    /// The keys of pushpreview.json read here and by `ServiceSettings` (any other is warned of).
    public static let settingKeys = ServiceSettings.keys.union(["$schema", "appName", "bundleId", "appIcon", "fonts", "xcode", "devices", "locales", "ios", "categories", "wallpaper", "codeChanges"])

    public init(folder: URL) throws(ProjectError) {
        try self.init(folder: folder) { (path, file) throws(ProjectError) in try XcodeReading(path, settingsFile: file) }
    }

    /// `xcode`: how the Xcode app is read (here, or already by a worker).
    init(folder: URL, xcode reader: (URL, String) throws(ProjectError) -> XcodeReading) throws(ProjectError) {
        do { files = try ConfinedFolder(trusted: folder.standardizedFileURL) } catch {
            throw ProjectError(Diagnostic(.error, code: .path, file: folder.standardizedFileURL.path, "no such project folder (pushpreview init makes one from an Xcode project)"))
        }
        inputs = ConfinedRoots([files])
        serviceFolders = ServiceFolders(project: files, settings: ServiceSettings())
        stringsFolders = [files]
        localizesDisplayName = Self.namesApp(Self.stringsFiles(in: files))
        let settings = self.folder.appendingPathComponent(Self.settingsFile)
        let data: [UInt8]
        do { data = try files.read(Self.settingsFile, limit: 4 << 20) } catch {
            guard error.isMissing else { throw ProjectError(Diagnostic(.error, code: .settings, file: settings.path, error.why)) }
            content = ContentConfiguration(project: files, settings: nil, settingsFile: settings.path)
            return
        }
        var extensionPlists: [ContentConfiguration.InfoPlist] = []
        let json: JSONValue
        do { json = try JSONParser.parse(data, file: settings.path) } catch { throw ProjectError(error.diagnostic) }
        func fail(_ key: String?, _ message: String) -> ProjectError { ProjectError(Diagnostic(.error, code: .settings, file: settings.path, keyPath: key, message)) }
        func warn(_ key: String, _ message: String, code: Diagnostic.Code = .settings) { warnings.append(Diagnostic(.warning, code: code, file: settings.path, keyPath: key, message)) }
        guard case .object(let members) = json else { throw fail(nil, "expected an object, got \(json.typeName)") }
        func strings(_ v: JSONValue, _ key: String) throws(ProjectError) -> [String] {
            guard case .array(let items) = v, items.allSatisfy({ $0.string != nil }) else {
                throw fail(key, "expected an array of strings, got \(v.compact)")
            }
            return items.compactMap(\.string)
        }
        // `appIcon` and `fonts` may lie anywhere in the repository `"xcode"` names, never outside it.
        let repository = json["xcode"]?.string.map { Repository(around: URL(fileURLWithPath: $0, relativeTo: self.folder).standardizedFileURL) }
        inputs = ConfinedRoots([files] + [repository?.folder].compactMap { $0 })
        let roots = inputs
        for (key, value) in members {
            switch key {
            case "$schema":  // for editors (init writes pushpreview.schema.json and names it)
                guard value.string != nil else { throw fail(key, "expected string, got \(value.typeName)") }
            case "appName":
                guard let s = value.string else { throw fail(key, "expected string, got \(value.typeName)") }
                appName = s
            case "bundleId":
                guard let s = value.string, !s.isEmpty, s.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") }) else {
                    throw fail(key, "expected a bundle ID (letters, digits, . and -), got \(value.compact)")
                }
                bundleID = s
            case "appIcon":
                guard let s = value.string else { throw fail(key, "expected string, got \(value.typeName)") }
                if let url = roots.file(s, relativeTo: self.folder) { appIcon = AppIconFiles(light: url) }
                else { appIconProblem = Diagnostic(.warning, code: .iconPlaceholder, file: settings.path, keyPath: key, "\(s) lies outside the project and the repository xcode names; drawing the placeholder") }
            case "wallpaper":
                guard let s = value.string, !s.isEmpty else { throw fail(key, "expected the path of a picture, got \(value.compact)") }
                if let url = roots.file(s, relativeTo: self.folder) { wallpaper = url }
                else { warn(key, "\(s) lies outside the project and the repository xcode names; drawing PushPreview's own", code: .wallpaperOutside) }
            case "fonts":
                for path in try strings(value, key) {
                    if let url = roots.file(path, relativeTo: self.folder) { fonts.append(url) }
                    else { warn(key, "\(path) lies outside the project and the repository xcode names; not loaded", code: .fontsOutside) }
                }
            case "xcode":
                guard let s = value.string, !s.isEmpty else { throw fail(key, "expected the path of an .xcodeproj, .xcworkspace, XcodeGen project.yml or folder, got \(value.compact)") }
                // A project folder inside a checkout names an Xcode project of that checkout: a
                // pull request's pushpreview.json cannot point the reading at another folder on disk.
                let checkout = Repository(around: self.folder)
                if TrustedFiles.exists(checkout.root.appendingPathComponent(".git")), !checkout.contains(URL(fileURLWithPath: s, relativeTo: self.folder)) {
                    throw fail(key, "\(s) lies outside the repository \(checkout.root.path) that holds the project; not read")
                }
                xcode = URL(fileURLWithPath: s, relativeTo: self.folder).standardizedFileURL
            case _ where ServiceSettings.keys.contains(key): break
            case "devices": devices = try strings(value, key)
            case "locales": locales = try strings(value, key)
            case "ios":
                iosVersions = try strings(value, key).map { v throws(ProjectError) in
                    guard let version = IOSVersion(argument: v) else { throw fail(key, "expected iOS versions (\(IOSVersion.accepted.joined(separator: ", "))), got \"\(v)\"") }
                    return version
                }
            case "categories": break
            case "codeChanges": warnings += try Self.codeChanges(value, settings: settings, fail: fail)
            default: warn(key, "unknown setting, ignored")
            }
        }
        do { serviceFolders = ServiceFolders(project: files, settings: try ServiceSettings(settings: json, file: settings.path)) } catch { throw fail(error.keyPath, error.reason) }
        if service.mayChange("thread-id") {
            warn("set", "set or enrich changes thread-id, but a gallery stacks threads by the payloads' own thread-id (each stack's newest is drawn with the changed one)")
        }
        if let xcode { extensionPlists = try readXcode(xcode, settingsFile: settings.path, nameSet: json["appName"] != nil, reader: reader) }
        content = ContentConfiguration(project: files, settings: json, settingsFile: settings.path, extensionPlists: extensionPlists)
    }

    /// `codeChanges` (init writes it): what the service extension's code sets on the content that
    /// PushPreview does not follow, each a warning at its file and line until a `set` entry says it.
    static func codeChanges(_ value: JSONValue, settings: URL, fail: (String?, String) -> ProjectError) throws(ProjectError) -> [Diagnostic] {
        guard case .array(let items) = value else { throw fail("codeChanges", "expected an array of {field, at, code}, got \(value.typeName)") }
        var found: [Diagnostic] = []
        for (i, item) in items.enumerated() {
            let key = "codeChanges[\(i)]"
            guard let field = item["field"]?.string, let at = item["at"]?.string, let code = item["code"]?.string else {
                throw fail(key, "expected {\"field\": string, \"at\": \"FILE:LINE\", \"code\": string}, got \(item.compact)")
            }
            let place = at.split(separator: ":", omittingEmptySubsequences: false)
            guard place.count >= 2, let line = Int(place.last!), line > 0, line <= 10_000_000 else { throw fail("\(key).at", "expected FILE:LINE, got \"\(at.prefix(200))\"") }
            let file = URL(fileURLWithPath: place.dropLast().joined(separator: ":"), relativeTo: settings.deletingLastPathComponent()).standardizedFileURL.path
            let what = field == "communication"
                ? "makes a communication notification (a messaging intent) in code PushPreview does not follow (\(code.prefix(120))): the mock-ups show no sender unless \"communication\" in pushpreview.json says who; write it there and remove \(key)"
                : "sets \(field) in code PushPreview does not follow (\(code.prefix(120))): the mock-ups show the \(field) the payload and pushpreview.json give; write what it does as \"set\": {\"\(field)\": …} in pushpreview.json and remove \(key)"
            found.append(Diagnostic(.warning, code: .codeChange, file: file, line: line, "the service extension " + what))
        }
        return found
    }

    /// What the Xcode app gives a run where the settings do not: its name, icon, fonts, strings
    /// and content extensions, read where they live; each thing it lacks is a warning.
    private mutating func readXcode(_ path: URL, settingsFile: String, nameSet: Bool,
                                    reader: (URL, String) throws(ProjectError) -> XcodeReading) throws(ProjectError) -> [ContentConfiguration.InfoPlist] {
        let app = try reader(path, settingsFile)
        xcodeReading = app
        if !nameSet, let name = app.displayName { appName = name }
        if bundleID == nil { bundleID = app.bundleID }
        if appIcon == nil, appIconProblem == nil {
            appIcon = app.appIcon
            // Problems with an icon that is still drawn (a layer it could not draw) are no placeholder.
            appIconProblem = app.iconProblems.first.map {
                var d = Diagnostic(located: $0, code: appIcon == nil ? .iconPlaceholder : .icon)
                d.message = (app.iconProblems.count > 1 ? app.iconProblems.joined(separator: "; ") : d.message) + (appIcon == nil ? "; drawing the placeholder" : "")
                return d
            }
        }
        fonts += app.fonts
        let inputs = self.inputs
        stringsFolders += app.stringsFolders.filter { $0 != folder }.compactMap { url in
            do throws(FileRefusal) { return try inputs.folder(url) } catch { warnings.append(Diagnostic(.warning, code: .strings, file: url.path, error.why)); return nil }
        }
        let strings = stringsFolders.dropFirst().flatMap(Self.stringsFiles)
        localizesDisplayName = localizesDisplayName || Self.namesApp(strings)
        warnings += app.problems.map { Diagnostic(located: $0) }
        xcodeInputs = (app.inputs + (appIcon?.inputs ?? []) + fonts + strings.map(\.url)).sorted { $0.path < $1.path }
        return app.extensionPlists
    }

    /// What is wrong with the project as a whole (its settings, Xcode app, icon, Info.plists,
    /// categories, strings), each with the severity `validate` gives it: said once per run, not
    /// on every mock-up.
    public var issues: [Diagnostic] {
        warnings + [appIconProblem].compactMap { $0 } + content.issues.filter { $0.category == nil } + localizationIssues
    }

    /// Every strings table, stringsdict and catalog of the project and of the Xcode app it
    /// reads, parsed: a broken one would lose its translations without a word. What cannot be
    /// read at all is an error, an entry in a form that is not read a warning.
    public var localizationIssues: [Diagnostic] {
        var out: [Diagnostic] = []
        for (folder, path, file) in stringsFolders.flatMap(Self.stringsFiles).map({ ($0.folder, $0.path, $0.url) }) {
            guard let bytes = try? folder.read(path, limit: 64 << 20) else { continue }
            Activity.now("reading \(file.path)")
            do {
                switch file.pathExtension {
                case "xcstrings": out += try StringCatalog(bytes, file: file.path).problems
                case "stringsdict": out += try StringsDict.parse(bytes, file: file.path).problems
                default: _ = try StringsFile.parse(bytes, file: file.path)
                }
            } catch { out.append(error.asDiagnostic) }
        }
        return out
    }

    /// Whether an `InfoPlist.strings` or `InfoPlist.xcstrings` among `files` translates the app's
    /// name: most carry only the privacy texts, which no notification shows.
    static func namesApp(_ files: [StringsTable]) -> Bool {
        let names = ["CFBundleDisplayName", "CFBundleName"]
        return files.contains { located in
            let file = located.url
            guard let data = try? located.folder.read(located.path, limit: 64 << 20) else { return false }
            switch file.lastPathComponent {
            case "InfoPlist.strings":
                guard let table = try? StringsFile.parse(data, file: file.path) else { return false }
                return names.contains { table[$0] != nil }
            case "InfoPlist.xcstrings":
                guard let catalog = try? StringCatalog(data, file: file.path) else { return false }
                return names.contains { (catalog.strings[$0]?.count ?? 0) > 1 }
            default: return false
            }
        }
    }

    /// A strings folder's String Catalogs and its `LANG.lproj` tables and stringsdicts, sorted.
    static func stringsFiles(in folder: ConfinedFolder) -> [StringsTable] {
        let names = (try? folder.names()) ?? []
        let paths = names.filter { $0.hasSuffix(".xcstrings") }
            + names.filter { $0.hasSuffix(".lproj") }.flatMap { lproj in
                ((try? folder.names(lproj)) ?? []).filter { $0.hasSuffix(".strings") || $0.hasSuffix(".stringsdict") }.map { "\(lproj)/\($0)" }
            }
        // One linked from outside the folder is not read (the Localizer says so when it meets it).
        return paths.filter { folder.isFile($0) }.map { StringsTable(folder: folder, path: $0) }
    }

    /// A file an input of this project names: read beneath the project folder when it lies there
    /// (a committed link that leads out is refused), else as the person named it on the command
    /// line (`render FILE`, `validate FILE`).
    public static func read(_ url: URL, in project: Project?, limit: Int = 4 << 20) throws(FileRefusal) -> [UInt8] {
        if let project, project.files.relativePath(url) != nil { return try project.files.read(url, limit: limit) }
        return try TrustedFiles.read(url, limit: limit)
    }

    /// `payloads/*.apns` and `*.json`, sorted by name.
    public var payloadFiles: [URL] {
        let names = (try? files.names("payloads")) ?? []
        return names.filter { $0.hasSuffix(".apns") || $0.hasSuffix(".json") }.map { folder.appendingPathComponent("payloads/\($0)") }
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

/// An app icon's image per appearance (the Xcode 14 set's `dark` and `tinted`, when it has them),
/// or an Icon Composer icon's pictures, composed from its layers when the project is read.
public struct AppIconFiles: Sendable, Equatable, Codable {
    /// The image, or the Icon Composer icon's `icon.json`.
    public var light: URL
    public var dark: URL?
    public var tinted: URL?
    /// The composed pictures (PNG) by appearance.
    public var composed: [Appearance: [UInt8]] = [:]
    /// Every file the icon is made of.
    public var inputs: [URL]
    public init(light: URL, dark: URL? = nil, tinted: URL? = nil) {
        self.light = light; self.dark = dark; self.tinted = tinted
        inputs = [light, dark, tinted].compactMap { $0 }
    }
    public init(light: URL, composed: [Appearance: [UInt8]], inputs: [URL]) { self.light = light; self.composed = composed; self.inputs = inputs }

    public func file(for appearance: Appearance) -> URL { appearance == .dark ? dark ?? light : light }

    /// What a page shows for `appearance`: the bytes (read beneath `inputs`), their file
    /// extension, and the identity they are stored under (a composed picture's names its
    /// appearance); nil when the file is gone or refused.
    public func image(for appearance: Appearance, in inputs: ConfinedRoots) -> (bytes: [UInt8], extension: String, identity: String)? {
        if let png = composed[appearance] ?? composed[.light] {
            let shown: Appearance = composed[appearance] == nil ? .light : appearance
            return (png, "png", "\(light.path)#\(shown.rawValue)")
        }
        let url = file(for: appearance)
        return (try? inputs.read(url, limit: 16 << 20)).map { ($0, url.pathExtension.lowercased(), url.path) }
    }
}

/// A strings table, catalog or stringsdict in a strings folder.
struct StringsTable {
    var folder: ConfinedFolder
    var path: String
    var url: URL { folder.url.appendingPathComponent(path) }
}

/// Why a project cannot be read at all (its settings file broken, its Xcode app not found).
public struct ProjectError: DiagnosticConvertible, CustomStringConvertible {
    public var diagnostic: Diagnostic
    public init(_ diagnostic: Diagnostic) { self.diagnostic = diagnostic }
    public var description: String { diagnostic.description }
}
