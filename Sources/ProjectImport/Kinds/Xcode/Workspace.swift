import ConfinedFiles
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// An `.xcworkspace`: not a project but a list of them (`contents.xcworkspacedata`), in groups.
enum Workspace {
    /// The projects a workspace lists: `group:` locations relative to the enclosing group's,
    /// `container:` to the workspace's folder, `absolute:` as they are; its own
    /// `project.xcworkspace` (inside a project) stands for that project.
    /// A project it lists outside the repository that holds it is said, not read.
    static func projects(_ workspace: URL, in repository: Repository) throws(XcodeProject.ReadError) -> [URL] {
        if workspace.deletingLastPathComponent().pathExtension == "xcodeproj" { return [workspace.deletingLastPathComponent()] }
        let file = workspace.appendingPathComponent("contents.xcworkspacedata")
        let data: [UInt8]
        do { data = try repository.read(file, limit: 4 << 20) } catch {
            throw XcodeProject.ReadError(description: error.isMissing ? "\(file.path): no such file (is \(workspace.lastPathComponent) a workspace?)" : "\(file.path): \(error.why)")
        }
        let reader = WorkspaceReader(folder: workspace.deletingLastPathComponent())
        let parser = XMLParser(data: Data(data))
        parser.shouldResolveExternalEntities = false
        parser.delegate = reader
        let parsed = parser.parse()
        guard parsed, parser.parserError == nil, reader.closed else {
            let why = parser.parserError.map { "\($0.localizedDescription)" } ?? (reader.closed ? "not well-formed XML" : "the file ends before </Workspace> (cut short?)")
            throw XcodeProject.ReadError(description: "\(file.path): line \(parser.lineNumber), column \(parser.columnNumber): \(why)")
        }
        let outside = reader.projects.filter { !repository.contains($0) }
        guard outside.isEmpty else {
            throw XcodeProject.ReadError(description: "\(file.path): lists \(outside.map(\.path).joined(separator: ", ")), outside the repository \(repository.root.path); not read (give init the project itself)")
        }
        return reader.projects
    }

}

/// `<Workspace>`'s `<Group location=…>` and `<FileRef location=…>` elements, groups nesting.
final class WorkspaceReader: NSObject, XMLParserDelegate {
    var folders: [URL]
    var projects: [URL] = []
    /// Whether `</Workspace>` was read: the parser does not count a file cut short as an error.
    var closed = false
    init(folder: URL) { folders = [folder] }

    func resolve(_ location: String) -> URL? {
        let parts = location.split(separator: ":", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { return nil }
        switch parts[0] {
        case "group": return folders.last!.appendingPathComponent(parts[1]).standardizedFileURL
        case "container": return folders[0].appendingPathComponent(parts[1]).standardizedFileURL
        case "absolute": return URL(fileURLWithPath: parts[1]).standardizedFileURL
        default: return nil
        }
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
        let location = attributes["location"].flatMap(resolve)
        if name == "Group" { folders.append(location ?? folders.last!) }
        if name == "FileRef", let location, location.pathExtension == "xcodeproj" { projects.append(location) }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        if name == "Group", folders.count > 1 { folders.removeLast() }
        if name == "Workspace" { closed = true }
    }
}
