import Checked
import ConfinedFiles
import Foundation

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

    static func files(_ root: URL, in repository: Repository, excluding: Set<String>,
                      alsoExcluding: (String, Bool) -> Bool = { _, _ in false }) -> (sources: [String], resources: [String]) {
        var sources: [String] = [], resources: [String] = []
        func isExcluded(_ path: String) -> Bool { matches(path, excluding) }
        func walk(_ relative: String, depth: Int) {
            guard depth < 16 else { return }
            for name in repository.names(root.appendingPathComponent(relative)) where !name.hasPrefix(".") {
                let path = relative.isEmpty ? name : relative + "/" + name
                let ext = name.split(separator: ".").count > 1 ? String(name.split(separator: ".").last!) : ""
                // A symlinked folder is walked only when it leads to one inside the repository.
                let isFolder = repository.isFolder(root.appendingPathComponent(path))
                if isExcluded(path) || alsoExcluding(path, isFolder) { continue }
                if isFolder && !packageExtensions.contains(ext) {
                    walk(path, depth: depth + 1)
                    continue
                }
                if sourceExtensions.contains(ext) { sources.append(path) } else if ext != "h" && name != "Info.plist" { resources.append(path) }
            }
        }
        walk("", depth: 0)
        return (sources, resources)
    }
}
