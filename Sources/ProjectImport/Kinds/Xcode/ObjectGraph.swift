import Formats
import Foundation

/// The objects of a pbxproj by id, read with a note of what went wrong.
struct ObjectGraph {
    let objects: PropertyListDictionary
    let file: String
    var problems: [String] = []

    mutating func object(_ id: String, isa: String?, from: String) -> PropertyListDictionary? {
        guard let o = objects[id]?.dictionary else {
            problems.append("\(file): object \(id) (from \(from)) is missing or not a dictionary; skipped")
            return nil
        }
        if let isa, o["isa"]?.string != isa {
            problems.append("\(file): object \(id) (from \(from)) is a \(o["isa"]?.string ?? "thing with no isa"), not a \(isa); skipped")
            return nil
        }
        return o
    }

    /// Each configuration's name, its own settings, and the file reference of the xcconfig it is
    /// based on (`baseConfigurationReference`), if any.
    mutating func configurations(_ listID: PropertyListValue?, owner: String) -> [(name: String, settings: [String: String], base: String?)] {
        guard let listID = listID?.string, let list = object(listID, isa: "XCConfigurationList", from: "\(owner)'s buildConfigurationList") else { return [] }
        return (list["buildConfigurations"]?.strings ?? []).compactMap { id in
            guard let c = object(id, isa: "XCBuildConfiguration", from: "\(owner)'s configurations") else { return nil }
            var settings: [String: String] = [:]
            for (key, value) in c["buildSettings"]?.dictionary ?? .init() {
                if let s = value.string { settings[key] = s } else if let items = value.strings { settings[key] = items.joined(separator: " ") }
            }
            return (c["name"]?.string ?? id, settings, c["baseConfigurationReference"]?.string)
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
            let tree = o["sourceTree"]?.string ?? "<group>"
            // Paths Xcode resolves against the project's folder or the group; the SDK's and the
            // build products' are not the app's files.
            let here: String
            switch tree {
            case "<group>": here = join(base, o["path"]?.string)
            case "SOURCE_ROOT": here = join(".", o["path"]?.string)
            case "<absolute>": here = o["path"]?.string ?? ""
            default: return
            }
            switch o["isa"]?.string {
            case "PBXGroup":
                for child in o["children"]?.strings ?? [] { visit(child, base: here, trail: trail + [id]) }
            case "PBXVariantGroup":
                for child in o["children"]?.strings ?? [] {
                    guard let c = object(child, isa: "PBXFileReference", from: "variant group \(id)") else { continue }
                    out[id, default: []].append(join(base, c["path"]?.string))
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
