import Foundation
import Payload
import Testing
import ProjectImport
import Formats

/// XcodeGen specs read as the project XcodeGen would generate from them. The fixture,
/// Tests/Fixtures/xcode/xcodegen, is written here in the shapes element-ios commits: a
/// project.yml that includes a target.yml per target, an xcconfig per configuration that
/// includes others (one found in the project's folder, as Xcode finds it), an app, a service
/// extension whose Info.plist XcodeGen writes from `info:`, a content extension whose Info.plist
/// is the first among its sources, excludes, and an .xcodeproj holding only shared schemes.
struct XcodeGenTests {
    static let fixture = xcodeFixtures.appendingPathComponent("xcodegen")

    /// Files written into a fresh folder; the URL of its project.yml.
    static func spec(_ files: [String: String], name: String = #function) throws -> URL {
        let folder = temporaryFolder(name)
        for (path, text) in files {
            let file = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file)
        }
        return folder.appendingPathComponent("project.yml")
    }

    @Test func specAsProject() throws {
        let project = try XcodeProject(xcodeGenSpec: Self.fixture.appendingPathComponent("project.yml"))
        #expect(project.problems.isEmpty, "\(project.problems)")
        #expect(project.name == "Tidewater" && project.folder.path == Self.fixture.standardizedFileURL.path)
        #expect(project.developmentRegion == "en" && project.knownRegions == ["Base", "en", "nl"]) // xx.lproj is excluded
        #expect(project.targets.map(\.name) == ["TideKit", "Tidewater", "TidewaterContent", "TidewaterNSE"])
        #expect(project.targets.map(\.productType) == ["com.apple.product-type.framework", "com.apple.product-type.application",
                                                       "com.apple.product-type.app-extension", "com.apple.product-type.app-extension"])
        let app = try #require(project.targets.first { $0.name == "Tidewater" })
        #expect(app.id == "Tidewater" && app.configurations.map(\.name) == ["Debug", "Release"])
        let debug = try #require(app.configuration("Debug")), release = try #require(app.configuration("Release"))
        // Project xcconfig < project settings < target xcconfig < target settings, $(inherited) and $(VAR) resolved.
        #expect(debug["PRODUCT_BUNDLE_IDENTIFIER"] == "com.example.tidewater" && debug["PRODUCT_NAME"] == "Tidewater")
        #expect(debug["INFOPLIST_FILE"] == "Tidewater/SupportingFiles/Info.plist")
        #expect(debug["SWIFT_ACTIVE_COMPILATION_CONDITIONS"] == "TIDES DEBUG" && release["SWIFT_ACTIVE_COMPILATION_CONDITIONS"] == "TIDES")
        #expect(debug["LD_RUNPATH_SEARCH_PATHS"] == "@executable_path/Frameworks @executable_path/../Frameworks")
        #expect(debug["CODE_SIGN_IDENTITY[sdk=iphoneos*]"] == "iPhone Developer" && debug["ONLY_ACTIVE_ARCH"] == "YES")
        #expect(debug["OTHER_SWIFT_FLAGS"] == "-DTIDES_DEBUG" && release["OTHER_SWIFT_FLAGS"] == nil)
        #expect(debug["SWIFT_ENABLE_EXPLICIT_MODULES"] == "NO" && debug["MARKETING_VERSION"] == "2.4" && debug["SWIFT_VERSION"] == "5.9")
        #expect(debug["TARGETED_DEVICE_FAMILY"] == "1" && release["SWIFT_OPTIMIZATION_LEVEL"] == "-O" && debug["SWIFT_OPTIMIZATION_LEVEL"] == nil)
        #expect(release["SWIFT_COMPILATION_MODE"] == "wholemodule" && debug["DISPLAY_NAME"] == "Tidewater Beta" && release["DISPLAY_NAME"] == "Tidewater")
        // The xcconfig's icon name, not XcodeGen's preset (which it keeps out of the way); the preset's SDKROOT.
        #expect(debug["ASSETCATALOG_COMPILER_APPICON_NAME"] == "AppIcon-Tides" && debug["SDKROOT"] == "iphoneos")
        // Files relative to the project's folder: excludes (a glob of a folder, of an extension, of an .lproj) left out,
        // a file outside the target's folder, an asset catalog as one resource, Info.plist and entitlements in no phase.
        #expect(app.sources == ["Tidewater/AppDelegate.swift", "Tidewater/Tides/TideTable.swift", "Shared/Formatting.swift"])
        #expect(app.resources == ["Tidewater/Assets/Base.lproj/LaunchScreen.storyboard", "Tidewater/Assets/Images.xcassets",
                                  "Tidewater/Assets/en.lproj/Localizable.strings", "Tidewater/Assets/nl.lproj/InfoPlist.strings",
                                  "Tidewater/Assets/nl.lproj/Localizable.strings", "Tidewater/target.yml"])
        let service = try #require(project.targets.first { $0.name == "TidewaterNSE" })
        #expect(service.sources == ["TidewaterNSE/NotificationService.swift", "Tidewater/Tides/TideTable.swift"])
        #expect(service.resources == ["TidewaterNSE/target.yml"])
        #expect(service.configuration()?["INFOPLIST_FILE"] == "TidewaterNSE/Info.plist" && service.generatedInfoPlist != nil)
        #expect(service.configuration()?["PRODUCT_BUNDLE_IDENTIFIER"] == "com.example.tidewater.service")
        let content = try #require(project.targets.first { $0.name == "TidewaterContent" })
        #expect(content.configuration()?["INFOPLIST_FILE"] == "TidewaterContent/Info.plist" && content.generatedInfoPlist == nil)
        #expect(content.resources == ["TidewaterContent/Base.lproj/MainInterface.storyboard"])
        // options.bundleIdPrefix for a target no level gives an identifier; `includes` keeps only the Swift file.
        let kit = try #require(project.targets.first { $0.name == "TideKit" })
        #expect(kit.configuration()?["PRODUCT_BUNDLE_IDENTIFIER"] == "com.example.TideKit" && kit.sources == ["Shared/Formatting.swift"] && kit.resources.isEmpty)
        #expect(project.definitionFiles.map(\.lastPathComponent) == ["project.yml", "target.yml", "target.yml", "Identifiers.xcconfig", "Project-Debug.xcconfig",
                                                                     "Project-Release.xcconfig", "Project.xcconfig", "Common.xcconfig", "Debug.xcconfig", "Release.xcconfig"])
    }

    /// The repository folder holds a project.yml and an .xcodeproj of shared schemes only (as
    /// element-ios does): the spec is the project, and XcodeApp reads the app from it.
    @Test func appFromSpec() throws {
        let spec = Self.fixture.appendingPathComponent("project.yml").standardizedFileURL
        #expect(try XcodeDiscovery.projects(at: Self.fixture) == [spec])
        #expect(try XcodeDiscovery.projects(at: Self.fixture.appendingPathComponent("Tidewater.xcodeproj")) == [spec])
        let app = try XcodeApp(path: Self.fixture)
        #expect(app.problems.isEmpty, "\(app.problems)")
        #expect(app.project.bundle == spec && app.app?.name == "Tidewater" && app.displayName == "Tidewater Beta")
        #expect(app.extensions.map(\.target.name) == ["TidewaterContent", "TidewaterNSE"])
        #expect(app.extensions.map(\.point) == [XcodeApp.Extension.content, XcodeApp.Extension.service])
        // The service extension's Info.plist is the one XcodeGen writes from `info:` (no file yet), $(VAR)s expanded.
        let service = try #require(app.extensions.last)
        #expect(service.infoPlist["CFBundleIdentifier"]?.string == "com.example.tidewater.service")
        #expect(service.infoPlist["CFBundleDisplayName"]?.string == "Tidewater Service" && service.infoPlist["CFBundlePackageType"]?.string == "XPC!")
        #expect(service.infoPlist["NSExtension"]?["NSExtensionPrincipalClass"]?.string == "TidewaterNSE.NotificationService")
        #expect(service.infoPlistFile?.lastPathComponent == "Info.plist")
        var problems: [String] = []
        #expect(app.appIcon(problems: &problems)?.set?.light?.path.hasSuffix("Tidewater/Assets/Images.xcassets/AppIcon-Tides.appiconset/Tides.png") == true)
        #expect(app.stringsFolders(problems: &problems).map(\.lastPathComponent) == ["Assets"])
        #expect(app.sources(problems: &problems).count == 5 && problems.isEmpty, "\(problems)")

        // A generated project beside the spec is the project; the spec is then XcodeGen's input only.
        let root = temporaryFolder("generated")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("App.xcodeproj"), withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: root.appendingPathComponent("App.xcodeproj/project.pbxproj"))
        try Data("name: App".utf8).write(to: root.appendingPathComponent("project.yml"))
        #expect(try XcodeDiscovery.projects(at: root).map(\.lastPathComponent) == ["App.xcodeproj"])
    }

    /// Includes (`relativePaths: false`, `:REPLACE`), target templates with `${target_name}` and
    /// attributes, setting groups, `configs:` keys matching configurations by name.
    @Test func mergesAsXcodeGen() throws {
        let file = try Self.spec([
            "project.yml": """
            name: Harbour
            options: {settingPresets: none, useBaseInternationalization: false, developmentLanguage: nl}
            configs: {Debug: debug, Staging Debug: debug, Release: release}
            settingGroups:
              signing:
                base: {CODE_SIGN_STYLE: Manual}
                groups: [team]
              team: {DEVELOPMENT_TEAM: ABCDE12345}
            targetTemplates:
              Extension:
                type: app-extension
                platform: iOS
                sources: ["${target_name}"]
                settings:
                  base:
                    PRODUCT_BUNDLE_IDENTIFIER: com.example.${target_name}
                    ROLE: ${role}
            include:
              - path: Modules/base.yml
                relativePaths: false
            targets:
              HarbourAlerts:
                templates: [Extension]
                templateAttributes: {role: alerts}
                sources:REPLACE: [Alerts]
              Harbour:
                type: application
                settings:
                  groups: [signing]
                  configs:
                    debug: {API: dev}
                    Release: {API: prod}
            """,
            "Modules/base.yml": "targets:\n  Harbour:\n    sources: [App]\n",
            "App/Main.swift": "", "App/fr.lproj/Localizable.strings": "", "Alerts/AlertService.swift": "", "HarbourAlerts/Unused.swift": "",
        ])
        let project = try XcodeProject(xcodeGenSpec: file)
        #expect(project.problems.isEmpty, "\(project.problems)")
        #expect(project.developmentRegion == "nl" && project.knownRegions == ["fr", "nl"])
        let app = try #require(project.targets.first { $0.name == "Harbour" })
        #expect(app.configurations.map(\.name) == ["Debug", "Release", "Staging Debug"])
        #expect(app.sources == ["App/Main.swift"] && app.resources == ["App/fr.lproj/Localizable.strings"])
        #expect(app.configurations.map { $0["API"] ?? "-" } == ["dev", "prod", "dev"])
        #expect(app.configuration()?["DEVELOPMENT_TEAM"] == "ABCDE12345" && app.configuration()?["CODE_SIGN_STYLE"] == "Manual")
        #expect(app.configuration()?["SDKROOT"] == nil) // settingPresets: none, and the targets' platforms differ
        let alerts = try #require(project.targets.first { $0.name == "HarbourAlerts" })
        #expect(alerts.isAppExtension && alerts.sources == ["Alerts/AlertService.swift"])
        #expect(alerts.configuration()?["PRODUCT_BUNDLE_IDENTIFIER"] == "com.example.HarbourAlerts" && alerts.configuration()?["ROLE"] == "alerts")
    }

    /// YAML as XcodeGen specs write it: block and flow collections, quoting, block scalars,
    /// anchors, aliases and merge keys; booleans only when plain.
    @Test func yamlValues() throws {
        let text = """
        base: &base {type: application, platform: iOS}
        quoted: "NO"
        plain: NO
        list: [a, 'b c', "d\\te"]
        script: |
          echo one
          echo two
        target:
          <<: *base
          type: framework
        empty:
        again: *base
        """
        let root = try #require(try YAMLReader.parse(Array(text.utf8), file: "t.yml"))
        #expect(root["quoted"]?.bool == nil && root["quoted"]?.string == "NO" && root["plain"]?.bool == false)
        #expect(root["list"]?.sequence?.compactMap(\.string) == ["a", "b c", "d\te"])
        #expect(root["script"]?.string == "echo one\necho two\n")
        #expect(root["target"]?["type"]?.string == "framework" && root["target"]?["platform"]?.string == "iOS")
        #expect(root["empty"]?.isNull == true && root["again"]?["type"]?.string == "application")
        #expect(root["again"]?.line == 12 && root["list"]?.line == 4)
        #expect(try YAMLReader.parse([], file: "empty.yml") == nil)
    }

    /// Hostile and broken specs: each an error naming the file, line and column, never a crash or
    /// a hang; what is wrong inside a spec that can still be read is a problem with file:line.
    @Test func hostileSpecs() throws {
        func failure(_ text: String, name: String = #function) throws -> String {
            let file = try Self.spec(["project.yml": text], name: name)
            do {
                let project = try XcodeProject(xcodeGenSpec: file)
                return "read, with problems:\n" + project.problems.joined(separator: "\n")
            } catch { return "\(error)".replacingOccurrences(of: file.path, with: "project.yml") }
        }
        let bomb = "a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n" + (1...9).map { i in
            "l\(i): &l\(i) [" + Array(repeating: i == 1 ? "*a" : "*l\(i - 1)", count: 10).joined(separator: ", ") + "]"
        }.joined(separator: "\n")
        let cases: [(String, String)] = [
            ("name: Tide\ntargets:\n  App: {type: application, sources: [App", "project.yml:4:1: while parsing a flow sequence"),
            ("name: \"Tide\ntargets: {}\n", "project.yml:3:1: while scanning a quoted scalar, found unexpected end of stream"),
            ("targets: " + String(repeating: "[", count: 100_000), "project.yml:1:73: nested deeper than 64 levels"),
            ((0..<100).map { String(repeating: "  ", count: $0) + "k\($0):" }.joined(separator: "\n"), "project.yml:65:129: nested deeper than 64 levels"),
            (bomb, "project.yml:6:"),
            ("name: Tide\ntargets: 5\n", "project.yml:2: targets: expected a mapping of target names to targets, not the scalar \"5\""),
            ("- a\n- b\n", "project.yml:1: an XcodeGen spec is a mapping"),
            ("name: A\nname: B\n", "project.yml:2:7: the key \"name\" appears twice in one mapping (lines 1 and 2)"),
            ("name: A\n---\nname: B\n", "project.yml:2:1: a second document begins here"),
            ("name: *nowhere\n", "project.yml:1:7: the alias *nowhere names no anchor"),
            ("name: A\ntargets:\n\tApp: {}\n", "project.yml:3:1: while scanning for the next token, found character that cannot start any token"),
            ("? [a, b]\n: c\n", "project.yml:1:3: a mapping's key is a list"),
        ]
        for (text, says) in cases {
            let said = try failure(text)
            #expect(said.hasPrefix(says), "\(text.prefix(40)): \(said)")
        }
        #expect(try failure(bomb).contains("billion laughs"))
        // Bombs made of names rather than aliases: setting groups of groups, and templates copied into many targets.
        let groups = (0..<12).map { i in "  g\(i):\n    groups: [" + Array(repeating: "g\(i + 1)", count: 12).joined(separator: ", ") + "]\n    base: {K\(i): v}" }.joined(separator: "\n")
        let grouped = try failure("name: G\nsettingGroups:\n\(groups)\n  g12: {K12: v}\ntargets:\n  App:\n    type: application\n    settings: {groups: [g0]}\n")
        #expect(grouped.contains("project.yml:37: more than 256 setting groups applied to one setting; the rest are not"), "\(grouped)")
        let big = (0..<20_000).map { "        - x\($0)" }.joined(separator: "\n")
        let copies = (0..<40).map { "  T\($0): {templates: [Big]}" }.joined(separator: "\n")
        let templated = try failure("name: T\ntargetTemplates:\n  Big:\n    type: framework\n    scheme:\n      testTargets:\n\(big)\ntargets:\n\(copies)\n")
        #expect(templated.contains("templates copy more than 500000 values into the targets; target T24 and those after it are read without them"), "\(templated.prefix(300))")
        let settings = (0..<10_000).map { "      K\($0): v" }.joined(separator: "\n")
        let configs = (0..<64).map { "  C\($0): debug" }.joined(separator: "\n")
        let layered = try failure("name: S\nconfigs:\n\(configs)\nsettings:\n  base:\n\(settings)\ntargets:\n  App: {type: application}\n")
        #expect(layered.contains("more than 500000 build settings in the targets' configurations; target App's C"), "\(layered.prefix(300))")
        let invalid = try Self.spec(["project.yml": "name: Tide\ntargets: {}\n"])
        try Data([0x6E, 0x3A, 0x20, 0x0A, 0x61, 0x3A, 0x20, 0xFF, 0xFE]).write(to: invalid)
        #expect(throws: XcodeProject.ReadError.self) { _ = try XcodeProject(xcodeGenSpec: invalid) }
        do { _ = try XcodeProject(xcodeGenSpec: invalid) } catch { #expect("\(error)".contains("project.yml:2:"), "\(error)") }
        let huge = try Self.spec(["project.yml": "name: Tide\n# " + String(repeating: "x", count: YAMLReader.maxBytes) + "\n"])
        do { _ = try XcodeProject(xcodeGenSpec: huge); Issue.record("a huge spec was read") } catch { #expect("\(error)".contains("more than the 4 MB"), "\(error)") }
        #expect(throws: XcodeProject.ReadError.self) { _ = try XcodeProject(xcodeGenSpec: huge.deletingLastPathComponent().appendingPathComponent("missing.yml")) }
    }

    /// Inside a spec that can be read: each thing that cannot be is a problem with its file and
    /// line, and the rest is still read.
    /// Every path a spec gives stays inside the project's folder: a source of `/` (the fuzzer's
    /// find, which walked the whole disk), `../..`, an include or an xcconfig outside are each a
    /// problem with their line, and nothing outside is read.
    @Test func pathsStayInTheProject() throws {
        let file = try Self.spec([
            "project.yml": """
            name: Tide
            include: [../outside.yml]
            targets:
              App:
                type: application
                sources: [/, ../.., App]
                configFiles: {Debug: /etc/outside.xcconfig}
            """,
            "App/Main.swift": "",
        ])
        let project = try XcodeProject(xcodeGenSpec: file)
        let app = try #require(project.targets.first)
        #expect(app.sources == ["App/Main.swift"], "\(app.sources.prefix(5))")
        for says in ["project.yml:2: the included spec ../outside.yml lies outside", "project.yml:6: / lies outside", "project.yml:6: ../.. lies outside",
                     "project.yml:7: /etc/outside.xcconfig lies outside"] {
            #expect(project.problems.contains { $0.contains(says) }, "\(says): \(project.problems)")
        }
    }

    /// The same repository rule as a pbxproj's: an xcconfig's `#include` that leads out (absolute,
    /// `../`) is said and not read; a source spelled in another case than the disk is read with a
    /// warning naming both spellings.
    @Test func xcconfigIncludesAndCase() throws {
        let file = try Self.spec([
            "project.yml": """
            name: Tide
            targets:
              App:
                type: application
                sources: [app]
                configFiles: {Debug: Config/Debug.xcconfig}
            """,
            "App/Main.swift": "",
            "Config/Debug.xcconfig": "#include \"../../outside.xcconfig\"\n#include \"/etc/os-release\"\nPRODUCT_NAME = Tide\n",
        ])
        let outside = file.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("outside.xcconfig")
        try Data("PRODUCT_NAME = Intruder\n".utf8).write(to: outside)
        defer { try? FileManager.default.removeItem(at: outside) }
        let project = try XcodeProject(xcodeGenSpec: file)
        let app = try #require(project.targets.first)
        #expect(app.sources == ["App/Main.swift"] && app.configuration("Debug")?["PRODUCT_NAME"] == "Tide")
        for says in ["Debug.xcconfig:1: ../../outside.xcconfig lies outside the repository", "Debug.xcconfig:2: /etc/os-release lies outside the repository",
                     "app is spelled App on disk"] {
            #expect(project.problems.contains { $0.contains(says) }, "\(says): \(project.problems)")
        }
        #expect(!project.definitionFiles.contains { $0.lastPathComponent == "outside.xcconfig" || $0.path == "/etc/os-release" })
    }

    @Test func problemsWithinSpecs() throws {
        let file = try Self.spec([
            "project.yml": """
            name: Tide
            include: [Missing/target.yml, Loop/a.yml, Broken/target.yml, {path: Maybe.yml, enable: "${WITH_MAYBE}"}]
            configFiles: {Debug: Config/Debug.xcconfig}
            targets:
              App:
                type: application
                sources: [App, Gone, {path: Optional, optional: true}]
                settings: [not, a, mapping]
              Odd: 5
              Watch:
                type: application.watchapp9
                platform: [watchOS, iOS]
                configFiles: {Release: Config/None.xcconfig}
            """,
            "Loop/a.yml": "include: [b.yml]\n", "Loop/b.yml": "include: [a.yml]\n",
            "Broken/target.yml": "targets:\n  Broken: {type: framework\n",
            "Config/Debug.xcconfig": "#include \"Debug.xcconfig\"\n#include \"Absent.xcconfig\"\nnot a setting\nSWIFT_VERSION = 6.0 // a comment\n",
            "App/Main.swift": "",
        ])
        let project = try XcodeProject(xcodeGenSpec: file)
        let folder = file.deletingLastPathComponent().path
        let problems = project.problems.map { $0.replacingOccurrences(of: folder + "/", with: "") }
        for says in ["project.yml:2: the included spec Missing/target.yml does not exist",
                     "Loop/b.yml:1: a.yml includes itself (project.yml → a.yml → b.yml → a.yml)",
                     "Broken/target.yml:3:1: while parsing a flow mapping", "(included from project.yml:2)",
                     "project.yml:2: include Maybe.yml's enable is the scalar \"${WITH_MAYBE}\"",
                     "project.yml:7: target App's source Gone does not exist",
                     "project.yml:8: settings are a mapping of build settings, not a list",
                     "project.yml:9: target Odd is the scalar \"5\", not a mapping; skipped",
                     "project.yml:11: target Watch's type application.watchapp9 is not one XcodeGen knows",
                     "project.yml:12: target Watch is for several platforms",
                     "project.yml:13: the xcconfig file Config/None.xcconfig does not exist",
                     "Config/Debug.xcconfig:1: Debug.xcconfig includes itself",
                     "Config/Debug.xcconfig:2: #include \"Absent.xcconfig\" is found neither beside it nor in the project's folder",
                     "Config/Debug.xcconfig:3: not a KEY = VALUE line"] {
            #expect(problems.contains { $0.hasPrefix(says) || $0.contains(says) }, "\(says) not in \(problems)")
        }
        #expect(!problems.contains { $0.contains("Optional") })
        let app = try #require(project.targets.first { $0.name == "App" })
        #expect(app.sources == ["App/Main.swift"] && app.configuration("Debug")?["SWIFT_VERSION"] == "6.0")
        #expect(project.targets.map(\.name) == ["App", "Watch"])
    }
}
