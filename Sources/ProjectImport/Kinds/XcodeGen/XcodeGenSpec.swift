import Checked
import ConfinedFiles
import Foundation
import Formats

/// An XcodeGen spec (`project.yml`) with its `include:`s merged in as XcodeGen merges them —
/// each included spec under the one that includes it, mappings merged key by key, lists
/// appended, a `KEY:REPLACE` key replacing — and `targetTemplates` applied to the targets.
/// Paths keep the file they were written in: XcodeGen reads a path in an included spec relative
/// to that spec's folder (unless it was included with `relativePaths: false`).
struct XcodeGenSpec {
    static let maxIncludeDepth = 16
    static let maxFiles = 256

    /// The spec as merged.
    var root: YAMLNode
    /// The folder of the spec given: the project's folder, which its paths are relative to.
    let folder: URL
    /// The folder each spec file's paths are relative to, by file path.
    var pathBases: [String: URL] = [:]
    /// Every spec file read, the one given first.
    var files: [URL] = []
    var problems: [String] = []
    /// Where every path it gives must lead (XcodeApp's repository, or the spec's own).
    let repository: Repository

    init(file: URL, repository: Repository) throws(XcodeProject.ReadError) {
        let file = file.standardizedFileURL
        folder = file.deletingLastPathComponent()
        self.repository = repository
        let read: YAMLNode?
        do { read = try YAMLReader.read(file, in: repository) } catch { throw XcodeProject.ReadError(description: error.description) }
        guard let read, read.mapping != nil else {
            throw XcodeProject.ReadError(description: "\(file.path):\(read?.line ?? 1): an XcodeGen spec is a mapping (name:, targets:, …), not \(read?.kind ?? "an empty file")")
        }
        root = read
        files = [file]
        pathBases[file.path] = folder
        root = resolvingIncludes(of: read, file: file, trail: [file.path])
        root = withTemplates(root)
    }

    /// `node` merged over the specs it includes (each over the ones it includes).
    mutating func resolvingIncludes(of node: YAMLNode, file: URL, trail: [String]) -> YAMLNode {
        guard let includes = node["include"], !includes.isNull else { return node }
        var merged = YAMLNode(value: .mapping([]), file: node.file, line: node.line, column: node.column)
        for include in includes.sequence ?? [includes] {
            let pathNode = include.mapping != nil ? include["path"] : include
            guard let path = pathNode?.string else {
                problems.append("\(include.location): an include is a path or {path: …}, not \(include.kind); skipped")
                continue
            }
            if let enable = include["enable"], enable.bool != true {
                if enable.bool == nil { problems.append("\(enable.location): include \(path)'s enable is \(enable.kind) (an environment variable XcodeGen would expand?); not included") }
                continue
            }
            let base = pathBases[file.path] ?? folder
            let included = (path.hasPrefix("/") ? URL(fileURLWithPath: path) : base.appendingPathComponent(path)).standardizedFileURL
            if trail.contains(included.path) {
                problems.append("\(include.location): \(path) includes itself (\((trail + [included.path]).map { URL(fileURLWithPath: $0).lastPathComponent }.joined(separator: " → "))); not included again")
                continue
            }
            guard case .success = repository.resolve(included.path, relativeTo: folder) else {
                problems.append("\(include.location): the included spec \(path) lies outside the repository (\(repository.root.path)); not read")
                continue
            }
            // XcodeGen merges a spec included twice only once.
            if files.contains(included) { continue }
            guard trail.count < Self.maxIncludeDepth, files.count < Self.maxFiles else {
                problems.append("\(include.location): includes nested deeper than \(Self.maxIncludeDepth) or more than \(Self.maxFiles) specs; \(path) not included")
                continue
            }
            guard repository.exists(included) else {
                problems.append("\(include.location): the included spec \(path) does not exist\(path.contains("${") ? " (it names an environment variable, which is not expanded)" : ""); its targets are not read")
                continue
            }
            let spec: YAMLNode?
            do { spec = try YAMLReader.read(included, in: repository) } catch {
                problems.append("\(error.description) (included from \(include.location)); not included")
                continue
            }
            files.append(included)
            guard let spec, spec.mapping != nil else {
                if let spec { problems.append("\(spec.location): an included spec is a mapping, not \(spec.kind); not included") }
                continue
            }
            pathBases[included.path] = include["relativePaths"]?.bool == false ? base : included.deletingLastPathComponent()
            merged = Self.merge(resolvingIncludes(of: spec, file: included, trail: trail + [included.path]), onto: merged)
        }
        return Self.merge(node, onto: merged)
    }

    /// XcodeGen's additive merge of `own` onto `base`.
    static func merge(_ own: YAMLNode, onto base: YAMLNode) -> YAMLNode {
        guard let ownPairs = own.mapping, var pairs = base.mapping else {
            if let ownItems = own.sequence, let baseItems = base.sequence { return YAMLNode(value: .sequence(baseItems + ownItems), file: own.file, line: own.line, column: own.column) }
            return own
        }
        var index = Dictionary(pairs.enumerated().map { ($0.element.key, $0.offset) }, uniquingKeysWith: { first, _ in first })
        for (key, value) in ownPairs {
            let replacing = key.hasSuffix(":REPLACE")
            let name = replacing ? String(key.dropLast(8)) : key
            if let at = index[name] {
                pairs[at].value = replacing ? value : merge(value, onto: pairs[at].value)
            } else {
                index[name] = pairs.count
                pairs.append((name, value))
            }
        }
        var out = base
        out.value = .mapping(pairs)
        return out
    }

    /// Each target that names `templates:` merged over them (and the templates they name), with
    /// `${target_name}` and the target's `templateAttributes` replaced, as XcodeGen does. The
    /// values templates copy are limited as aliases are (`YAMLReader.maxValues` in all).
    mutating func withTemplates(_ root: YAMLNode) -> YAMLNode {
        guard let targets = root["targets"]?.mapping, let templates = root["targetTemplates"]?.mapping else { return root }
        let byName = Dictionary(templates.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
        func collect(_ target: YAMLNode, into names: inout [String], at position: inout Int) {
            for name in target["templates"]?.sequence?.prefix(64).compactMap(\.string) ?? [] where !names.contains(name) && names.count < 64 {
                guard let template = byName[name] else { continue }
                names.insert(name, at: position)
                collect(template, into: &names, at: &position)
                position += 1
            }
        }
        var budget = YAMLReader.maxValues
        var resolved: [(key: String, value: YAMLNode)] = []
        for (key, value) in targets {
            var names: [String] = [], position = 0
            collect(value, into: &names, at: &position)
            for name in value["templates"]?.sequence?.compactMap(\.string) ?? [] where byName[name] == nil {
                problems.append("\(value.location): target \(key)'s template \(name) is not in targetTemplates; not applied")
            }
            guard !names.isEmpty else { resolved.append((key, value)); continue }
            var merged = YAMLNode(value: .mapping([]), file: value.file, line: value.line, column: value.column)
            for name in names { merged = Self.merge(byName[name]!, onto: merged) }
            var target = Self.expanding(Self.merge(value, onto: merged), ["target_name": key], budget: &budget)
            var attributes: [String: String] = [:]
            for (name, attribute) in target["templateAttributes"]?.mapping ?? [] { attributes[name] = attribute.string }
            if !attributes.isEmpty { target = Self.expanding(target, attributes, budget: &budget) }
            if budget < 0 {
                problems.append("\(value.location): templates copy more than \(YAMLReader.maxValues) values into the targets; target \(key) and those after it are read without them")
                resolved += targets.drop { $0.key != key }
                break
            }
            resolved.append((key, target))
        }
        var out = root
        out.value = .mapping(root.mapping!.map { $0.key == "targets" ? ($0.key, YAMLNode(value: .mapping(resolved), file: $0.value.file, line: $0.value.line, column: $0.value.column)) : $0 })
        return out
    }

    /// Every `${name}` in the node's keys and scalars replaced by `variables[name]`; others kept.
    /// Each value looked at takes one from `budget`.
    static func expanding(_ node: YAMLNode, _ variables: [String: String], budget: inout Int) -> YAMLNode {
        budget -= 1
        guard budget >= 0 else { return node }
        func expand(_ text: String) -> String {
            guard text.utf8.contains(UInt8(ascii: "$")) else { return text }
            var out = text
            for (name, value) in variables { out = out.replacingOccurrences(of: "${\(name)}", with: value) }
            return out
        }
        var out = node
        switch node.value {
        case .scalar(let text, let plain): out.value = .scalar(expand(text), plain: plain)
        case .sequence(let items): out.value = .sequence(items.map { expanding($0, variables, budget: &budget) })
        case .mapping(let pairs): out.value = .mapping(pairs.map { (expand($0.key), expanding($0.value, variables, budget: &budget)) })
        }
        return out
    }

    /// A path the spec gives, as a file: relative to the folder of the spec it was written in,
    /// and inside the repository (the one confinement rule: nil for a path that leads out). A
    /// path that exists only in another case is the disk's spelling (XcodeGen runs on macOS).
    func file(_ path: YAMLNode) -> URL? {
        guard let text = path.string else { return nil }
        let base = pathBases[path.file] ?? folder
        let url = (text.hasPrefix("/") ? URL(fileURLWithPath: text) : base.appendingPathComponent(text)).standardizedFileURL
        guard case .success(let found) = repository.resolve(url.path, relativeTo: folder) else { return nil }
        return found.respelled == nil ? url : found.url
    }

    /// What reading `path` says: its spelling on disk when that differs in case.
    func respelling(_ path: YAMLNode) -> [String] {
        guard let text = path.string else { return [] }
        var said: [String] = []
        _ = repository.file(text, relativeTo: pathBases[path.file] ?? folder, namedIn: path.location, problems: &said)
        return said
    }

    /// Why `path` gives no file, when it is a path that leads out of the repository.
    func outside(_ path: YAMLNode?) -> String? {
        guard let path, let text = path.string, file(path) == nil else { return nil }
        var said: [String] = []
        _ = repository.file(text, relativeTo: pathBases[path.file] ?? folder, namedIn: path.location, problems: &said)
        return said.first ?? "\(path.location): \(text) lies outside the repository (\(repository.root.path)); not read"
    }

    /// `url` relative to the project's folder ("" for the folder itself, `../` for a file outside it).
    func relative(_ url: URL) -> String {
        let base = folder.standardizedFileURL.pathComponents, parts = url.standardizedFileURL.pathComponents
        var common = 0
        while common < base.count, common < parts.count, base[common] == parts[common] { common += 1 }
        return (Array(repeating: "..", count: base.count - common) + parts[common...]).joined(separator: "/")
    }
}
