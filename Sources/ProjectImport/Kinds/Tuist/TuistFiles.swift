import Checked
import ConfinedFiles
import Foundation
import Payload
import Formats

/// A Tuist target's Info.plist and files: `infoPlist:` as a path or the keys Tuist writes, and the
/// files its `sources:` and `resources:` globs match, relative to the manifest's folder.
extension TuistTargetReader {
    static let maxDepth = 32

    /// `"path"`, `.file(path:)`: INFOPLIST_FILE. `.extendingDefault(with:)`, `.default`: Tuist's
    /// default keys and the given ones; `.dictionary(…)`: only the given ones (Tuist writes either
    /// to Derived/, which is not committed, so they are read from the manifest instead).
    mutating func infoPlist(_ value: TuistValue?, target: inout XcodeProject.Target, settings: inout [String: String], site: CodeSite, matters: Bool) {
        var keys: [(key: String, value: TuistValue)]?
        switch value {
        case nil, .member("default")?: keys = []
        case .text(let path)?: settings["INFOPLIST_FILE"] = path
        case .call(let c)? where c.name == "file":
            guard let path = c["path"].flatMap(self.path) else {
                if matters { problems.append("\(c["path"]?.unknownReason ?? "\(c.site): target \(target.name)'s Info.plist path is \(c["path"]?.sketch ?? "not given")"); its Info.plist is not read") }
                return
            }
            settings["INFOPLIST_FILE"] = path
        case .call(let c)? where c.name == "extendingDefault" || c.name == "dictionary":
            guard let given = (c["with"] ?? c.arguments.first)?.dictionary else {
                if matters { problems.append("\((c["with"] ?? c.arguments.first)?.unknownReason ?? "\(c.site): target \(target.name)'s Info.plist keys are not a dictionary"); its Info.plist keys are not read") }
                return
            }
            keys = given
            if c.name == "dictionary" { target.generatedInfoPlist = plist(.dictionary(given), key: "Info.plist", target: target.name, matters: matters); return }
        case let other?:
            if matters { problems.append("\(other.unknownReason ?? "\(site): target \(target.name)'s infoPlist is \(other.sketch), not a path, .file(path:), .extendingDefault(with:) or .dictionary(…)"); its Info.plist is not read") }
            return
        }
        guard let keys else { return }
        let packageType = target.isApplication ? "APPL" : target.isAppExtension ? "XPC!" : target.productType.hasSuffix(".framework") ? "FMWK" : "BNDL"
        var defaults: [(key: String, value: JSONValue)] = [
            ("CFBundleDevelopmentRegion", .string("$(DEVELOPMENT_LANGUAGE)")), ("CFBundleExecutable", .string("$(EXECUTABLE_NAME)")),
            ("CFBundleIdentifier", .string("$(PRODUCT_BUNDLE_IDENTIFIER)")), ("CFBundleInfoDictionaryVersion", .string("6.0")),
            ("CFBundleName", .string("$(PRODUCT_NAME)")), ("CFBundlePackageType", .string(packageType)),
            ("CFBundleShortVersionString", .string("1.0")), ("CFBundleVersion", .string("1")),
        ]
        if case .object(let given)? = plist(.dictionary(keys), key: "Info.plist", target: target.name, matters: matters) {
            for pair in given { defaults.removeAll { $0.key == pair.key }; defaults.append(pair) }
        }
        target.generatedInfoPlist = .object(defaults)
    }

    /// A `Plist.Value` as JSON: literals, `.string(…)`, `.boolean(…)`, `.integer(…)`, `.real(…)`,
    /// `.array(…)`, `.dictionary(…)`; a key whose value is not followed is left out, and said.
    mutating func plist(_ value: TuistValue, key: String, target: String, matters: Bool) -> JSONValue? {
        switch value {
        case .text(let s): return .string(s)
        case .integer(let n): return .number(Double(n))
        case .real(let d): return .number(d)
        case .bool(let b): return .bool(b)
        case .array(let items): return .array(items.compactMap { plist($0, key: key, target: target, matters: matters) })
        case .dictionary(let pairs): return .object(pairs.compactMap { pair in plist(pair.value, key: pair.key, target: target, matters: matters).map { (pair.key, $0) } })
        case .call(let c) where ["string", "boolean", "integer", "real", "array", "dictionary"].contains(c.name) && c.arguments.count == 1:
            return plist(c.arguments[0], key: key, target: target, matters: matters)
        default:
            if matters { problems.append("\(value.unknownReason ?? "target \(target)'s Info.plist key \(key) is \(value.sketch)"); \(key) is not set") }
            return nil
        }
    }

    /// A `Path`: a string (relative to the manifest), `.relativeToManifest(…)`, `.relativeToRoot(…)`.
    func path(_ value: TuistValue) -> String? {
        if let text = value.text { return text }
        guard let c = value.call, c.arguments.count == 1, let text = c.arguments[0].text else { return nil }
        switch c.name {
        case "relativeToManifest", "path": return text
        case "relativeToRoot": return Self.relative(root.appendingPathComponent(text), to: folder)
        default: return nil
        }
    }

    /// `url` relative to `base` (`../Shared/x.swift` for a file beside it).
    static func relative(_ url: URL, to base: URL) -> String {
        let from = base.standardizedFileURL.pathComponents, parts = url.standardizedFileURL.pathComponents
        var common = 0
        while common < from.count, common < parts.count, from[common] == parts[common] { common += 1 }
        return (Array(repeating: "..", count: from.count - common) + parts[common...]).joined(separator: "/")
    }

    /// The globs of `sources:` or `resources:` (`"A/**"`, `["A/**", .glob("B/**", excluding: […])]`,
    /// `.folderReference(path:)`, `SourceFilesList(globs:)`, `.resources([…])`): the files they
    /// match, each once, sorted within each glob, relative to the manifest's folder.
    mutating func files(_ value: TuistValue?, target: String, site: CodeSite, matters: Bool) -> [String] {
        guard let value else { return [] }
        var out: [String] = [], seen = Set<String>()
        for element in globElements(value) {
            var pattern: String?, excluding: [String] = [], folderReference = false
            if let p = path(element) { pattern = p } else if let c = element.call {
                pattern = (c["pattern"] ?? c["path"] ?? c.arguments.first).flatMap(path)
                excluding = (c["excluding"].map { $0.array ?? [$0] } ?? []).compactMap(path)
                folderReference = c.name == "folderReference"
            }
            guard let pattern else {
                if matters { problems.append("\(element.unknownReason ?? "\(site): target \(target)'s glob \(element.sketch) is not a path or .glob(…)"); its files are not read") }
                continue
            }
            if folderReference { if seen.insert(pattern).inserted { out.append(pattern) }; continue }
            for file in glob(pattern, excluding: excluding, target: target, site: site) where seen.insert(file).inserted { out.append(file) }
        }
        return out
    }

    private func globElements(_ value: TuistValue) -> [TuistValue] {
        switch value {
        case .null: return []
        case .array(let items): return items.flatMap(globElements)
        case .call(let c) where ["SourceFilesList", "sourceFilesList", "ResourceFileElements", "resources"].contains(c.name):
            return c.arguments.flatMap(globElements)
        default: return [value]
        }
    }

    /// The files under the glob's folder (its components before the first with a wildcard) it covers.
    private mutating func glob(_ pattern: String, excluding: [String], target: String, site: CodeSite) -> [String] {
        // Made relative to the manifest's folder, as the files it matches are (`/abs/x/**` and `../x/**` alike).
        func normalized(_ p: String) -> String { Self.relative(URL(fileURLWithPath: p, relativeTo: folder), to: folder) }
        let parts = pattern.split(separator: "/").map(String.init)
        let literal = (pattern.hasPrefix("/") ? "/" : "") + parts.prefix { !$0.contains(where: { "*?[{".contains($0) }) }.joined(separator: "/")
        guard let tree, let base = ConfinedRoots([tree]).file(literal, relativeTo: folder) else {
            problems.append("\(site): target \(target): the glob \(pattern) lies outside \(root.path); not read")
            return []
        }
        let glob = PathGlob(normalized(pattern))
        let excludes = excluding.map { PathGlob(normalized($0)) }
        var found: [String] = []
        func consider(_ url: URL) {
            let path = Self.relative(url, to: folder)
            let components = path.split(separator: "/")
            if glob.covers(components), !excludes.contains(where: { $0.covers(components) }) { found.append(path) }
        }
        var visited = Set<String>()
        func walk(_ url: URL, depth: Int) {
            guard depth < Self.maxDepth, visited.insert(url.resolvingSymlinksInPath().path).inserted else { return }
            for name in (try? tree.names(url)) ?? [] where !name.hasPrefix(".") {
                guard budget > 0 else { return }
                budget -= 1
                let child = url.appendingPathComponent(name)
                guard let kind = tree.kind(child) else { continue }
                if kind == .folder && !XcodeGenSources.folderFiles.contains(child.pathExtension) { walk(child, depth: depth + 1) } else if name != "Info.plist" { consider(child) }
            }
        }
        guard let kind = tree.kind(base) else {
            problems.append("\(site): target \(target): the glob \(pattern) matches no file (\(Self.relative(base, to: folder)) does not exist)")
            return []
        }
        if kind == .folder && !XcodeGenSources.folderFiles.contains(base.pathExtension) { walk(base, depth: 0) } else { consider(base) }
        if budget <= 0 { problems.append("\(site): target \(target): \(XcodeGenSources.exhausted)") }
        return found
    }
}
