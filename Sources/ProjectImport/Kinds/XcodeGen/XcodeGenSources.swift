import ConfinedFiles
import Foundation
import Formats

/// A target's files from its XcodeGen `sources:`, sorted into build phases as XcodeGen sorts
/// them: a folder is walked (`type: group`, the default) with its `excludes` and `includes`, a
/// file or a folder with an extension (`Images.xcassets`) is one file, `type: folder` is a
/// folder reference (a resource), `type: syncedFolder` is Xcode 16's synchronized folder.
/// Each `LANG.lproj`'s files are resources, `Info.plist` is in no phase, and `buildPhase:`
/// puts every file of its source in that phase. Paths are relative to the project's folder.
struct XcodeGenSources {
    static let maxDepth = 32
    static let maxFiles = 200_000

    var sources: [String] = []
    var resources: [String] = []
    /// Each `Info.plist` met, in order: XcodeGen's INFOPLIST_FILE when no setting names one.
    var infoPlists: [String] = []
    var problems: [String] = []
    /// Files and folders still to look at, across all of a project's targets.
    var budget: Int

    enum Phase { case sources, resources, neither }

    /// XcodeGen's default build phase for a file by its extension (`FileType.defaultFileTypes`):
    /// code and models compile, headers and settings files are in no copy phase, any other file
    /// with an extension is a resource, and one without is left out.
    static func phase(of name: String) -> Phase {
        let parts = name.split(separator: ".")
        guard parts.count > 1, let ext = parts.last.map(String.init) else { return .neither }
        if compiled.contains(ext) { return .sources }
        return unphased.contains(ext) ? .neither : .resources
    }

    static let compiled: Set<String> = ["swift", "gyb", "m", "mm", "cpp", "cp", "cxx", "c", "cc", "S", "xcdatamodeld", "xcmappingmodel",
                                        "intentdefinition", "metal", "mlmodel", "mlpackage", "rcproject", "iig", "docc"]
    static let unphased: Set<String> = ["h", "hh", "hpp", "ipp", "tpp", "hxx", "def", "framework", "xpc", "appex", "xcconfig", "entitlements",
                                        "gpx", "lproj", "xcfilelist", "apns", "pch", "xctestplan", "modulemap", "swiftcrossimport", "orig"]
    /// Folders Xcode treats as one file.
    static let folderFiles = SynchronizedFolder.packageExtensions.union(["xcmappingmodel", "mlpackage", "mlmodelc", "xcframework", "playground",
                                                                         "app", "appex", "xpc", "xcstickers", "storyboardc", "plugin"])

    static let exhausted = "more than \(maxFiles) files and folders in the targets' sources; the rest are not read"

    init(budget: Int = maxFiles) { self.budget = budget }

    /// One entry of `sources:`: a path, or `{path, type, excludes, includes, buildPhase, optional}`.
    mutating func add(_ entry: YAMLNode, spec: XcodeGenSpec, target: String, defaultType: String?) {
        let pathNode = entry.mapping != nil ? entry["path"] : entry
        if let why = spec.outside(pathNode) { problems.append("target \(target)'s source: " + why); return }
        guard let pathNode, let url = spec.file(pathNode) else {
            problems.append("\(entry.location): target \(target)'s source is a path or {path: …}, not \(entry.kind); skipped")
            return
        }
        problems += spec.respelling(pathNode)
        let path = spec.relative(url)
        let isFolder = spec.repository.isFolder(url)
        guard spec.repository.exists(url) else {
            if entry["optional"]?.bool != true {
                let variable = pathNode.string!.contains("${") ? " (it names an environment variable, which is not expanded)" : ""
                problems.append("\(pathNode.location): target \(target)'s source \(pathNode.string!) does not exist\(variable); skipped")
            }
            return
        }
        var phase: Phase?
        if let given = entry["buildPhase"] {
            switch given.string {
            case "sources": phase = .sources
            case "resources": phase = .resources
            default: phase = .neither // headers, none, copyFiles: {…}
            }
        }
        func globs(_ key: String) -> [PathGlob] {
            guard let node = entry[key], !node.isNull else { return [] }
            guard let items = node.sequence else {
                problems.append("\(node.location): target \(target)'s \(key) is a list of globs, not \(node.kind); not applied")
                return []
            }
            return items.compactMap(\.string).map(PathGlob.init)
        }
        let filter = Filter(excludes: globs("excludes"), includes: globs("includes"))
        let type = entry["type"]?.string ?? (!isFolder || !url.pathExtension.isEmpty ? "file" : defaultType ?? "group")
        switch type {
        case "file":
            file(path, phase: phase)
        case "folder":
            if phase ?? .resources == .resources { resources.append(path) } else if phase == .sources { sources.append(path) }
        case "syncedFolder":
            let files = SynchronizedFolder.files(url, in: spec.repository, excluding: []) { inner, isFolder in
                isFolder ? filter.excludes(inner.split(separator: "/")) : !filter.keeps(inner.split(separator: "/"))
            }
            sources += files.sources.map { join(path, $0) }
            resources += files.resources.map { join(path, $0) }
        default:
            if type != "group" { problems.append("\(entry.location): target \(target)'s source type \(type) is not one XcodeGen knows; read as a group") }
            var visited = Set<String>()
            walk(url, path: path, inner: [], filter: filter, phase: phase, in: spec.repository, visited: &visited)
        }
    }

    /// A source's `excludes` and `includes`: an excluded folder is not walked; with `includes`, a
    /// file is kept only when one covers it (excludes win).
    struct Filter {
        var excludes: [PathGlob]
        var includes: [PathGlob]
        func excludes(_ inner: [Substring]) -> Bool { excludes.contains { $0.covers(inner) } }
        func keeps(_ inner: [Substring]) -> Bool { !excludes(inner) && (includes.isEmpty || includes.contains { $0.covers(inner) }) }
    }

    func join(_ folder: String, _ name: String) -> String { folder.isEmpty ? name : folder + "/" + name }

    mutating func file(_ path: String, phase: Phase?) {
        if path.split(separator: "/").last == "Info.plist" { infoPlists.append(path); return }
        switch phase ?? Self.phase(of: String(path.split(separator: "/").last ?? "")) {
        case .sources: sources.append(path)
        case .resources: resources.append(path)
        case .neither: break
        }
    }

    /// A group's files, folders within it walked (a folder linked back to one being walked is not).
    mutating func walk(_ url: URL, path: String, inner: [Substring], filter: Filter, phase: Phase?, in repository: Repository, visited: inout Set<String>) {
        guard inner.count < Self.maxDepth, visited.insert(url.resolvingSymlinksInPath().path).inserted else { return }
        for name in repository.names(url) where !name.hasPrefix(".") {
            guard budget > 0 else {
                if !problems.contains(where: { $0.hasSuffix(Self.exhausted) }) { problems.append("\(url.path): \(Self.exhausted)") }
                return
            }
            budget -= 1
            let child = url.appendingPathComponent(name), childInner = inner + [Substring(name)], childPath = join(path, name)
            let ext = child.pathExtension
            if repository.isFolder(child) && !Self.folderFiles.contains(ext) {
                if filter.excludes(childInner) { continue }
                if ext != "lproj" { walk(child, path: childPath, inner: childInner, filter: filter, phase: phase, in: repository, visited: &visited); continue }
                for localized in repository.names(child)
                where budget > 0 && !localized.hasPrefix(".") && filter.keeps(childInner + [Substring(localized)]) {
                    budget -= 1
                    file(join(childPath, localized), phase: phase)
                }
            } else if filter.keeps(childInner) {
                file(childPath, phase: phase)
            }
        }
    }
}
