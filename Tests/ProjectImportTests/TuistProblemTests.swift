import Foundation
import Testing
import ProjectImport

/// Tuist manifests that cannot be read whole: each thing not followed is a problem at its
/// `file:line:column`, and the rest of the project is still read.
struct TuistProblemTests {
    static let helpers = """
    import ProjectDescription

    public extension Target {
        enum Kind { case rich, plain }

        static func notificationService(kind: Kind) -> Target {
            switch kind {
            case .rich: return .target(name: "GullService", product: .appExtension, bundleId: "com.example.gull.service")
            case .plain: return .target(name: "GullPlain", product: .appExtension, bundleId: "com.example.gull.plain")
            }
        }

        static func forever(depth: Int) -> Target { forever(depth: depth) }
    }

    """

    @Test func unreadablePartsAreSaidAndTheRestIsRead() throws {
        let manifest = try TuistTests.manifest([
            "Tuist/ProjectDescriptionHelpers/Targets.swift": Self.helpers,
            "Project.swift": """
            import ProjectDescription
            import ProjectDescriptionHelpers

            let project = Project(
                name: "Gull",
                targets: [
                    .target(name: "Gull", destinations: .iOS, product: .app, bundleId: "com.example.gull", infoPlist: "Gull/Info.plist"),
                    .target(name: ProcessInfo.processInfo.environment["TARGET"]!, product: .appExtension, bundleId: "com.example.gull.x"),
                    .notificationService(kind: .rich),
                    .forever(depth: 1),
                    .target(name: 42, product: .app),
                    .target(name: "GullWatch", product: .spaceship, bundleId: "com.example.gull.watch"),
                    .target(
                        name: "GullContent", product: .appExtension, bundleId: "com.example.gull.content",
                        infoPlist: .extendingDefault(with: [
                            "NSExtension": ["NSExtensionPointIdentifier": "com.apple.usernotifications.content-extension"],
                            "GullHeight": 99999999999999999999999,
                        ]),
                        sources: ["GullContent/**", .glob("/etc/**")]
                    ),
                ]
            )
            let unused = [1, 2,, 3]

            """,
        ])
        let project = try XcodeProject(tuistManifest: manifest)
        let file = manifest.path, helpers = manifest.deletingLastPathComponent().appendingPathComponent("Tuist/ProjectDescriptionHelpers/Targets.swift").path
        #expect(project.targets.map(\.name) == ["Gull", "GullWatch", "GullContent"])
        func said(_ prefix: String, _ words: String) -> Bool { project.problems.contains { $0.hasPrefix(prefix) && $0.contains(words) } }
        // The syntax error, and the manifest read past it.
        #expect(said("\(file):23:20:", "Swift syntax error: expected expression in container literal"), "\(project.problems)")
        // A computed name: where it is computed.
        #expect(said("\(file):8:", "a subscript (x[…]) is not an expression the reader follows; that target is not read"), "\(project.problems)")
        // A helper that switches: where it gives up, and where it was called.
        #expect(said("\(helpers):7:", "inside a switch statement") && said("\(helpers):7:", "called at \(file):9:"), "\(project.problems)")
        #expect(said("\(helpers):13:", "deeper than 16 levels"), "\(project.problems)")
        #expect(said("\(file):11:", "a target's name is 42"), "\(project.problems)")
        #expect(said("\(file):12:", "product is .spaceship, not one of Tuist's"), "\(project.problems)")
        #expect(said("\(file):15:", "the number 99999999999999999999999 is too large; GullHeight is not set"), "\(project.problems)")
        #expect(said("\(file):13:", "target GullContent: the glob /etc/** lies outside"), "\(project.problems)")
        #expect(said("\(file):13:", "target GullContent: the glob GullContent/** matches no file"), "\(project.problems)")
        #expect(project.problems.count == 9, "\(project.problems)")
        let content = try #require(project.targets.last)
        #expect(content.generatedInfoPlist?["NSExtension"]?["NSExtensionPointIdentifier"] == .string("com.apple.usernotifications.content-extension"))
        #expect(project.targets[1].productType == "")
    }

    @Test func manifestsThatGiveNoProject() throws {
        let cases: [(String, String)] = [
            ("import ProjectDescription\nlet workspace = 1\n", "declares `let project = Project(…)`, and this one does not"),
            ("import ProjectDescription\nlet project = makeProject()\n", "makeProject(…) is not a function"),
            ("import ProjectDescription\nlet project = other\nlet other = project\n", "defined in terms of itself"),
            ("import ProjectDescription\nlet project = " + String(repeating: "f(", count: 200) + String(repeating: ")", count: 200) + "\n", "nested deeper than"),
            ("\u{FF}\u{FE}garbage", "declares `let project"),
        ]
        for (text, words) in cases {
            let manifest = try TuistTests.manifest(["Project.swift": text])
            do { _ = try XcodeProject(tuistManifest: manifest); Issue.record("read: \(text.prefix(60))") } catch {
                #expect(error.description.hasPrefix(manifest.path) && error.description.contains(words), "\(error.description)")
            }
        }
    }

    /// A manifest cut short: Swift's parser recovers, the error is said, and what it parsed is read.
    @Test func aTruncatedManifest() throws {
        let manifest = try TuistTests.manifest(["Project.swift": "import ProjectDescription\nlet project = Project(name: \"A\", targets: [.target(name: \"A\", product: .app,"])
        let project = try XcodeProject(tuistManifest: manifest)
        #expect(project.name == "A" && project.targets.map(\.name) == ["A"])
        #expect(project.problems.contains { $0.hasPrefix("\(manifest.path):2:") && $0.contains("Swift syntax error") }, "\(project.problems)")
    }

    @Test func aRepositoryWhoseManifestCannotBeRead() throws {
        let manifest = try TuistTests.manifest(["Project.swift": "import ProjectDescription\nlet project = makeProject()\n"])
        do { _ = try XcodeApp(path: manifest.deletingLastPathComponent()); Issue.record("an app was read") } catch {
            #expect(error.description.contains("no Xcode project found (looked for .xcodeproj, .xcworkspace, XcodeGen project.yml or Tuist Project.swift)"))
            #expect(error.description.contains("Project.swift: Tuist's `let project` is"), "\(error.description)")
        }
    }

    @Test func aTuistAppWithoutNotificationExtensions() throws {
        let manifest = try TuistTests.manifest([
            "Project.swift": """
            import ProjectDescription

            let project = Project(name: "Plover", targets: [
                .target(name: "Plover", destinations: .iOS, product: .app, bundleId: "com.example.plover"),
                .target(name: "PloverWidget", destinations: .iOS, product: .appExtension, bundleId: "com.example.plover.widget",
                        infoPlist: .extendingDefault(with: ["NSExtension": ["NSExtensionPointIdentifier": "com.apple.widgetkit-extension"]])),
            ])

            """,
        ])
        let app = try XcodeApp(path: manifest.deletingLastPathComponent())
        #expect(app.app?.name == "Plover" && app.extensions.isEmpty)
        #expect(app.problems == ["Tuist project \(manifest.path): no target is a notification extension (an app extension whose Info.plist's NSExtensionPointIdentifier is com.apple.usernotifications.content-extension or com.apple.usernotifications.service); targets read: Plover (application), PloverWidget (app-extension)"])
    }

    /// A generated .xcodeproj beside the manifest is what Xcode opens: it is read, not the manifest.
    @Test func aGeneratedProjectBesideTheManifestWins() throws {
        let manifest = try TuistTests.manifest(["Project.swift": "let project = Project(name: \"A\")\n", "A.xcodeproj/project.pbxproj": "// !$*UTF8*$!\n{}\n"])
        let folder = manifest.deletingLastPathComponent()
        #expect(try XcodeDiscovery.projects(at: folder) == [folder.appendingPathComponent("A.xcodeproj").standardizedFileURL])
    }
}
