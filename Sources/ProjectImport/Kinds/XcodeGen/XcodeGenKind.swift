import ConfinedFiles
import Foundation

/// An XcodeGen spec (`project.yml`, or any YAML file named): the project it generates (`XcodeProject(xcodeGenSpec:)`).
public enum XcodeGenKind: ProjectKind {
    public static let name = "XcodeGen spec"
    public static let manifestName: String? = "project.yml"
    public static func isProject(_ path: URL) -> Bool { ["yml", "yaml"].contains(path.pathExtension) }
    public static func read(_ path: URL, in repository: Repository?) throws(XcodeProject.ReadError) -> XcodeProject {
        try XcodeProject(xcodeGenSpec: path, in: repository)
    }
}
