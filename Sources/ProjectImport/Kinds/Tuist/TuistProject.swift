import Checked
import ConfinedFiles
import Foundation
import Payload

extension XcodeProject {
    /// Tuist's products (`Product`), each as the Xcode product type Tuist generates for it.
    static let tuistProductTypes: [String: String] = [
        "app": "application", "appClip": "application.on-demand-install-capable", "appExtension": "app-extension",
        "messagesExtension": "app-extension.messages", "stickerPackExtension": "app-extension.messages-sticker-pack",
        "framework": "framework", "staticFramework": "framework.static", "staticLibrary": "library.static", "dynamicLibrary": "library.dynamic",
        "bundle": "bundle", "unitTests": "bundle.unit-test", "uiTests": "bundle.ui-testing", "watch2App": "application.watchapp2",
        "watch2Extension": "watchkit2-extension", "tvTopShelfExtension": "tv-app-extension", "commandLineTool": "tool",
        "extensionKitExtension": "extensionkit-extension", "xpc": "xpc-service", "systemExtension": "system-extension", "macro": "tool",
    ]

    /// Reads a Tuist manifest (`Project.swift`) and the ProjectDescriptionHelpers beside it
    /// (`Tuist/ProjectDescriptionHelpers/*.swift`, in the manifest's folder or one above) as the
    /// project Tuist would generate: its `let project = Project(…)`, followed through the helpers
    /// without running anything (see `TuistEvaluator`). Targets keep the manifest's order, with
    /// Debug and Release (or the project's own configurations), PRODUCT_BUNDLE_IDENTIFIER from
    /// `bundleId`, INFOPLIST_FILE from `infoPlist: "path"` / `.file(path:)`, or the Info.plist
    /// Tuist writes for `.extendingDefault(with:)` / `.dictionary(…)`, and the files of their
    /// `sources:` and `resources:` globs. What cannot be followed is a problem at `file:line:column`.
    public init(tuistManifest file: URL, in repository: Repository? = nil) throws(ReadError) {
        let file = file.standardizedFileURL
        bundle = file
        self.repository = repository ?? Repository(around: file.deletingLastPathComponent())
        guard let swiftc = SwiftcParser.findSwiftc() else {
            throw ReadError(description: "\(file.path): a Tuist manifest is read with Swift's own parser, and swiftc is not on PATH (install a Swift toolchain, or put its usr/bin on PATH)")
        }
        let (root, helpers) = Self.tuistHelpers(for: file.deletingLastPathComponent(), in: self.repository)
        var texts: [SwiftSourceText] = []
        var problems: [String] = []
        // The manifest and its helpers are the repository's files: one linked from outside is not read.
        for url in [file] + helpers {
            let data: [UInt8]
            do { data = try self.repository.read(url, limit: CodeImport.maxFileSize) } catch {
                if case .tooLarge(let size, _) = error.reason {
                    problems.append("\(url.path): \(size) bytes, over the \(CodeImport.maxFileSize >> 20) MB a manifest may have; not read")
                    continue
                }
                if url == file { throw ReadError(description: "\(file.path): the Tuist manifest cannot be read (\(error.why))") }
                problems.append("\(url.path): cannot be read (\(error.why)); the helpers it defines are not followed")
                continue
            }
            if let deep = SourceNesting.tooDeep(data) {
                let why = "\(url.path):\(deep.line): \(deep.what)"
                if url == file { throw ReadError(description: why + "; the Tuist manifest is not read") }
                problems.append(why + "; the helpers it defines are not followed")
                continue
            }
            texts.append(SwiftSourceText(ConditionalCompilation.activeSource(data), file: url.path))
        }
        let parses = SwiftcParser(swiftc: swiftc).parse(texts.map(\.bytes))
        for (text, parse) in zip(texts, parses) {
            for e in parse.errors { problems.append("\(text.file):\(e.line):\(e.column): Swift syntax error: \(e.message); the rest of the manifest is read, what the error hides is not") }
            if let failure = parse.failure { problems.append("\(text.file): \(failure)") }
        }
        let evaluator = TuistEvaluator(files: texts, roots: parses.map(\.root))
        name = file.deletingLastPathComponent().lastPathComponent
        definitionFiles = texts.map { URL(fileURLWithPath: $0.file) }
        guard let value = evaluator.global(["project"]) else {
            throw ReadError(description: "\(file.path): a Tuist manifest declares `let project = Project(…)`, and this one does not" + (problems.isEmpty ? "" : " (\(problems.joined(separator: "; ")))"))
        }
        guard let project = value.call, project.name == "Project" else {
            throw ReadError(description: "\(file.path): Tuist's `let project` is \(value.unknownReason ?? value.sketch + ", not a Project(…)"); the project is not read"
                + (problems.isEmpty ? "" : " (\(problems.joined(separator: "; ")))"))
        }
        if let n = project["name"]?.text { name = n } else { problems.append((project["name"]?.unknownReason ?? "\(project.site): the project's name is \(project["name"]?.sketch ?? "not given")") + "; it is called \(name)") }
        let options = project["options"]?.call
        developmentRegion = options?["developmentRegion"]?.text ?? "en"
        var reader = TuistTargetReader(folder: folder, root: root, tree: try? self.repository.folder(root), projectName: name, developmentRegion: developmentRegion ?? "en", projectSettings: project["settings"])
        let elements = project["targets"].map { $0.array ?? [$0] } ?? []
        for element in elements {
            if let target = reader.target(element) { targets.append(target) }
        }
        if elements.isEmpty { problems.append("\(project.site): the project has no targets") }
        var regions = Set(targets.flatMap(\.resources).compactMap { path in
            path.split(separator: "/").dropLast().last.flatMap { $0.hasSuffix(".lproj") ? String($0.dropLast(6)) : nil }
        })
        regions.insert(developmentRegion ?? "en")
        knownRegions = regions.sorted()
        var said = Set<String>()
        self.problems = (problems + reader.problems).filter { said.insert($0).inserted }
    }

    /// The helpers' files: `Tuist/ProjectDescriptionHelpers` in the manifest's folder or the
    /// nearest folder above it that has one (Tuist's root), not past the repository's `.git`;
    /// with none, the root is the manifest's folder.
    /// A helper that is a link leading out of the repository is listed too: reading it is refused, and said.
    static func tuistHelpers(for folder: URL, in repository: Repository) -> (root: URL, files: [URL]) {
        var current = folder.standardizedFileURL
        for _ in 0..<16 {
            let helpers = current.appendingPathComponent("Tuist/ProjectDescriptionHelpers")
            if repository.isFolder(helpers), let tree = try? repository.folder(helpers) {
                let listed = tree.files(limit: 256)
                let files = (listed.files + listed.refused).filter { $0.hasSuffix(".swift") }.map { helpers.appendingPathComponent($0) }
                return (current, files.sorted { $0.path < $1.path })
            }
            if repository.exists(current.appendingPathComponent(".git")) || !repository.contains(current.deletingLastPathComponent()) || current.path == "/" { break }
            current = current.deletingLastPathComponent()
        }
        return (folder.standardizedFileURL, [])
    }
}

/// One manifest's targets as the project model has them.
struct TuistTargetReader {
    let folder: URL
    /// Tuist's root (the folder holding `Tuist/`): `.relativeToRoot` paths start there, and no glob leads out of it.
    let root: URL
    /// The root, held open: every glob is walked beneath it.
    let tree: ConfinedFolder?
    let projectName: String
    let developmentRegion: String
    let projectSettings: TuistValue?
    var problems: [String] = []
    var budget = XcodeGenSources.maxFiles

    init(folder: URL, root: URL, tree: ConfinedFolder?, projectName: String, developmentRegion: String, projectSettings: TuistValue?) {
        self.folder = folder
        self.root = root
        self.tree = tree
        self.projectName = projectName
        self.developmentRegion = developmentRegion
        self.projectSettings = projectSettings
    }

    /// Whether a target of this product is one PushPreview reads (an app or an extension): only
    /// their unread parts are problems; a framework's or a test's are not the mock-up's business.
    static func matters(_ productType: String) -> Bool {
        productType.hasPrefix("com.apple.product-type.application") || productType.hasPrefix("com.apple.product-type.app-extension")
    }

    mutating func target(_ value: TuistValue) -> XcodeProject.Target? {
        guard let call = value.call, ["Target", "target"].contains(call.name) else {
            problems.append(value.unknownReason.map { $0 + "; that target is not read" } ?? "\(projectName): a target is \(value.sketch), not a Target(…) or .target(…); not read")
            return nil
        }
        guard let name = call["name"]?.text else {
            problems.append((call["name"]?.unknownReason ?? "\(call.site): a target's name is \(call["name"]?.sketch ?? "not given")") + "; that target is not read")
            return nil
        }
        var productType = ""
        if case .member(let product)? = call["product"], let type = XcodeProject.tuistProductTypes[product] {
            productType = "com.apple.product-type." + type
        } else {
            problems.append(call["product"]?.unknownReason.map { "\($0); target \(name)'s product is not known" }
                ?? "\(call.site): target \(name)'s product is \(call["product"]?.sketch ?? "not given"), not one of Tuist's (.app, .appExtension, …)")
        }
        let matters = Self.matters(productType)
        var target = XcodeProject.Target(id: name, name: name, productType: productType)
        var own: [String: String] = ["PRODUCT_NAME": call["productName"]?.text ?? name]
        if let id = call["bundleId"]?.text { own["PRODUCT_BUNDLE_IDENTIFIER"] = id } else if matters {
            problems.append((call["bundleId"]?.unknownReason ?? "\(call.site): target \(name)'s bundleId is \(call["bundleId"]?.sketch ?? "not given")")
                + "; target \(name) is matched to the app without its bundle identifier")
        }
        infoPlist(call["infoPlist"], target: &target, settings: &own, site: call.site, matters: matters)
        target.sources = files(call["sources"], target: name, site: call.site, matters: matters).filter { XcodeGenSources.phase(of: $0) == .sources }
        target.resources = files(call["resources"], target: name, site: call.site, matters: matters).filter { XcodeGenSources.phase(of: $0) != .sources }
        let configurations = configurationNames()
        let projectLayers = settingLayers(projectSettings, owner: "the project", site: call.site, matters: true)
        let targetLayers = settingLayers(call["settings"], owner: "target \(name)", site: call.site, matters: matters)
        for config in configurations {
            var said: [String] = []
            let raw = [own, projectLayers.base, projectLayers.byConfiguration[config] ?? [:], targetLayers.base, targetLayers.byConfiguration[config] ?? [:]]
                .reduce([:]) { BuildSettings.overlay($0, $1, problems: &said) }
            let merged = BuildSettings.merge(raw, [:], builtIn: ["TARGET_NAME": name, "PROJECT_NAME": projectName, "CONFIGURATION": config,
                                                                 "SRCROOT": ".", "PROJECT_DIR": ".", "SOURCE_ROOT": ".", "DEVELOPMENT_LANGUAGE": developmentRegion], problems: &said)
            for problem in said where !problems.contains(problem) { problems.append(problem) }
            target.configurations.append(XcodeProject.Configuration(name: config, settings: merged))
        }
        target.defaultConfiguration = configurations.first
        return target
    }

    /// The project's configurations (`.settings(configurations: [.debug(name:), .release(name:)])`), else Tuist's Debug and Release.
    func configurationNames() -> [String] {
        let names = (projectSettings?.call?["configurations"]?.array ?? []).compactMap { $0.call?["name"]?.text }
        return names.isEmpty ? ["Debug", "Release"] : names
    }

    /// `.settings(base:, debug:, release:, configurations: [.debug(name:, settings:)])`: the base and each configuration's.
    mutating func settingLayers(_ value: TuistValue?, owner: String, site: CodeSite, matters: Bool) -> (base: [String: String], byConfiguration: [String: [String: String]]) {
        guard let value, case .call(let settings) = value else {
            if let why = value?.unknownReason, matters { problems.append("\(why); \(owner)'s build settings are not read") }
            return ([:], [:])
        }
        var byConfiguration: [String: [String: String]] = [:]
        if let configurations = settings["configurations"], configurations.array == nil, matters {
            problems.append("\(configurations.unknownReason ?? "\(settings.site): \(owner)'s configurations are \(configurations.sketch), not a list"); \(owner)'s configurations and their settings are not read (Debug and Release are assumed)")
        }
        if let debug = settings["debug"] { byConfiguration["Debug"] = settingsDictionary(debug, owner: owner, matters: matters) }
        if let release = settings["release"] { byConfiguration["Release"] = settingsDictionary(release, owner: owner, matters: matters) }
        for configuration in settings["configurations"]?.array ?? [] {
            guard let c = configuration.call, let name = c["name"]?.text, let s = c["settings"] else { continue }
            byConfiguration[name] = settingsDictionary(s, owner: owner, matters: matters)
        }
        return (settings["base"].map { settingsDictionary($0, owner: owner, matters: matters) } ?? [:], byConfiguration)
    }

    /// `["KEY": "value", "FLAG": true, "LIST": ["a", "b"]]`, `.string(…)`, `.array(…)` as build settings.
    mutating func settingsDictionary(_ value: TuistValue, owner: String, matters: Bool) -> [String: String] {
        var out: [String: String] = [:]
        var pairs = value.dictionary ?? []
        // `SettingsDictionary().merging(…)`-style builders are not followed; a `.call` with a dictionary argument is.
        if pairs.isEmpty, let call = value.call, let dict = call.arguments.first?.dictionary { pairs = dict }
        if pairs.isEmpty, let why = value.unknownReason, matters { problems.append("\(why); \(owner)'s build settings are not read") }
        for (key, setting) in pairs {
            if let text = Self.settingText(setting) { out[key] = text } else if matters {
                problems.append("\(setting.unknownReason ?? "\(owner): build setting \(key) is \(setting.sketch)"); \(key) is not set")
            }
        }
        return out
    }

    static func settingText(_ value: TuistValue) -> String? {
        switch value {
        case .text(let s): return s
        case .bool(let b): return b ? "YES" : "NO"
        case .integer(let n): return String(n)
        case .array(let items):
            let texts = items.compactMap(settingText)
            return texts.count == items.count ? texts.joined(separator: " ") : nil
        case .call(let c) where ["string", "array"].contains(c.name) && c.arguments.count == 1: return settingText(c.arguments[0])
        default: return nil
        }
    }
}
