import Checked
import ConfinedFiles
import Formats
import Foundation
import Payload

/// An iOS app as PushPreview reads it from its Xcode project, every run: the project with the
/// notification extensions (of a workspace's or a repository's), the app target, its content and
/// service extensions with their Info.plists as the build makes them, and where its display
/// name, icon, fonts and strings are. Every file is read where it lives, inside `repository`.
public struct XcodeApp {
    /// The folder holding the `.xcodeproj`, `.xcworkspace`, `project.yml` or `Project.swift` given; no file outside it is read.
    public var root: URL
    /// The repository around `root`: no file outside it is read (`Repository`).
    public var repository: Repository
    public var project: XcodeProject
    public var app: XcodeProject.Target?
    public var extensions: [Extension] = []
    /// What could not be read, each naming the file (and line or object).
    public var problems: [String] = []

    public struct Extension {
        public var target: XcodeProject.Target
        /// `com.apple.usernotifications.content-extension` or `.service`.
        public var point: String
        /// The Info.plist as built: its file (when it has one) and its keys, `$(VAR)` expanded.
        public var infoPlistFile: URL?
        public var infoPlist: PropertyListValue
        public var isContent: Bool { point == Self.content }
        public static let content = "com.apple.usernotifications.content-extension"
        public static let service = "com.apple.usernotifications.service"
    }

    /// Reads the project `path` names (an `.xcodeproj`, an `.xcworkspace`, an XcodeGen spec, or a
    /// folder holding them): the one with notification extensions; with several such, an error
    /// naming them.
    /// `within`: a folder the repository is around instead (a cross-platform app's, whose ios/ is read).
    public init(path: URL, within: URL? = nil) throws(XcodeProject.ReadError) {
        let path = path.standardizedFileURL
        root = ProjectKinds.namesProjectFile(path) ? path.deletingLastPathComponent() : path
        let repository = Repository(around: within ?? root)
        self.repository = repository
        var candidates: [(XcodeProject, [Extension])] = []
        var problems: [String] = []
        for bundle in try XcodeDiscovery.projects(at: path) {
            Activity.now("reading the Xcode project \(bundle.path)")
            do {
                let project = try ProjectKinds.read(bundle, in: repository)
                problems += project.problems
                candidates.append((project, Self.notificationExtensions(of: project, problems: &problems)))
            } catch { problems.append(error.description) }
        }
        let withExtensions = candidates.filter { !$0.1.isEmpty }
        if withExtensions.count > 1 {
            throw XcodeProject.ReadError(description: "\(path.path): \(withExtensions.count) projects have notification extensions (\(withExtensions.map { $0.0.bundle.path }.joined(separator: ", "))); give one of them")
        }
        let apps = candidates.filter { $0.0.targets.contains(where: \.isApplication) }
        guard let (project, extensions) = withExtensions.first ?? (apps.count == 1 ? apps.first : nil) ?? (candidates.count == 1 ? candidates.first : nil) else {
            let why = candidates.isEmpty ? "no Xcode project found (looked for \(XcodeDiscovery.lookedFor))" : "\(apps.count) projects have apps and none has a notification extension (\(apps.map { $0.0.bundle.path }.joined(separator: ", "))); give one of them"
            throw XcodeProject.ReadError(description: "\(path.path): \(why)" + (problems.isEmpty ? "" : " (\(problems.joined(separator: "; ")))"))
        }
        self.project = project
        self.extensions = extensions
        // Projects of one workspace share helpers and files: a problem of theirs is said once.
        var said = Set<String>()
        self.problems = problems.filter { said.insert($0).inserted }
        app = Self.appTarget(of: project, embedding: extensions)
        if app == nil { self.problems.append("\(project.bundle.path): no application target; the app's name, icon and strings are not read") }
        let applications = project.targets.filter(\.isApplication)
        if let app, applications.count > 1 {
            let why = Self.embeds(app, extensions) ? "the one whose bundle identifier the notification extensions' begin with"
                : "the first: no application's bundle identifier begins the notification extensions'"
            self.problems.append("\(project.bundle.path): \(applications.count) application targets (\(applications.map(\.name).joined(separator: ", "))); the app drawn is \(app.name), \(why)")
        }
        // Said once here, as `appInfoPlist` is read again for each thing it gives.
        if let app { _ = XcodeDiscovery.infoPlist(of: app, in: project, problems: &self.problems) }
        if extensions.isEmpty {
            self.problems.append("\(project.kind) \(project.bundle.path): no target is a notification extension (an app extension whose Info.plist's NSExtensionPointIdentifier is \(Extension.content) or \(Extension.service)); targets read: "
                + (project.targets.isEmpty ? "none" : project.targets.map { "\($0.name) (\($0.productType.replacingOccurrences(of: "com.apple.product-type.", with: "")))" }.joined(separator: ", ")))
        }
    }

    /// The targets whose Info.plist names a notification extension point.
    static func notificationExtensions(of project: XcodeProject, problems: inout [String]) -> [Extension] {
        project.targets.filter(\.isAppExtension).compactMap { target in
            let plist = XcodeDiscovery.infoPlist(of: target, in: project, problems: &problems)
            guard let point = plist["NSExtension"]?["NSExtensionPointIdentifier"]?.string,
                  [Extension.content, Extension.service].contains(point) else { return nil }
            var said: [String] = []
            let file = target.configuration()?["INFOPLIST_FILE"].flatMap { $0.isEmpty ? nil : project.file($0, problems: &said) }
            return Extension(target: target, point: point, infoPlistFile: file, infoPlist: plist)
        }
    }

    /// The application whose bundle identifier the extensions' begin with (iOS embeds an
    /// extension only in such an app), else the project's first application.
    static func appTarget(of project: XcodeProject, embedding extensions: [Extension]) -> XcodeProject.Target? {
        let apps = project.targets.filter(\.isApplication)
        return apps.first { embeds($0, extensions) } ?? apps.first
    }

    /// Whether `app`'s bundle identifier begins every extension's (iOS embeds only such).
    static func embeds(_ app: XcodeProject.Target, _ extensions: [Extension]) -> Bool {
        let ids = extensions.compactMap { $0.target.configuration()?["PRODUCT_BUNDLE_IDENTIFIER"] }
        guard let id = app.configuration()?["PRODUCT_BUNDLE_IDENTIFIER"], !id.isEmpty else { return false }
        return !ids.isEmpty && ids.allSatisfy { $0.hasPrefix(id + ".") }
    }

    /// A path of the project's (relative to its folder) as a file inside the repository; nil,
    /// and a problem said, for one that leads outside (`XcodeProject.file`).
    public func file(_ path: String, problems: inout [String]) -> URL? {
        project.file(path, problems: &problems)
    }

    /// The app's Info.plist as built.
    public var appInfoPlist: PropertyListValue {
        guard let app else { return .dictionary(.init()) }
        var ignored: [String] = []
        return XcodeDiscovery.infoPlist(of: app, in: project, problems: &ignored)
    }

    /// The name under the icon: `CFBundleDisplayName`, else `CFBundleName`, else the product's.
    public var displayName: String? {
        let plist = appInfoPlist
        return [plist["CFBundleDisplayName"]?.string, plist["CFBundleName"]?.string, app?.configuration()?["PRODUCT_NAME"]]
            .compactMap { $0 }.first { !$0.isEmpty }
    }

    /// The app's bundle identifier (`PRODUCT_BUNDLE_IDENTIFIER`, expanded); nil when the build
    /// settings leave it to a variable this reading cannot know (set in CI, or by a tool).
    public var bundleID: String? {
        guard let id = app?.configuration()?["PRODUCT_BUNDLE_IDENTIFIER"], !id.isEmpty,
              id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") }) else { return nil }
        return id
    }

    /// The app icon the build settings name (`ASSETCATALOG_COMPILER_APPICON_NAME`, else `AppIcon`):
    /// an Icon Composer bundle `NAME.icon` among the app's resources, else the asset catalogs'
    /// `NAME.appiconset`. The bundle wins when both exist, as in Xcode 26, which builds the icon of
    /// every iOS version from the `.icon` then (26.0 kept the set for iOS 18 and earlier only
    /// behind `--enable-icon-stack-fallback-generation=disabled`, 26.1 not at all).
    public func appIcon(problems: inout [String]) -> AppIcon? {
        guard let app else { return nil }
        let name = app.configuration()?["ASSETCATALOG_COMPILER_APPICON_NAME"].flatMap { $0.isEmpty ? nil : $0 } ?? "AppIcon"
        let bundles = app.resources.filter { $0.split(separator: "/").last.map(String.init) == "\(name).icon" }
        for path in bundles {
            guard let bundle = file(path, problems: &problems) else { continue }
            do {
                if let icon = try IconComposerIcon.read(bundle: try repository.folder(bundle)) { return .composer(icon) }
            } catch let error as FileRefusal { problems.append("\(bundle.path): \(error.why)") } catch { problems.append("\(error)") }
        }
        let catalogs = app.resources.filter { $0.hasSuffix(".xcassets") }
        for path in catalogs {
            guard let catalog = file(path, problems: &problems) else { continue }
            // Xcode finds the set in the catalog's folders too (AppIcons/AppIcon.appiconset).
            guard let found = AppIconSet.locate(name, in: catalog, of: repository) else { continue }
            do { if let set = try AppIconSet.read(catalog: catalog, name: found, in: repository, problems: &problems) { return .set(set) } } catch { problems.append(error.description) }
        }
        if let images = project.appIconImages {
            func image(_ path: String?) -> URL? {
                guard let path, let url = file(path, problems: &problems) else { return nil }
                if repository.exists(url) { return url }
                problems.append("\(project.bundle.path): the app's icon \(path) does not exist")
                return nil
            }
            let set = AppIconSet(light: image(images.light), dark: image(images.dark), tinted: image(images.tinted))
            if set.light != nil || set.dark != nil { return .set(set) }
        }
        let looked = (bundles.isEmpty ? "no \(name).icon among its resources" : "no readable \(name).icon (\(bundles.joined(separator: ", ")))")
            + (catalogs.isEmpty ? " and no asset catalog" : " and no \(name).appiconset in its asset catalogs (\(catalogs.joined(separator: ", ")))")
        problems.append("target \(app.name): \(looked)")
        return nil
    }

    /// The font files the app's and the extensions' `UIAppFonts` name.
    public func fonts(problems: inout [String]) -> [URL] {
        var seen = Set<String>()
        let targets = [app].compactMap { $0 } + extensions.map(\.target)
        return targets.flatMap { XcodeDiscovery.fonts(of: $0, in: project, problems: &problems) }
            .filter { seen.insert($0).inserted }
            .compactMap { file($0, problems: &problems) }
    }

    /// The folders holding the app's localized strings (the folder above each `LANG.lproj`, and
    /// each String Catalog's), the app's before the extensions', each once.
    public func stringsFolders(problems: inout [String]) -> [URL] {
        var seen = Set<String>()
        let targets = [app].compactMap { $0 } + extensions.map(\.target)
        func parent(_ path: String) -> String { path.split(separator: "/").dropLast().joined(separator: "/") }
        func ext(_ path: String) -> String { path.split(separator: ".").count > 1 ? String(path.split(separator: ".").last!) : "" }
        return targets.flatMap(\.resources).compactMap { path -> String? in
            // Each strings file is the repository's too: one linked from outside is said here.
            if ["xcstrings", "strings", "stringsdict"].contains(ext(path)), file(path, problems: &problems) == nil { return nil }
            if ext(path) == "xcstrings" { return parent(path).isEmpty ? "." : parent(path) }
            guard ["strings", "stringsdict"].contains(ext(path)), ext(parent(path)) == "lproj" else { return nil }
            return parent(parent(path)).isEmpty ? "." : parent(parent(path))
        }
        .filter { seen.insert($0).inserted }
        .compactMap { file($0, problems: &problems) }
    }

    /// The Swift and Objective-C sources of the app and its notification extensions.
    public func sources(problems: inout [String]) -> [URL] {
        let targets = [app].compactMap { $0 } + extensions.map(\.target)
        var seen = Set<String>()
        return targets.flatMap(\.sources).filter { ["swift", "m", "mm", "h"].contains($0.split(separator: ".").last.map(String.init) ?? "") && seen.insert($0).inserted }
            .compactMap { file($0, problems: &problems) }
    }
}
