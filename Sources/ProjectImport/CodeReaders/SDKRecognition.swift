import ConfinedFiles
import Foundation
import Payload

/// Which push SDK a service extension hands its payloads to (`Templates/sdks`): what its code
/// imports, subclasses and calls, and what the package manifests beside the project name. Each
/// piece of evidence says where it was found (`file:line`, `Podfile target X`).
public struct SDKRecognition: Sendable {
    public struct Evidence: Sendable {
        public var sdk: PushSDK
        /// "imports KlaviyoSwiftExtension (NotificationService.swift:8)", one per thing found.
        public var found: [String]
    }

    /// SDK id → what was found, in the catalog's order.
    public private(set) var evidence: [Evidence] = []
    /// A content extension whose view an SDK draws (`CTNotificationViewController`): the SDK and where.
    public private(set) var contentView: (sdk: PushSDK, at: String)?

    mutating func add(_ sdk: PushSDK, _ what: String) {
        if let i = evidence.firstIndex(where: { $0.sdk.id == sdk.id }) {
            if !evidence[i].found.contains(what) { evidence[i].found.append(what) }
        } else { evidence.append(Evidence(sdk: sdk, found: [what])) }
    }

    public var isEmpty: Bool { evidence.isEmpty }

    /// Imports, superclasses and calls in the extension's source files.
    static func inSources(_ files: [(name: String, bytes: [UInt8])], catalog: [PushSDK]) -> SDKRecognition {
        var r = SDKRecognition()
        let names = Set(catalog.flatMap { $0.recognise.calls + $0.recognise.contentViews }).map { (name: $0, last: String($0.split(separator: ".").last ?? "")) }
        for file in files {
            let text = String(decoding: file.bytes, as: UTF8.self)
            // A call can be on a line only if its last part is in the file: looked for once per file, not per line.
            let present = Set(names.filter { !$0.last.isEmpty && text.contains($0.last) }.map(\.name))
            for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let at = "\(file.name):\(n + 1)"
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                guard !trimmed.hasPrefix("//") else { continue }
                let module = importedModule(trimmed)
                let superclass = Self.superclass(trimmed)
                for sdk in catalog {
                    if let module, sdk.recognise.imports.contains(module) { r.add(sdk, "imports \(module) (\(at))") }
                    if let superclass, sdk.recognise.superclasses.contains(superclass) { r.add(sdk, "subclasses \(superclass) (\(at))") }
                    if r.contentView == nil, let view = sdk.recognise.contentViews.first(where: { $0 == superclass || (present.contains($0) && calls($0, in: trimmed)) }) {
                        r.contentView = (sdk, "\(view) (\(at))")
                    }
                    // `A.b` and `b` on one line are one call.
                    let matched = sdk.recognise.calls.filter { present.contains($0) && calls($0, in: trimmed) }
                    for call in matched where !matched.contains(where: { $0 != call && $0.contains(call) }) { r.add(sdk, "calls \(call) (\(at))") }
                }
            }
        }
        return r
    }

    /// `import X`, `@_exported import class X.Y`, `@import X;`, `#import <X/Y.h>`, `#import "X.h"`.
    static func importedModule(_ line: String) -> String? {
        var words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        while let first = words.first, first.hasPrefix("@_") || first == "public" || first == "internal" { words.removeFirst() }
        if words.first == "import", words.count > 1 {
            let kinds: Set<String> = ["class", "struct", "enum", "protocol", "func", "var", "let", "typealias"]
            let name = kinds.contains(words[1]) && words.count > 2 ? words[2] : words[1]
            return String(name.prefix { $0 != "." && $0 != ";" })
        }
        if words.first == "@import", words.count > 1 { return String(words[1].prefix { $0 != ";" && $0 != "." }) }
        if words.first == "#import" || words.first == "#include", words.count > 1 {
            let path = words[1].dropFirst()
            if let slash = path.firstIndex(of: "/") { return String(path[..<slash]) }
            return String(path.prefix { $0 != "." && $0 != "\"" && $0 != ">" })
        }
        return nil
    }

    /// `class A: B`, `final class A: B, P`, `@interface A : B`: B, dots kept (`Module.Type`).
    static func superclass(_ line: String) -> String? {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard let i = words.firstIndex(where: { $0 == "class" || $0 == "@interface" }), i + 1 < words.count else { return nil }
        let rest = words[(i + 1)...].joined(separator: " ")
        guard let colon = rest.firstIndex(of: ":") else { return nil }
        let name = rest[rest.index(after: colon)...].trimmingCharacters(in: .whitespaces).prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }
        return name.isEmpty ? nil : String(name)
    }

    /// `A.b` as Swift writes it (`A.b(`, `A.shared.b`) or Objective-C (`[A b`); a single name as a word.
    static func calls(_ call: String, in line: String) -> Bool {
        let parts = call.split(separator: ".")
        if parts.count >= 2 {
            if line.contains(call) { return true }
            return line.contains("[\(parts[0]) \(parts[parts.count - 1])")
        }
        return Array(line.utf8).contains(word: call)
    }

    /// The package manifests beside the project: Podfile (only the extension's target when it has
    /// one), Podfile.lock, Package.resolved of the project and its workspace, Cartfile.
    static func inManifests(bundle: URL, extensionTarget: String, repository: Repository, catalog: [PushSDK]) -> (extensionPods: SDKRecognition, elsewhere: SDKRecognition) {
        var own = SDKRecognition(), other = SDKRecognition()
        let folder = bundle.deletingLastPathComponent()
        func text(_ url: URL) -> String? { (try? repository.read(url, limit: 4 << 20)).map { String(decoding: $0, as: UTF8.self) } }
        do {
            for (target, pods) in podfileTargets(bundle: bundle, repository: repository).sorted(by: { ($0.key ?? "") < ($1.key ?? "") }) {
                for sdk in catalog {
                    for pod in pods where sdk.recognise.pods.contains(pod) || sdk.recognise.pods.contains(String(pod.prefix { $0 != "/" })) {
                        if target == extensionTarget { own.add(sdk, "Podfile target \(extensionTarget): pod \(pod)") }
                        else { other.add(sdk, "Podfile\(target.map { " target \($0)" } ?? ""): pod \(pod)") }
                    }
                }
            }
        }
        if let lock = text(folder.appendingPathComponent("Podfile.lock")) {
            for sdk in catalog {
                for pod in sdk.recognise.pods where lock.contains("  - \(pod) (") || lock.contains("  - \(pod)/") { other.add(sdk, "Podfile.lock: \(pod)") }
            }
        }
        let stem = bundle.deletingPathExtension().lastPathComponent
        for resolved in [bundle.appendingPathComponent("project.xcworkspace/xcshareddata/swiftpm/Package.resolved"),
                         folder.appendingPathComponent("\(stem).xcworkspace/xcshareddata/swiftpm/Package.resolved"),
                         folder.appendingPathComponent("Package.resolved")] {
            guard let json = text(resolved)?.lowercased() else { continue }
            for sdk in catalog {
                for package in sdk.recognise.packages where mentions(json, "github.com/" + package.lowercased()) {
                    other.add(sdk, "\(resolved.path.hasPrefix(folder.path + "/") ? String(resolved.path.dropFirst(folder.path.count + 1)) : resolved.lastPathComponent): \(package)")
                }
            }
        }
        if let cartfile = text(folder.appendingPathComponent("Cartfile"))?.lowercased() {
            for sdk in catalog {
                for entry in sdk.recognise.carthage + sdk.recognise.packages where mentions(cartfile, "\"" + entry.lowercased()) { other.add(sdk, "Cartfile: \(entry)") }
            }
        }
        return (own, other)
    }

    /// The Podfile beside the project: target name (nil before any target) → its pods.
    static func podfileTargets(bundle: URL, repository: Repository) -> [String?: [String]] {
        guard let bytes = try? repository.read(bundle.deletingLastPathComponent().appendingPathComponent("Podfile"), limit: 4 << 20) else { return [:] }
        var target: String?, byTarget: [String?: [String]] = [:]
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            let t = line.trimmingCharacters(in: .whitespaces)
            if t.hasPrefix("target "), let name = quoted(t) { target = name; continue }
            if t.hasPrefix("pod "), let name = quoted(t) { byTarget[target, default: []].append(name) }
        }
        return byTarget
    }

    /// The first quoted name on a line (`pod 'X'`, `target "Y" do`).
    static func quoted(_ line: String) -> String? {
        guard let open = line.firstIndex(where: { $0 == "'" || $0 == "\"" }) else { return nil }
        let rest = line[line.index(after: open)...]
        guard let close = rest.firstIndex(of: line[open]) else { return nil }
        return String(rest[..<close])
    }

    /// `name` in `text`, ended by a quote, `.git` or a slash (not the start of a longer name).
    static func mentions(_ text: String, _ name: String) -> Bool {
        var search = text[...]
        while let range = search.range(of: name) {
            let next = search[range.upperBound...].first
            if next == nil || next == "\"" || next == "." || next == "/" { return true }
            search = search[range.upperBound...]
        }
        return false
    }
}
