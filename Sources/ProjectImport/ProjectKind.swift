import ConfinedFiles
import Foundation

/// A kind of project an iOS app is read from. Each answers the same questions — is this path one
/// of mine, and which targets (the app and its extensions, with their settings, files and
/// Info.plists) does it hold — as one `XcodeProject`, which the rest of the reading asks which
/// app, which extensions, which files and (through the code readers) which categories. A new kind
/// is a folder under `Kinds/` and a line in `ProjectKinds.all`; nothing else changes.
/// (The cross-platform shells in `Kinds/CrossPlatform/` find the folder with one of these kinds
/// inside and add the categories their own code registers; an Expo app before prebuild is a kind
/// of its own, `ExpoTargetsKind`, read from its config and `targets/`.)
public protocol ProjectKind: Sendable {
    /// For messages: "Xcode project", "XcodeGen spec", "Tuist project".
    static var name: String { get }
    /// Whether `path`, named by the person running init or met walking a folder, is one of this kind's projects.
    static func isProject(_ path: URL) -> Bool
    /// The file name this kind's project has in a folder that is searched (`project.yml`), when
    /// it is a manifest that makes an `.xcodeproj`: read only when no generated one is beside it.
    static var manifestName: String? { get }
    /// The project at `path`, read with every file inside `repository`.
    static func read(_ path: URL, in repository: Repository?) throws(XcodeProject.ReadError) -> XcodeProject
}

public enum ProjectKinds {
    /// Every kind, in the order a path is offered to them.
    public static let all: [any ProjectKind.Type] = [XcodeKind.self, XcodeGenKind.self, TuistKind.self, ExpoTargetsKind.self]

    /// The kind whose project `path` is, if any.
    public static func kind(of path: URL) -> (any ProjectKind.Type)? { all.first { $0.isProject(path) } }

    /// Whether `path` names a project or a container of projects (a workspace, Tuist's
    /// `Workspace.swift`) rather than a folder to search: the folder holding it is the app's.
    public static func namesProjectFile(_ path: URL) -> Bool {
        path.pathExtension == "xcworkspace" || path.lastPathComponent == "Workspace.swift" || kind(of: path) != nil
    }

    /// The file names of the manifests a searched folder may hold.
    static var manifestNames: Set<String> { Set(all.compactMap { $0.manifestName }) }

    /// The project at `path`, by its kind (an `.xcodeproj` when no kind claims it, so that its error says so).
    public static func read(_ path: URL, in repository: Repository? = nil) throws(XcodeProject.ReadError) -> XcodeProject {
        try (kind(of: path) ?? XcodeKind.self).read(path, in: repository)
    }
}
