import ConfinedFiles
import Foundation
import Payload
import Formats

/// Where an app's Xcode projects are: the path `pushpreview init` is given may be an
/// `.xcodeproj`, an `.xcworkspace` (its `contents.xcworkspacedata` lists projects, in groups), an
/// XcodeGen spec (`project.yml`), a Tuist manifest (`Project.swift`, or the `Workspace.swift`
/// whose folder holds them), or a repository folder holding any number of them.
public enum XcodeDiscovery {
    /// Folders that hold other people's projects or build output, never the app's own.
    static let skipped: Set<String> = ["Pods", "Carthage", "DerivedData", ".build", "build", "node_modules", ".git", "SourcePackages"]
    /// What a repository folder is searched for, for the message when nothing is found.
    public static let lookedFor = ".xcodeproj, .xcworkspace, XcodeGen project.yml or Tuist Project.swift"

    /// The projects `path` names, sorted by path; a workspace's in its own order. In a folder, a
    /// `project.yml` or a Tuist `Project.swift` is a project when no generated `.xcodeproj` (one
    /// with a project.pbxproj) is beside it: a repository that commits only its XcodeGen spec or
    /// Tuist manifest (and perhaps the `.xcodeproj`'s shared schemes) is read from that.
    public static func projects(at path: URL) throws(XcodeProject.ReadError) -> [URL] {
        let path = path.standardizedFileURL
        let repository = Repository(around: path)
        // Containers of projects: a workspace lists them; Tuist's Workspace.swift stands for its folder.
        if path.pathExtension == "xcworkspace" { return try Workspace.projects(path, in: repository) }
        if path.lastPathComponent == "Workspace.swift" { return try projects(at: path.deletingLastPathComponent()) }
        // An .xcodeproj that holds only the shared schemes of the manifest beside it is that manifest's.
        if XcodeKind.isProject(path), !isGenerated(path, in: repository),
           let manifest = ProjectKinds.manifestNames.sorted().map({ path.deletingLastPathComponent().appendingPathComponent($0) }).first(where: repository.exists) {
            return [manifest]
        }
        if ProjectKinds.kind(of: path) != nil { return [path] }
        guard TrustedFiles.isFolder(path) else {
            throw XcodeProject.ReadError(description: "\(path.path): not a folder, an .xcodeproj, an .xcworkspace, an XcodeGen project.yml or a Tuist Project.swift")
        }
        var found: [URL] = []
        func walk(_ folder: URL, depth: Int) {
            let names = repository.names(folder)
            guard depth < 8, !names.isEmpty else { return }
            let projects = names.filter { $0.hasSuffix(".xcodeproj") }.map { folder.appendingPathComponent($0) }
            let manifests = ProjectKinds.manifestNames
            let readsSpec = names.contains(where: manifests.contains) && !projects.contains { isGenerated($0, in: repository) }
            for name in names.sorted() where !skipped.contains(name) && !name.hasPrefix(".") {
                let url = folder.appendingPathComponent(name)
                if XcodeKind.isProject(url) { if !readsSpec { found.append(url) }; continue }
                if manifests.contains(name) { if readsSpec { found.append(url) }; continue }
                // A workspace inside a project (project.xcworkspace) is Xcode's own; others list projects found anyway.
                if name.hasSuffix(".xcworkspace") { continue }
                if repository.isFolder(url), !repository.isLink(url) { walk(url, depth: depth + 1) }
            }
        }
        walk(path, depth: 0)
        return found
    }

    /// Whether an `.xcodeproj` holds a project (XcodeGen's output may be absent, its schemes committed).
    static func isGenerated(_ project: URL, in repository: Repository) -> Bool {
        repository.exists(project.appendingPathComponent("project.pbxproj"))
    }

    /// A target's extension point (`com.apple.usernotifications.content-extension`, …): its
    /// Info.plist's `NSExtension` → `NSExtensionPointIdentifier`; nil when it has none.
    public static func extensionPoint(of target: XcodeProject.Target, in project: XcodeProject, configuration: String? = nil,
                                      problems: inout [String]) -> String? {
        infoPlist(of: target, in: project, configuration: configuration, problems: &problems)["NSExtension"]?["NSExtensionPointIdentifier"]?.string
    }

    /// The Info.plist a target's build produces: the file its `INFOPLIST_FILE` names (if any),
    /// then, with `GENERATE_INFOPLIST_FILE`, each `INFOPLIST_KEY_name` setting as `name`, and every
    /// `$(VAR)` in its strings expanded from the build settings. A file that cannot be read is a
    /// problem, said, and the generated keys are still given.
    public static func infoPlist(of target: XcodeProject.Target, in project: XcodeProject, configuration: String? = nil,
                                 problems: inout [String]) -> PropertyListValue {
        guard let settings = target.configuration(configuration)?.settings else { return .dictionary(.init()) }
        var plist = PropertyListDictionary()
        var place = "target \(target.name)'s Info.plist"
        if let generated = target.generatedInfoPlist {
            plist = PropertyListValue(generated).dictionary ?? .init()
        } else if let path = settings["INFOPLIST_FILE"], !path.isEmpty, let file = project.file(path, problems: &problems) {
            place = file.path
            if let data = project.repository.contents(file, limit: 4 << 20) {
                do {
                    if let read = try PropertyList.read(data, file: file.path).dictionary { plist = read }
                    else { problems.append("\(file.path): target \(target.name)'s Info.plist is not a dictionary") }
                } catch { problems.append(error.description) }
            } else {
                problems.append("\(file.path): target \(target.name)'s INFOPLIST_FILE does not exist")
            }
        }
        if settings["GENERATE_INFOPLIST_FILE"] == "YES" {
            for (key, value) in settings where key.hasPrefix("INFOPLIST_KEY_") && plist[String(key.dropFirst(14))] == nil {
                plist[String(key.dropFirst(14))] = .string(value)
            }
        }
        // One expansion for the whole file: its budget covers every string in it.
        var expansion = BuildSettingExpansion(settings)
        let expanded = PropertyListValue.dictionary(plist).mapStrings { expansion.expand($0, at: "\(place): \($1)") }
        problems += expansion.problems
        return expanded
    }
}

extension XcodeDiscovery {
    /// The font files a target's `UIAppFonts` names, found among its resources (a file, or a file
    /// inside a resource folder), relative to the project's folder; a name found nowhere is said.
    public static func fonts(of target: XcodeProject.Target, in project: XcodeProject, problems: inout [String]) -> [String] {
        let names = infoPlist(of: target, in: project, problems: &problems)["UIAppFonts"]?.strings ?? []
        return names.compactMap { name in
            let file = URL(fileURLWithPath: name).lastPathComponent
            if let hit = target.resources.first(where: { $0 == name || $0.hasSuffix("/" + name) || URL(fileURLWithPath: $0).lastPathComponent == file }) { return hit }
            var ignored: [String] = [] // said when the font is read
            if let folder = target.resources.first(where: { project.file($0 + "/" + name, problems: &ignored).map { project.repository.exists($0) } ?? false }) {
                return folder + "/" + name
            }
            problems.append("target \(target.name): UIAppFonts lists \(name), which is not among its resources; drawn without it")
            return nil
        }
    }
}
