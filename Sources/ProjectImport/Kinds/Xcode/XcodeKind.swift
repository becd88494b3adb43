import ConfinedFiles
import Foundation

/// An `.xcodeproj`: its `project.pbxproj` (`XcodeProject(bundle:)`).
public enum XcodeKind: ProjectKind {
    public static let name = "Xcode project"
    public static let manifestName: String? = nil
    public static func isProject(_ path: URL) -> Bool { path.pathExtension == "xcodeproj" }
    public static func read(_ path: URL, in repository: Repository?) throws(XcodeProject.ReadError) -> XcodeProject {
        try XcodeProject(bundle: path, in: repository)
    }
}
