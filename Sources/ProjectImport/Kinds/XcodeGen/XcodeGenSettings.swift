import Foundation
import Formats

/// Build settings as an XcodeGen spec gives them, one configuration at a time, layered as Xcode
/// layers the project XcodeGen writes: the project's xcconfig, the project's own settings, the
/// target's xcconfig, the target's own settings, each `$(inherited)` the layer beneath. A level's
/// own settings are XcodeGen's presets for it (those its xcconfig files do not set), then its
/// `settings:` — `groups:` (`settingGroups`), `base:`, then each `configs:` key the
/// configuration's name contains, or a plain map of settings.
struct XcodeGenSettings {
    static let maxConfigs = 64
    /// Setting groups one `settings:` may apply, counting groups within groups.
    static let maxGroups = 256
    /// Settings layered across all targets and configurations (a real project layers thousands).
    static let maxLayered = 500_000

    let spec: XcodeGenSpec
    let presets: String
    /// `configs:` (sorted by name, as XcodeGen writes them), else Debug and Release.
    let configNames: [String]
    var xcconfigs: [String: XCConfig] = [:]
    var projectLayers: [String: (xcconfig: [String: String], own: [String: String])] = [:]
    var groupsLeft = 0
    var layered = 0
    var problems: [String] = []
    /// Where each setting is defined ("file:line" of the spec or of an xcconfig), the last read,
    /// for expansion's problems.
    var origins: [String: String] = [:]

    init(spec: XcodeGenSpec) {
        self.spec = spec
        presets = spec.root["options"]?["settingPresets"]?.string ?? "all"
        let configs = spec.root["configs"]
        var names = (configs?.mapping ?? []).map(\.key).sorted()
        if names.count > Self.maxConfigs {
            problems.append("\(configs!.location): more than \(Self.maxConfigs) configurations; the first \(Self.maxConfigs) are read")
            names = Array(names.prefix(Self.maxConfigs))
        }
        if let configs, !configs.isNull, configs.mapping == nil { problems.append("\(configs.location): configs maps configuration names to debug or release, not \(configs.kind); Debug and Release are read") }
        configNames = names.isEmpty ? ["Debug", "Release"] : names
    }

    /// The xcconfig files read, each once, by path.
    var files: [URL] { Set(xcconfigs.values.flatMap(\.files)).sorted { $0.path < $1.path } }

    /// The project's layers for `config`: its xcconfig's settings, and its own.
    mutating func projectLayers(config: String) -> (xcconfig: [String: String], own: [String: String]) {
        if let known = projectLayers[config] { return known }
        let xcconfig = configFile(spec.root["configFiles"], config: config)
        var own: [String: String] = [:]
        // XcodeGen sets SDKROOT on the project when every target is for one platform.
        let platforms = Set((spec.root["targets"]?.mapping ?? []).map { $0.value["platform"]?.string ?? "" })
        if platforms.count == 1, let sdk = Self.sdks[platforms.first!] { own["SDKROOT"] = sdk }
        own = own.filter { xcconfig[$0.key] == nil }
        own.merge(settings(spec.root["settings"], config: config)) { $1 }
        projectLayers[config] = (xcconfig, own)
        return (xcconfig, own)
    }

    /// A target's layers for `config`; its own settings before XcodeGen adds INFOPLIST_FILE.
    mutating func targetLayers(_ target: YAMLNode, type: String, platform: String, config: String, projectXCConfig: [String: String]) -> (xcconfig: [String: String], own: [String: String]) {
        let xcconfig = configFile(target["configFiles"], config: config)
        var own: [String: String] = [:]
        if presets == "all" || presets == "targets" {
            if let sdk = Self.sdks[platform] { own["SDKROOT"] = sdk }
            if type == "application" && platform == "iOS" { own["ASSETCATALOG_COMPILER_APPICON_NAME"] = "AppIcon" }
        }
        own = own.filter { xcconfig[$0.key] == nil && projectXCConfig[$0.key] == nil }
        own.merge(settings(target["settings"], config: config)) { $1 }
        return (xcconfig, own)
    }

    static let sdks = ["iOS": "iphoneos", "tvOS": "appletvos", "macOS": "macosx", "watchOS": "watchos", "visionOS": "xros"]

    /// The settings of the xcconfig file `configFiles` names for `config` (read once per file).
    mutating func configFile(_ configFiles: YAMLNode?, config: String) -> [String: String] {
        guard let configFiles, !configFiles.isNull else { return [:] }
        guard let pairs = configFiles.mapping else {
            problems.append("\(configFiles.location): configFiles maps configuration names to xcconfig files, not \(configFiles.kind); not read")
            return [:]
        }
        if let why = spec.outside(pairs.first(where: { $0.key == config })?.value) { problems.append("configFiles: " + why); return [:] }
        guard let path = pairs.first(where: { $0.key == config })?.value, let file = spec.file(path) else { return [:] }
        if xcconfigs[file.path] == nil {
            let read = XCConfig(file: file, projectFolder: spec.folder, repository: spec.repository, from: path.location)
            problems += read.problems
            xcconfigs[file.path] = read
            origins.merge(read.origins) { $1 }
        }
        return xcconfigs[file.path]!.settings
    }

    /// What a `settings:` node gives `config`.
    mutating func settings(_ node: YAMLNode?, config: String) -> [String: String] {
        groupsLeft = Self.maxGroups
        return settings(node, config: config, trail: [])
    }

    mutating func settings(_ node: YAMLNode?, config: String, trail: [String]) -> [String: String] {
        guard let node, !node.isNull else { return [:] }
        guard let pairs = node.mapping else {
            problems.append("\(node.location): settings are a mapping of build settings, not \(node.kind); not read")
            return [:]
        }
        guard node["base"] != nil || node["configs"] != nil || node["groups"] != nil else { return values(pairs) }
        var out: [String: String] = [:]
        for group in (node["groups"]?.sequence ?? []) {
            guard let name = group.string, let settings = spec.root["settingGroups"]?[name] else {
                problems.append("\(group.location): the setting group \(group.string ?? group.kind) is not in settingGroups; not applied")
                continue
            }
            guard !trail.contains(name), trail.count < 16 else {
                problems.append("\(group.location): the setting group \(name) includes itself; not applied again")
                continue
            }
            groupsLeft -= 1
            guard groupsLeft >= 0 else {
                if groupsLeft == -1 { problems.append("\(group.location): more than \(Self.maxGroups) setting groups applied to one setting; the rest are not") }
                continue
            }
            out.merge(self.settings(settings, config: config, trail: trail + [name])) { $1 }
        }
        if let base = node["base"]?.mapping { out.merge(values(base)) { $1 } }
        // `configs: {debug: …}` applies to every configuration whose name contains "debug", unless it names another one exactly.
        let names = configNames
        for (key, settings) in node["configs"]?.mapping ?? [] where config.lowercased().contains(key.lowercased()) && (!names.contains(key) || key == config) {
            out.merge(self.settings(settings, config: config, trail: trail)) { $1 }
        }
        return out
    }

    /// Settings' values as Xcode writes them: a YAML boolean `YES`/`NO`, a list joined by spaces.
    mutating func values(_ pairs: [(key: String, value: YAMLNode)]) -> [String: String] {
        var out: [String: String] = [:]
        out.reserveCapacity(pairs.count)
        for (key, value) in pairs {
            if let text = Self.text(value) { out[key] = text; origins[key] = value.location } else {
                problems.append("\(value.location): the setting \(key) is \(value.kind), not a value or a list; not read")
            }
        }
        return out
    }

    static func text(_ value: YAMLNode) -> String? {
        if let bool = value.bool { return bool ? "YES" : "NO" }
        if value.isNull { return "" }
        if let text = value.string { return text }
        guard let items = value.sequence else { return nil }
        let texts = items.compactMap(text)
        return texts.count == items.count ? texts.joined(separator: " ") : nil
    }
}
