import Checked
import ConfinedFiles
import Foundation
import Payload
import Formats

extension XcodeProject {
    static let maxXcodeGenTargets = 512

    /// XcodeGen's product types (`type:`), each Xcode's `com.apple.product-type.` + the name.
    static let xcodeGenProductTypes: Set<String> = [
        "application", "application.on-demand-install-capable", "application.messages", "application.watchapp", "application.watchapp2",
        "application.watchapp2-container", "app-extension", "app-extension.intents-service", "app-extension.messages",
        "app-extension.messages-sticker-pack", "bundle", "bundle.ocunit-test", "bundle.ui-testing", "bundle.unit-test", "extensionkit-extension",
        "framework", "instruments-package", "library.dynamic", "library.static", "framework.static", "tool", "tv-app-extension",
        "watchkit-extension", "watchkit2-extension", "xcode-extension", "driver-extension", "system-extension", "xpc-service",
    ]

    /// Reads an XcodeGen spec (`project.yml`, with the specs it includes) as the project XcodeGen
    /// would generate from it: targets (sorted by name, as XcodeGen writes them) with their
    /// product types, settings per configuration (`configs:`, else Debug and Release) with the
    /// xcconfig files and INFOPLIST_FILE XcodeGen sets (the spec's `info.path`, else the first
    /// Info.plist among the sources), the files of their `sources:`, the `.lproj` regions met and
    /// `options.developmentLanguage`. What cannot be read is a problem naming the file and line.
    public init(xcodeGenSpec file: URL, in repository: Repository? = nil) throws(ReadError) {
        let repository = repository ?? Repository(around: file.standardizedFileURL.deletingLastPathComponent())
        var spec = try XcodeGenSpec(file: file, repository: repository)
        self.repository = repository
        bundle = file.standardizedFileURL
        let root = spec.root
        name = root["name"]?.string ?? file.deletingLastPathComponent().lastPathComponent
        if root["name"]?.string == nil { spec.problems.append("\(root.location): the spec has no name:; the project is called \(name)") }
        let options = root["options"]
        let language = options?["developmentLanguage"]?.string ?? "en"
        developmentRegion = language
        var targetNodes: [(key: String, value: YAMLNode)] = []
        if let node = root["targets"], !node.isNull {
            guard let pairs = node.mapping else {
                throw ReadError(description: "\(node.location): targets: expected a mapping of target names to targets, not \(node.kind)")
            }
            targetNodes = pairs
        }
        if targetNodes.isEmpty { spec.problems.append("\(root.location): the spec has no targets") }
        if targetNodes.count > Self.maxXcodeGenTargets {
            spec.problems.append("\(root["targets"]!.location): more than \(Self.maxXcodeGenTargets) targets; the first \(Self.maxXcodeGenTargets) are read")
            targetNodes = Array(targetNodes.prefix(Self.maxXcodeGenTargets))
        }
        var settings = XcodeGenSettings(spec: spec)
        var budget = XcodeGenSources.maxFiles
        for (key, node) in targetNodes {
            guard node.mapping != nil else {
                spec.problems.append("\(node.location): target \(key) is \(node.kind), not a mapping; skipped")
                continue
            }
            var files = XcodeGenSources(budget: budget)
            var target = Self.xcodeGenTarget(key, node, spec: spec, settings: &settings, files: &files, developmentRegion: language)
            budget = files.budget
            spec.problems += files.problems
            // A file two sources name (a folder and a folder inside it) is in the phase once.
            var seen = Set<String>()
            target.sources = files.sources.filter { seen.insert($0).inserted }
            target.resources = files.resources.filter { seen.insert($0).inserted }
            targets.append(target)
        }
        targets.sort { $0.name < $1.name }
        // As XcodeGen: every .lproj met, the development language, and Base unless told not to.
        var regions = Set(targets.flatMap { $0.resources }.compactMap { path in
            path.split(separator: "/").dropLast().last.flatMap { $0.hasSuffix(".lproj") ? String($0.dropLast(6)) : nil }
        })
        regions.insert(language)
        if options?["useBaseInternationalization"]?.bool != false { regions.insert("Base") }
        knownRegions = regions.sorted()
        // Each once: a setting group or an xcconfig read for every configuration says its problem once.
        var said = Set<String>()
        problems = (spec.problems + settings.problems).filter { said.insert($0).inserted }
        definitionFiles = spec.files + settings.files
    }

    static func xcodeGenTarget(_ key: String, _ node: YAMLNode, spec: XcodeGenSpec, settings: inout XcodeGenSettings,
                               files: inout XcodeGenSources, developmentRegion: String) -> Target {
        let name = node["name"]?.string ?? key
        let type = node["type"]?.string ?? ""
        if node["type"]?.string == nil {
            files.problems.append("\(node.location): target \(name) has no type (application, app-extension, framework, …)")
        } else if !xcodeGenProductTypes.contains(type) {
            files.problems.append("\(node["type"]!.location): target \(name)'s type \(type) is not one XcodeGen knows")
        }
        var platform = node["platform"]?.string ?? ""
        if let platforms = node["platform"]?.sequence {
            platform = platforms.first?.string ?? ""
            files.problems.append("\(node["platform"]!.location): target \(name) is for several platforms, which XcodeGen makes one target each; read once, for \(platform)")
        }
        var target = Target(id: name, name: name, productType: type.isEmpty ? "" : "com.apple.product-type." + type)
        // XcodeGen's `options.defaultConfig`, else (as XcodeGen) the first configuration by name.
        target.defaultConfiguration = spec.root["options"]?["defaultConfig"]?.string
        let sources = node["sources"].map { $0.sequence ?? ($0.isNull ? [] : [$0]) } ?? []
        let defaultType = spec.root["options"]?["defaultSourceDirectoryType"]?.string
        for source in sources { files.add(source, spec: spec, target: name, defaultType: defaultType) }

        let info = node["info"]
        let infoPath = info?["path"].flatMap(spec.file).map(spec.relative)
        let bundleIDPrefix = spec.root["options"]?["bundleIdPrefix"]?.string
        for config in settings.configNames {
            guard settings.layered <= XcodeGenSettings.maxLayered else {
                files.problems.append("\(node.location): more than \(XcodeGenSettings.maxLayered) build settings in the targets' configurations; target \(name)'s \(config) and those after it are not read")
                break
            }
            let project = settings.projectLayers(config: config)
            let own = settings.targetLayers(node, type: type, platform: platform, config: config, projectXCConfig: project.xcconfig)
            var targetOwn = own.own
            // XcodeGen writes INFOPLIST_FILE unless the target's settings set it: `info.path`, else the sources' first Info.plist.
            if targetOwn["INFOPLIST_FILE"] == nil, let plist = infoPath ?? files.infoPlists.first { targetOwn["INFOPLIST_FILE"] = plist }
            var raw: [String: String] = [:]
            for layer in [project.xcconfig, project.own, own.xcconfig, targetOwn] { raw = BuildSettings.overlay(raw, layer, origins: settings.origins, problems: &files.problems) }
            if raw["PRODUCT_BUNDLE_IDENTIFIER"] == nil, let bundleIDPrefix {
                raw["PRODUCT_BUNDLE_IDENTIFIER"] = bundleIDPrefix + "." + name.replacingOccurrences(of: "_", with: "-").filter { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "." }
            }
            let merged = BuildSettings.merge(raw, [:], builtIn: ["TARGET_NAME": name, "PROJECT_NAME": spec.root["name"]?.string ?? "", "CONFIGURATION": config,
                                                                 "SRCROOT": ".", "PROJECT_DIR": ".", "SOURCE_ROOT": ".", "DEVELOPMENT_LANGUAGE": developmentRegion],
                                         origins: settings.origins, problems: &files.problems)
            settings.layered += merged.count
            target.configurations.append(Configuration(name: config, settings: merged))
        }
        if let infoPath, let properties = info?["properties"], target.configuration()?["INFOPLIST_FILE"] == infoPath {
            target.generatedInfoPlist = generatedInfoPlist(type: type, properties: properties)
        }
        return target
    }

    /// The Info.plist XcodeGen writes for `info:`: its default keys, then the spec's properties.
    static func generatedInfoPlist(type: String, properties: YAMLNode) -> JSONValue {
        var keys: [(key: String, value: JSONValue)] = [
            ("CFBundleIdentifier", .string("$(PRODUCT_BUNDLE_IDENTIFIER)")), ("CFBundleInfoDictionaryVersion", .string("6.0")),
            ("CFBundleName", .string("$(PRODUCT_NAME)")), ("CFBundleDevelopmentRegion", .string("$(DEVELOPMENT_LANGUAGE)")),
            ("CFBundleShortVersionString", .string("1.0")), ("CFBundleVersion", .string("1")),
        ]
        if type != "bundle" { keys.append(("CFBundleExecutable", .string("$(EXECUTABLE_NAME)"))) }
        let packageType = ["application": "APPL", "application.watchapp2": "APPL", "framework": "FMWK", "bundle": "BNDL", "bundle.unit-test": "BNDL",
                           "bundle.ui-testing": "BNDL", "app-extension": "XPC!", "xpc-service": "XPC!"][type]
        if let packageType { keys.append(("CFBundlePackageType", .string(packageType))) }
        for (key, value) in properties.mapping ?? [] {
            guard let value = plistValue(value) else { continue }
            keys.removeAll { $0.key == key }
            keys.append((key, value))
        }
        return .object(keys)
    }

    static func plistValue(_ node: YAMLNode) -> JSONValue? {
        if let bool = node.bool { return .bool(bool) }
        if node.isNull { return nil }
        switch node.value {
        case .scalar(let text, _): return .string(text)
        case .sequence(let items): return .array(items.compactMap(plistValue))
        case .mapping(let pairs): return .object(pairs.compactMap { pair in plistValue(pair.value).map { (pair.key, $0) } })
        }
    }
}
