import ConfinedFiles
import Foundation

/// A Tuist manifest (`Project.swift`, or any Swift file named but `Workspace.swift`, which stands
/// for the folder of projects it is in): the project it generates (`XcodeProject(tuistManifest:)`).
public enum TuistKind: ProjectKind {
    public static let name = "Tuist project"
    public static let manifestName: String? = "Project.swift"
    public static func isProject(_ path: URL) -> Bool { path.pathExtension == "swift" && path.lastPathComponent != "Workspace.swift" }
    public static func read(_ path: URL, in repository: Repository?) throws(XcodeProject.ReadError) -> XcodeProject {
        try XcodeProject(tuistManifest: path, in: repository)
    }
}
