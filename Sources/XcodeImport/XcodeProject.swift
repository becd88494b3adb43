import Foundation
import Payload

/// An Xcode project as `pushpreview init` needs it, read from `NAME.xcodeproj/project.pbxproj`
/// (or from the XcodeGen spec that makes one, `init(xcodeGenSpec:)`): its targets with their
/// product types, build settings per configuration (the project's, then the target's, `$(VAR)`
/// expanded), source and resource files, and the regions it knows.
/// The object graph is resolved by id; a dangling id or a group that contains itself is an error
/// naming the object, and the rest of the project is still read.
public struct XcodeProject: Sendable {
    /// The `.xcodeproj` folder (or the XcodeGen spec); file paths are relative to the folder holding it.
    public var bundle: URL
    public var name: String
    public var targets: [Target] = []
    public var knownRegions: [String] = []
    public var developmentRegion: String?
    /// What could not be read, each naming the file and the object.
    public var problems: [String] = []
    /// The files the project was read from: its project.pbxproj, or a spec, the specs it
    /// includes and the xcconfig files it names.
    public var definitionFiles: [URL] = []

    public var folder: URL { bundle.deletingLastPathComponent() }

    /// The project at `location`: an `.xcodeproj`, or an XcodeGen spec (`project.yml`).
    public static func read(_ location: URL) throws(ReadError) -> XcodeProject {
        ["yml", "yaml"].contains(location.pathExtension) ? try XcodeProject(xcodeGenSpec: location) : try XcodeProject(bundle: location)
    }

    public struct Target: Sendable {
        public var id: String
        public var name: String
        /// `com.apple.product-type.application`, `com.apple.product-type.app-extension`, …
        public var productType: String
        public var configurations: [Configuration] = []
        /// Paths relative to the project's folder, in build-phase order.
        public var sources: [String] = []
        public var resources: [String] = []
        /// The Info.plist an XcodeGen spec's `info:` makes (XcodeGen writes it to INFOPLIST_FILE
        /// when it generates the project, so the file may not be there yet): read instead of it.
        public var generatedInfoPlist: JSONValue?

        public var isApplication: Bool { productType == "com.apple.product-type.application" }
        public var isAppExtension: Bool { productType.hasPrefix("com.apple.product-type.app-extension") }

        /// The one `xcodebuild` builds when none is named (the list's `defaultConfigurationName`).
        public var defaultConfiguration: String?

        /// The configuration named `name`, else the default one, else the first.
        public func configuration(_ name: String? = nil) -> Configuration? {
            configurations.first { $0.name == name } ?? configurations.first { $0.name == defaultConfiguration } ?? configurations.first
        }
    }

    public struct Configuration: Sendable {
        public var name: String
        /// The project's settings overlaid with the target's, every `$(VAR)` expanded.
        public var settings: [String: String]
        public subscript(_ key: String) -> String? { settings[key] }
    }

    public struct ReadError: Error, CustomStringConvertible {
        public var description: String
    }

    /// Reads `bundle/project.pbxproj`.
    public init(bundle: URL) throws(ReadError) {
        self.bundle = bundle.standardizedFileURL
        name = bundle.deletingPathExtension().lastPathComponent
        let file = self.bundle.appendingPathComponent("project.pbxproj")
        definitionFiles = [file]
        guard let data = FileManager.default.contents(atPath: file.path) else { throw ReadError(description: "\(file.path): no such file (is \(bundle.lastPathComponent) an Xcode project?)") }
        let root: Any
        do { root = try PropertyList.read([UInt8](data), file: file.path) } catch { throw ReadError(description: error.description) }
        guard let top = root as? [String: Any], let objects = top["objects"] as? [String: Any],
              let rootID = top["rootObject"] as? String else {
            throw ReadError(description: "\(file.path): not a project file (no objects and rootObject)")
        }
        var graph = Graph(objects: objects, file: file.path)
        guard let project = graph.object(rootID, isa: "PBXProject", from: "rootObject") else { throw ReadError(description: graph.problems.joined(separator: "; ")) }
        knownRegions = project["knownRegions"] as? [String] ?? []
        developmentRegion = project["developmentRegion"] as? String
        let paths = graph.filePaths(mainGroup: project["mainGroup"] as? String)
        let projectSettings = graph.configurations(project["buildConfigurationList"], owner: "the project")
        for targetID in project["targets"] as? [String] ?? [] {
            guard let t = graph.object(targetID, isa: nil, from: "the project's targets") else { continue }
            let targetName = t["name"] as? String ?? targetID
            var target = Target(id: targetID, name: targetName, productType: t["productType"] as? String ?? "")
            target.defaultConfiguration = ((t["buildConfigurationList"] as? String).flatMap { objects[$0] as? [String: Any] })?["defaultConfigurationName"] as? String
            let own = graph.configurations(t["buildConfigurationList"], owner: "target \(targetName)")
            for (configName, settings) in own {
                let base = projectSettings.first { $0.0 == configName }?.1 ?? [:]
                let merged = BuildSettings.merge(base, settings, builtIn: ["TARGET_NAME": targetName, "PROJECT_NAME": name, "CONFIGURATION": configName,
                                                                            "SRCROOT": ".", "PROJECT_DIR": ".", "SOURCE_ROOT": "."])
                target.configurations.append(Configuration(name: configName, settings: merged))
            }
            for phaseID in t["buildPhases"] as? [String] ?? [] {
                guard let phase = graph.object(phaseID, isa: nil, from: "target \(targetName)'s build phases") else { continue }
                let kind = phase["isa"] as? String
                guard kind == "PBXSourcesBuildPhase" || kind == "PBXResourcesBuildPhase" else { continue }
                for buildFileID in phase["files"] as? [String] ?? [] {
                    guard let buildFile = graph.object(buildFileID, isa: "PBXBuildFile", from: "target \(targetName)'s \(kind!)"),
                          let ref = buildFile["fileRef"] as? String else { continue }
                    if paths[ref] == nil, objects[ref] == nil {
                        graph.problems.append("\(file.path): build file \(buildFileID) of target \(targetName) names file \(ref), which does not exist; skipped")
                    }
                    // A localized file (a variant group) stands for each of its localizations.
                    for path in paths[ref] ?? [] {
                        if kind == "PBXSourcesBuildPhase" { target.sources.append(path) } else { target.resources.append(path) }
                    }
                }
            }
            // Xcode 16's folders kept in step with the disk: every file in them is the target's.
            for groupID in t["fileSystemSynchronizedGroups"] as? [String] ?? [] {
                guard let group = graph.object(groupID, isa: "PBXFileSystemSynchronizedRootGroup", from: "target \(targetName)'s synchronized folders"),
                      let folder = paths[groupID]?.first else { continue }
                let excluded = Set((group["exceptions"] as? [String] ?? []).compactMap { objects[$0] as? [String: Any] }
                    .filter { $0["target"] as? String == targetID }.flatMap { $0["membershipExceptions"] as? [String] ?? [] })
                let files = SynchronizedFolder.files(self.folder.appendingPathComponent(folder), excluding: excluded)
                target.sources += files.sources.map { folder + "/" + $0 }
                target.resources += files.resources.map { folder + "/" + $0 }
            }
            // An exception for a target the folder is not synchronized with works the other way:
            // the files it lists are that target's (a storyboard of a shared folder, say).
            let synchronized = Set(t["fileSystemSynchronizedGroups"] as? [String] ?? [])
            for (groupID, value) in objects.sorted(by: { $0.key < $1.key }) where !synchronized.contains(groupID) {
                guard let group = value as? [String: Any], group["isa"] as? String == "PBXFileSystemSynchronizedRootGroup",
                      let folder = paths[groupID]?.first else { continue }
                let listed = Set((group["exceptions"] as? [String] ?? []).compactMap { objects[$0] as? [String: Any] }
                    .filter { $0["target"] as? String == targetID }.flatMap { $0["membershipExceptions"] as? [String] ?? [] })
                guard !listed.isEmpty else { continue }
                let files = SynchronizedFolder.files(self.folder.appendingPathComponent(folder), excluding: []) { path, isFolder in
                    (!isFolder || SynchronizedFolder.isPackage(path)) && !SynchronizedFolder.matches(path, listed)
                }
                target.sources += files.sources.map { folder + "/" + $0 }
                target.resources += files.resources.map { folder + "/" + $0 }
            }
            targets.append(target)
        }
        problems = graph.problems
    }
}

/// The files of a synchronized folder (`PBXFileSystemSynchronizedRootGroup`) as Xcode sorts
/// them: code to compile, and resources (a bundle-like folder — an asset catalog, a Core Data
/// model — is one resource). `excluding` is a target's membership exceptions, relative to the
/// folder (`/Localized/DIR/NAME` for each localization of DIR/NAME); `alsoExcluding` says of any
/// other path (and whether it is a folder) whether to leave it out.
enum SynchronizedFolder {
    static let sourceExtensions: Set<String> = ["swift", "m", "mm", "c", "cc", "cpp"]
    static let packageExtensions: Set<String> = ["xcassets", "bundle", "xcdatamodeld", "scnassets", "docc", "icon", "framework", "rcproject"]

    /// Whether `list` (membership exceptions) names `path`: as it is, or as `/Localized/DIR/NAME`
    /// for `DIR/LANG.lproj/NAME`.
    static func matches(_ path: String, _ list: Set<String>) -> Bool {
        if list.contains(path) { return true }
        let parts = path.split(separator: "/")
        guard parts.count >= 2, parts[parts.count - 2].hasSuffix(".lproj") else { return false }
        return list.contains("/Localized/" + (parts.dropLast(2) + [parts.last!]).joined(separator: "/"))
    }

    static func isPackage(_ path: String) -> Bool {
        let name = path.split(separator: "/").last ?? ""
        return name.split(separator: ".").count > 1 && packageExtensions.contains(String(name.split(separator: ".").last!))
    }

    static func files(_ root: URL, excluding: Set<String>,
                      alsoExcluding: (String, Bool) -> Bool = { _, _ in false }) -> (sources: [String], resources: [String]) {
        var sources: [String] = [], resources: [String] = []
        let fm = FileManager.default
        func isExcluded(_ path: String) -> Bool { matches(path, excluding) }
        func walk(_ relative: String, depth: Int) {
            guard depth < 16, let names = try? fm.contentsOfDirectory(atPath: root.appendingPathComponent(relative).path) else { return }
            for name in names.sorted() where !name.hasPrefix(".") {
                let path = relative.isEmpty ? name : relative + "/" + name
                let ext = name.split(separator: ".").count > 1 ? String(name.split(separator: ".").last!) : ""
                var isFolder: ObjCBool = false
                _ = fm.fileExists(atPath: root.appendingPathComponent(path).path, isDirectory: &isFolder)
                if isExcluded(path) || alsoExcluding(path, isFolder.boolValue) { continue }
                if isFolder.boolValue && !packageExtensions.contains(ext) { walk(path, depth: depth + 1); continue }
                if sourceExtensions.contains(ext) { sources.append(path) } else if ext != "h" && name != "Info.plist" { resources.append(path) }
            }
        }
        walk("", depth: 0)
        return (sources, resources)
    }
}

/// The objects of a pbxproj by id, read with a note of what went wrong.
struct Graph {
    let objects: [String: Any]
    let file: String
    var problems: [String] = []

    mutating func object(_ id: String, isa: String?, from: String) -> [String: Any]? {
        guard let o = objects[id] as? [String: Any] else {
            problems.append("\(file): object \(id) (from \(from)) is missing or not a dictionary; skipped")
            return nil
        }
        if let isa, o["isa"] as? String != isa {
            problems.append("\(file): object \(id) (from \(from)) is a \(o["isa"] as? String ?? "thing with no isa"), not a \(isa); skipped")
            return nil
        }
        return o
    }

    /// Each configuration's own settings (name, settings), strings and lists joined by spaces.
    mutating func configurations(_ listID: Any?, owner: String) -> [(String, [String: String])] {
        guard let listID = listID as? String, let list = object(listID, isa: "XCConfigurationList", from: "\(owner)'s buildConfigurationList") else { return [] }
        return (list["buildConfigurations"] as? [String] ?? []).compactMap { id in
            guard let c = object(id, isa: "XCBuildConfiguration", from: "\(owner)'s configurations") else { return nil }
            var settings: [String: String] = [:]
            for (key, value) in c["buildSettings"] as? [String: Any] ?? [:] {
                if let s = value as? String { settings[key] = s } else if let items = value as? [Any] { settings[key] = items.compactMap { $0 as? String }.joined(separator: " ") }
            }
            return (c["name"] as? String ?? id, settings)
        }
    }

    /// The path of every file reference under the main group, relative to the project's folder
    /// (a variant group: each of its localizations' paths). A group met again on its own path is
    /// a reference cycle: said, and not followed.
    mutating func filePaths(mainGroup: String?) -> [String: [String]] {
        var out: [String: [String]] = [:]
        guard let mainGroup else { problems.append("\(file): the project has no mainGroup; its files are not read"); return out }
        func join(_ base: String, _ path: String?) -> String {
            guard let path, !path.isEmpty else { return base }
            return base.isEmpty || base == "." ? path : base + "/" + path
        }
        func visit(_ id: String, base: String, trail: [String]) {
            guard !trail.contains(id) else {
                problems.append("\(file): group \(id) contains itself (\((trail + [id]).joined(separator: " → "))): a reference cycle, not followed")
                return
            }
            guard trail.count < 64, let o = object(id, isa: nil, from: trail.last.map { "group \($0)" } ?? "mainGroup") else { return }
            let tree = o["sourceTree"] as? String ?? "<group>"
            // Paths Xcode resolves against the project's folder or the group; the SDK's and the
            // build products' are not the app's files.
            let here: String
            switch tree {
            case "<group>": here = join(base, o["path"] as? String)
            case "SOURCE_ROOT": here = join(".", o["path"] as? String)
            case "<absolute>": here = o["path"] as? String ?? ""
            default: return
            }
            switch o["isa"] as? String {
            case "PBXGroup":
                for child in o["children"] as? [String] ?? [] { visit(child, base: here, trail: trail + [id]) }
            case "PBXVariantGroup":
                for child in o["children"] as? [String] ?? [] {
                    guard let c = object(child, isa: "PBXFileReference", from: "variant group \(id)") else { continue }
                    out[id, default: []].append(join(base, c["path"] as? String))
                }
            case "PBXFileReference", "PBXFileSystemSynchronizedRootGroup":
                out[id, default: []].append(here)
            default: break
            }
        }
        visit(mainGroup, base: "", trail: [])
        return out
    }
}

/// Build settings as Xcode combines them: a target's over its project's, `$(inherited)` the
/// value beneath, `$(VAR)` and `${VAR}` replaced (with `:lower`, `:upper`, `:rfc1034identifier`
/// and `:c99extidentifier`), defaults for `PRODUCT_NAME`, `PRODUCT_MODULE_NAME` and the
/// built-in names.
public enum BuildSettings {
    public static func merge(_ base: [String: String], _ own: [String: String], builtIn: [String: String]) -> [String: String] {
        var raw = overlay(base, own)
        if raw["PRODUCT_NAME"] == nil { raw["PRODUCT_NAME"] = "$(TARGET_NAME)" }
        // Xcode's own default, which extensions' Info.plists name (`$(PRODUCT_MODULE_NAME).NotificationService`).
        if raw["PRODUCT_MODULE_NAME"] == nil { raw["PRODUCT_MODULE_NAME"] = "$(PRODUCT_NAME:c99extidentifier)" }
        var out: [String: String] = [:]
        for (key, value) in raw { out[key] = expand(value, raw, builtIn) }
        return out
    }

    /// `own` over `base`, each `$(inherited)` (or `${inherited}`) in `own` the value beneath.
    public static func overlay(_ base: [String: String], _ own: [String: String]) -> [String: String] {
        var out = base
        out.reserveCapacity(base.count + own.count)
        for (key, value) in own {
            var text = value
            if text.utf8.contains(UInt8(ascii: "$")) {
                text = text.replacingOccurrences(of: "${inherited}", with: "$(inherited)").replacingOccurrences(of: "$(inherited)", with: base[key] ?? "")
            }
            if text.first?.isWhitespace == true || text.last?.isWhitespace == true { text = text.trimmingCharacters(in: .whitespaces) }
            out[key] = text
        }
        return out
    }

    /// `$(NAME)` and `${NAME}` replaced, nested up to 16 deep (a setting that names itself stops there).
    public static func expand(_ value: String, _ settings: [String: String], _ builtIn: [String: String], depth: Int = 0) -> String {
        guard depth < 16, value.utf8.contains(UInt8(ascii: "$")) else { return value }
        var out = "", rest = Substring(value)
        while let dollar = rest.firstIndex(of: "$") {
            out += rest[..<dollar]
            let after = rest[rest.index(after: dollar)...]
            guard let open = after.first, open == "(" || open == "{",
                  let close = after.firstIndex(of: open == "(" ? ")" : "}") else { out.append("$"); rest = after; continue }
            let inner = after[after.index(after: after.startIndex)..<close]
            let parts = inner.split(separator: ":", maxSplits: 1).map(String.init)
            var text = parts.first.flatMap { settings[$0] ?? builtIn[$0] }.map { expand($0, settings, builtIn, depth: depth + 1) } ?? ""
            if parts.count > 1 {
                for op in parts[1].split(separator: ",") {
                    switch op {
                    case "lower": text = text.lowercased()
                    case "upper": text = text.uppercased()
                    case "rfc1034identifier": text = String(text.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "." ? $0 : "-" })
                    case "c99extidentifier": text = String(text.map { $0.isLetter || $0.isNumber || $0 == "_" ? $0 : "_" })
                    default: break
                    }
                }
            }
            out += text
            rest = after[after.index(after: close)...]
        }
        return out + rest
    }
}
