import Checked
import ConfinedFiles
import Foundation
import Payload
import Formats

/// An Xcode project as `pushpreview init` needs it, read from `NAME.xcodeproj/project.pbxproj`
/// (or from the XcodeGen spec or Tuist manifest that makes one, `init(xcodeGenSpec:)`,
/// `init(tuistManifest:)`): its targets with their
/// product types, build settings per configuration (the project's, then the target's, `$(VAR)`
/// expanded), source and resource files, and the regions it knows.
/// The object graph is resolved by id; a dangling id or a group that contains itself is an error
/// naming the object, and the rest of the project is still read.
public struct XcodeProject: Sendable {
    /// The `.xcodeproj` folder (or the XcodeGen spec, or the Tuist Project.swift); file paths are relative to the folder holding it.
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

    /// An app icon given as images rather than an asset catalog (an Expo config's `icon`, which
    /// prebuild turns into the catalog): paths relative to the project's folder, read when no
    /// catalog or Icon Composer bundle holds the icon.
    public var appIconImages: (light: String?, dark: String?, tinted: String?)?

    /// The repository its files are read from: every file it names is handed out by `file(_:problems:)`.
    public var repository: Repository

    public var folder: URL { bundle.deletingLastPathComponent() }

    /// What the project was read from, for messages: "Tuist project", "XcodeGen spec" or "Xcode project".
    public var kind: String { (ProjectKinds.kind(of: bundle) ?? XcodeKind.self).name }

    /// A path of the project's (relative to its folder, `$(SRCROOT)/..` and symlinks followed,
    /// case as a macOS volume ignores it) as a file inside the repository; nil, and said, when it is not.
    public func file(_ path: String, problems: inout [String]) -> URL? {
        repository.file(path, relativeTo: folder, namedIn: bundle.path, problems: &problems)
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
    public init(bundle: URL, in repository: Repository? = nil) throws(ReadError) {
        self.bundle = bundle.standardizedFileURL
        self.repository = repository ?? Repository(around: self.bundle)
        name = bundle.deletingPathExtension().lastPathComponent
        var refused: [String] = []
        // A symlinked project (or a workspace's FileRef) that leads out of the repository is not read.
        guard let file = self.repository.file("project.pbxproj", relativeTo: self.bundle, namedIn: self.bundle.path, problems: &refused) else {
            throw ReadError(description: refused.joined(separator: "; "))
        }
        definitionFiles = [file]
        let data: [UInt8]
        do { data = try self.repository.read(file) } catch {
            throw ReadError(description: error.isMissing ? "\(file.path): no such file (is \(bundle.lastPathComponent) an Xcode project?)" : error.description)
        }
        let root: PropertyListValue
        do { root = try PropertyList.read(data, file: file.path) } catch { throw ReadError(description: error.description) }
        guard let objects = root["objects"]?.dictionary, let rootID = root["rootObject"]?.string else {
            throw ReadError(description: "\(file.path): not a project file (no objects and rootObject)")
        }
        var graph = ObjectGraph(objects: objects, file: file.path)
        guard let project = graph.object(rootID, isa: "PBXProject", from: "rootObject") else { throw ReadError(description: graph.problems.joined(separator: "; ")) }
        knownRegions = project["knownRegions"]?.strings ?? []
        developmentRegion = project["developmentRegion"]?.string
        let paths = graph.filePaths(mainGroup: project["mainGroup"]?.string)
        // A configuration's xcconfig lies beneath its own settings, as Xcode layers them: project
        // xcconfig, project settings, target xcconfig, target settings.
        let repository = self.repository, folder = self.bundle.deletingLastPathComponent()
        var xcconfigFiles: [URL] = [], missingBases: Set<String> = []
        func layered(_ c: (name: String, settings: [String: String], base: String?), owner: String) -> (settings: [String: String], origins: [String: String]) {
            let place = "\(file.path): \(owner)'s \(c.name) configuration"
            var origins = c.settings.keys.reduce(into: [:]) { $0[$1] = place }
            guard let ref = c.base else { return (c.settings, origins) }
            guard let path = paths[ref]?.first, let url = repository.file(path, relativeTo: folder, namedIn: "\(place): baseConfigurationReference", problems: &graph.problems) else {
                if paths[ref] == nil { graph.problems.append("\(place): baseConfigurationReference \(ref) is no file of the project; its settings are not read") }
                return (c.settings, origins)
            }
            // Said once for the project below: CocoaPods' are absent until `pod install` writes them.
            guard repository.exists(url) else { missingBases.insert(path); return (c.settings, origins) }
            let read = XCConfig(file: url, projectFolder: folder, repository: repository, from: "\(place): baseConfigurationReference")
            graph.problems += read.problems.filter { !graph.problems.contains($0) }
            xcconfigFiles += read.files
            for (key, at) in read.origins where c.settings[key] == nil { origins[key] = at }
            return (BuildSettings.overlay(read.settings, c.settings, origins: origins, problems: &graph.problems), origins)
        }
        let projectSettings = graph.configurations(project["buildConfigurationList"], owner: "the project").map { ($0.name, layered($0, owner: "the project")) }
        for targetID in project["targets"]?.strings ?? [] {
            guard let t = graph.object(targetID, isa: nil, from: "the project's targets") else { continue }
            let targetName = t["name"]?.string ?? targetID
            var target = Target(id: targetID, name: targetName, productType: t["productType"]?.string ?? "")
            target.defaultConfiguration = t["buildConfigurationList"]?.string.flatMap { objects[$0]?["defaultConfigurationName"]?.string }
            let own = graph.configurations(t["buildConfigurationList"], owner: "target \(targetName)")
            for c in own {
                let configName = c.name, (settings, targetOrigins) = layered(c, owner: "target \(targetName)")
                let (base, projectOrigins) = projectSettings.first { $0.0 == configName }?.1 ?? ([:], [:])
                // The pbxproj's values carry no lines: a setting is placed by its configuration (an xcconfig's by its line).
                let origins = projectOrigins.merging(targetOrigins) { _, target in target }
                let merged = BuildSettings.merge(base, settings, builtIn: ["TARGET_NAME": targetName, "PROJECT_NAME": name, "CONFIGURATION": configName,
                                                                            "SRCROOT": ".", "PROJECT_DIR": ".", "SOURCE_ROOT": "."],
                                                 origins: origins, problems: &graph.problems)
                target.configurations.append(Configuration(name: configName, settings: merged))
            }
            for phaseID in t["buildPhases"]?.strings ?? [] {
                guard let phase = graph.object(phaseID, isa: nil, from: "target \(targetName)'s build phases") else { continue }
                let kind = phase["isa"]?.string
                guard kind == "PBXSourcesBuildPhase" || kind == "PBXResourcesBuildPhase" else { continue }
                for buildFileID in phase["files"]?.strings ?? [] {
                    guard let buildFile = graph.object(buildFileID, isa: "PBXBuildFile", from: "target \(targetName)'s \(kind!)"),
                          let ref = buildFile["fileRef"]?.string else { continue }
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
            for groupID in t["fileSystemSynchronizedGroups"]?.strings ?? [] {
                guard let group = graph.object(groupID, isa: "PBXFileSystemSynchronizedRootGroup", from: "target \(targetName)'s synchronized folders"),
                      let folder = paths[groupID]?.first else { continue }
                let excluded = Self.membershipExceptions(of: group, for: targetID, in: objects)
                guard let root = self.file(folder, problems: &graph.problems) else { continue }
                let files = SynchronizedFolder.files(root, in: self.repository, excluding: excluded)
                target.sources += files.sources.map { folder + "/" + $0 }
                target.resources += files.resources.map { folder + "/" + $0 }
            }
            // An exception for a target the folder is not synchronized with works the other way:
            // the files it lists are that target's (a storyboard of a shared folder, say).
            let synchronized = Set(t["fileSystemSynchronizedGroups"]?.strings ?? [])
            for (groupID, value) in objects.sorted(by: { $0.key < $1.key }) where !synchronized.contains(groupID) {
                guard let group = value.dictionary, group["isa"]?.string == "PBXFileSystemSynchronizedRootGroup",
                      let folder = paths[groupID]?.first else { continue }
                let listed = Self.membershipExceptions(of: group, for: targetID, in: objects)
                guard !listed.isEmpty else { continue }
                guard let root = self.file(folder, problems: &graph.problems) else { continue }
                let files = SynchronizedFolder.files(root, in: self.repository, excluding: []) { path, isFolder in
                    (!isFolder || SynchronizedFolder.isPackage(path)) && !SynchronizedFolder.matches(path, listed)
                }
                target.sources += files.sources.map { folder + "/" + $0 }
                target.resources += files.resources.map { folder + "/" + $0 }
            }
            targets.append(target)
        }
        // A project-level setting's problem comes once, not once per target.
        var said = Set<String>()
        if !missingBases.isEmpty {
            let sorted = missingBases.sorted()
            graph.problems.append("\(file.path): \(sorted.count) xcconfig file(s) that configurations are based on are not in the repository (\(sorted.prefix(3).joined(separator: ", "))\(sorted.count > 3 ? ", …" : ""))"
                                  + (sorted.contains { $0.contains("Pods") } ? "; CocoaPods writes its own on pod install" : "")
                                  + (sorted.contains { $0.hasSuffix("Generated.xcconfig") } ? "; Flutter writes Generated.xcconfig on `flutter pub get` (the SDK's paths, and FLUTTER_BUILD_NAME/FLUTTER_BUILD_NUMBER from pubspec.yaml's version)" : "")
                                  + "; their settings are not read")
        }
        problems = graph.problems.filter { said.insert($0).inserted }
        var seenFiles = Set(definitionFiles)
        definitionFiles += xcconfigFiles.filter { seenFiles.insert($0).inserted }
    }

    /// The files a synchronized folder's exceptions list for one target.
    private static func membershipExceptions(of group: PropertyListDictionary, for targetID: String, in objects: PropertyListDictionary) -> Set<String> {
        Set((group["exceptions"]?.strings ?? []).compactMap { objects[$0]?.dictionary }
            .filter { $0["target"]?.string == targetID }.flatMap { $0["membershipExceptions"]?.strings ?? [] })
    }
}
