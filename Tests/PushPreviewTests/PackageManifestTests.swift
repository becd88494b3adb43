import Foundation
import Testing

/// Package.swift declares every module a target imports. SwiftPM on Linux lets a module see its
/// dependencies' dependencies, so an undeclared import builds until a dependency changes.
/// Package.swift is read as text, not through `swift package dump-package`: that takes SwiftPM's
/// lock, which the `swift test` running this holds.
struct PackageManifestTests {
    /// Modules the toolchain brings, which no target declares.
    static let toolchain: Set<String> = ["Swift", "Foundation", "FoundationEssentials", "FoundationNetworking", "FoundationXML", "CoreFoundation",
                                         "Glibc", "Musl", "Darwin", "Dispatch", "XCTest", "Testing", "Synchronization", "RegexBuilder",
                                         "Observation", "PackageDescription", "_Concurrency", "os"]

    struct Target: Equatable { var name: String; var folder: String; var dependencies: Set<String> }

    /// The `.target`, `.executableTarget` and `.testTarget` calls: name, folder (`path:`, else
    /// Sources/NAME or Tests/NAME) and every name in `dependencies: [...]`.
    static func targets(_ manifest: String) -> [Target] {
        let call = try! Regex(#"\.(target|executableTarget|testTarget)\("#)
        return manifest.matches(of: call).map { match in
            let arguments = balanced(manifest[match.range.upperBound...], open: "(", close: ")")
            func string(_ label: String) -> String? {
                arguments.firstMatch(of: try! Regex(label + #":\s*"([^"]*)""#)).flatMap { $0.output[1].substring.map(String.init) }
            }
            let name = string("name") ?? ""
            var dependencies: Set<String> = []
            if let start = arguments.range(of: "dependencies:")?.upperBound, let bracket = arguments[start...].firstIndex(of: "[") {
                let list = balanced(arguments[arguments.index(after: bracket)...], open: "[", close: "]")
                dependencies = Set(list.matches(of: try! Regex(#""([^"]*)""#)).compactMap { $0.output[1].substring.map(String.init) })
            }
            let isTest = manifest[match.range].contains("testTarget")
            return Target(name: name, folder: string("path") ?? "\(isTest ? "Tests" : "Sources")/\(name)", dependencies: dependencies)
        }
    }

    /// The text up to the bracket that closes an already opened one, brackets in strings not counted.
    static func balanced(_ text: Substring, open: Character, close: Character) -> Substring {
        var depth = 1, inString = false, previous: Character = " "
        for i in text.indices {
            let c = text[i]
            if c == "\"" && previous != "\\" { inString.toggle() }
            else if !inString && c == open { depth += 1 }
            else if !inString && c == close { depth -= 1; if depth == 0 { return text[..<i] } }
            previous = c
        }
        return text
    }

    /// The modules the Swift files below `folder` import.
    static func imports(_ folder: URL) -> Set<String> {
        let line = try! Regex(#"^\s*(?:@\w+\s+)*(?:public\s+|package\s+|internal\s+)?import\s+(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?(\w+)"#).anchorsMatchLineEndings()
        var found: Set<String> = []
        let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        while let file = files?.nextObject() as? URL {
            guard file.pathExtension == "swift" else { continue }
            // Multi-line string literals hold other languages' code (a fixture's Swift, a Python script).
            let text = ((try? String(contentsOf: file, encoding: .utf8)) ?? "").components(separatedBy: "\"\"\"").enumerated().filter { $0.offset % 2 == 0 }.map(\.element).joined()
            for match in text.matches(of: line) { if let module = match.output[1].substring { found.insert(String(module)) } }
        }
        return found
    }

    /// Target → the modules it imports but does not declare.
    static func undeclared(in root: URL) throws -> [String: Set<String>] {
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        var out: [String: Set<String>] = [:]
        for target in targets(manifest) {
            let missing = imports(root.appendingPathComponent(target.folder)).subtracting(target.dependencies).subtracting(toolchain).subtracting([target.name])
            if !missing.isEmpty { out[target.name] = missing }
        }
        return out
    }

    @Test func everyImportIsDeclared() throws {
        let manifest = try String(contentsOf: repositoryRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        let targets = Self.targets(manifest)
        #expect(targets.count >= 20 && targets.contains { $0.name == "CLI" && $0.dependencies.contains("PushPreview") }, "Package.swift was not read: \(targets.map(\.name))")
        let missing = try Self.undeclared(in: repositoryRoot)
        let said = missing.sorted { $0.key < $1.key }.map { "\($0.key) imports \($0.value.sorted().joined(separator: ", "))" }
        #expect(missing.isEmpty, "add to Package.swift: \(said.joined(separator: "; "))")
    }

    /// The check itself, on a package made for it: an undeclared import is found, with its target.
    @Test func anUndeclaredImportIsFound() throws {
        let root = temporaryFolder()
        try Data("""
        let package = Package(name: "P", targets: [
            .target(name: "Low"),
            .target(name: "Mid", dependencies: ["Low"]),
            .executableTarget(name: "Top", dependencies: ["Mid", .product(name: "Other", package: "other")], path: "Sources/TopFolder"),
            .testTarget(name: "TopTests", dependencies: ["Mid"]),
        ])
        """.utf8).write(to: root.appendingPathComponent("Package.swift"))
        let sources: [String: String] = ["Sources/Low/a.swift": "import Foundation\n", "Sources/Mid/a.swift": "import Low\n",
                                         "Sources/TopFolder/main.swift": "import Mid\n@preconcurrency import Low\nimport struct Glibc.FILE\n",
                                         "Tests/TopTests/t.swift": "import Testing\n@testable import Mid\n// import Nothing\n"]
        for (path, text) in sources {
            let file = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file)
        }
        #expect(try Self.undeclared(in: root) == ["Top": ["Low"]])
    }
}
