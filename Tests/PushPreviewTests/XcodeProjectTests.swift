import Foundation
import Checked
import Payload
import Testing
import ProjectImport
import Formats

/// Issue 15, the first part: an Xcode project's pbxproj (the old-style OpenStep property list)
/// read strictly, its object graph resolved, on files written here in the shape Xcode writes.
struct XcodeProjectTests {
    /// Tests/Fixtures/xcode/Harbor.pbxproj, written here in the shape Xcode writes: an app with a
    /// content extension, two configurations, a generated Info.plist with INFOPLIST_KEY_ settings,
    /// $(VAR) expansion, a localized storyboard (a variant group), Xcode's comments and quoting.
    static let pbxproj = String(decoding: sha(repositoryRoot.appendingPathComponent("Tests/Fixtures/xcode/Harbor.pbxproj")), as: UTF8.self)

    static func write(_ text: String, name: String = "Harbor") throws -> URL {
        let bundle = temporaryFolder("xcode").appendingPathComponent("\(name).xcodeproj")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: bundle.appendingPathComponent("project.pbxproj"))
        return bundle
    }

    @Test func targetsSettingsAndFiles() throws {
        let project = try XcodeProject(bundle: try Self.write(Self.pbxproj))
        #expect(project.problems.isEmpty, "\(project.problems)")
        #expect(project.knownRegions == ["en", "Base", "nl", "pt-BR"] && project.developmentRegion == "en")
        #expect(project.targets.map(\.name) == ["Harbor", "HarborContent"])
        let app = try #require(project.targets.first { $0.isApplication })
        #expect(app.configurations.map(\.name) == ["Debug", "Release"])
        let debug = try #require(app.configuration("Debug")), release = try #require(app.configuration("Release"))
        // The target's settings over the project's, $(VAR) with an operator expanded, $(inherited) joined.
        #expect(debug["PRODUCT_NAME"] == "Harbor" && debug["PRODUCT_BUNDLE_IDENTIFIER"] == "com.example.Harbor.debug")
        #expect(release["PRODUCT_BUNDLE_IDENTIFIER"] == "com.example.Harbor" && release["SWIFT_VERSION"] == "5.0")
        #expect(debug["INFOPLIST_KEY_CFBundleDisplayName"] == #"Harbor "Beta""# && release["INFOPLIST_KEY_CFBundleDisplayName"] == "Harbor")
        #expect(debug["GENERATE_INFOPLIST_FILE"] == "YES" && debug["ASSETCATALOG_COMPILER_APPICON_NAME"] == "AppIcon")
        #expect(debug["OTHER_SWIFT_FLAGS"] == "-DDEBUG" && debug["IPHONEOS_DEPLOYMENT_TARGET"] == "17.0")
        #expect(app.sources == ["Harbor/AppDelegate.swift"] && app.resources == ["Harbor/Assets.xcassets"])
        let ext = try #require(project.targets.first { $0.isAppExtension })
        #expect(ext.configuration("Debug")?["PRODUCT_BUNDLE_IDENTIFIER"] == "com.example.Harbor.content")
        #expect(ext.configuration()?["INFOPLIST_FILE"] == "Harbor Content/Info.plist")
        #expect(ext.sources == ["Harbor Content/NotificationViewController.swift"])
        // A localized storyboard: each localization's file.
        #expect(ext.resources == ["Harbor Content/Base.lproj/MainInterface.storyboard", "Harbor Content/nl.lproj/MainInterface.strings"])
    }

    /// The same reader reads Xcode's escapes, data, comments and bare words.
    @Test func openStepValues() throws {
        let text = #"// !$*UTF8*$!"# + "\n" + #"{ a = "tab\tquote\" \U00e9 \101"; b = <0fAB 10>; c = (x/y.z, "$(SRCROOT)/a", -1.5, ); /* c */ d/*x*/ = {}; }"#
        let value = try PropertyList.read(Array(text.utf8), file: "t.pbxproj")
        #expect(value["a"]?.string == "tab\tquote\" é A")
        #expect(value["b"] == .data(Data([0x0F, 0xAB, 0x10])))
        #expect(value["c"]?.strings == ["x/y.z", "$(SRCROOT)/a", "-1.5"])
        #expect(value["d"] == .dictionary(.init()))
    }

    /// A cut-short file, at many places, is an error with the file, line and column; a reference
    /// cycle and a dangling id are problems naming the object while the rest is read.
    @Test func hostileProjects() throws {
        let bytes = Array(Self.pbxproj.utf8)
        for fraction in [0.05, 0.2, 0.37, 0.5, 0.63, 0.8, 0.95, 0.999] {
            let cut = String(decoding: bytes.prefix(Int(Double(bytes.count) * fraction)), as: UTF8.self)
            do {
                _ = try XcodeProject(bundle: try Self.write(cut))
                Issue.record("a pbxproj cut at \(fraction) was read")
            } catch {
                let said = "\(error)"
                #expect(said.contains("project.pbxproj: line ") && said.contains("column") && said.contains("cut short"), "\(fraction): \(said)")
            }
        }
        for (text, says) in [("{ a = 1; a = 2; }", "appears twice"), ("{ a = 1 }", "expected ';'"), ("{ a = <0g>; }", "hexadecimal"),
                             (String(repeating: "(", count: 100_000), "nested deeper than"), ("{ a = (1, 2; }", "expected ',' or ')'"), ("{} }", "after the property list's end")] {
            do {
                _ = try XcodeProject(bundle: try Self.write(text))
                Issue.record("\(text.prefix(20)) was read")
            } catch { #expect("\(error)".contains(says), "\(error)") }
        }
        // A group inside itself, and a build file whose file reference does not exist.
        var cyclic = Self.pbxproj.replacingOccurrences(of: "children = (A2000001 /* AppDelegate.swift */,", with: "children = (A4000001, A2000001 /* AppDelegate.swift */,")
        cyclic = cyclic.replacingOccurrences(of: "fileRef = A2000002 /* NotificationViewController.swift */", with: "fileRef = FFFFFFFF")
        cyclic = cyclic.replacingOccurrences(of: "buildPhases = (A6000003 /* Sources */,", with: "buildPhases = (DEADBEEF, A6000003 /* Sources */,")
        let project = try XcodeProject(bundle: try Self.write(cyclic))
        #expect(project.problems.contains { $0.contains("group A4000001 contains itself") && $0.contains("A4000001 → A4000002 → A4000001") }, "\(project.problems)")
        #expect(project.problems.contains { $0.contains("object DEADBEEF") && $0.contains("HarborContent") })
        #expect(project.problems.contains { $0.contains("names file FFFFFFFF, which does not exist") })
        #expect(project.targets.count == 2 && project.targets[0].sources == ["Harbor/AppDelegate.swift"])
        #expect(project.targets[1].sources.isEmpty)
        // Not a project at all.
        #expect(throws: XcodeProject.ReadError.self) { _ = try XcodeProject(bundle: try Self.write("{ archiveVersion = 1; }")) }
    }

    /// A workspace of two projects (one inside a group), a repository folder holding projects
    /// (other people's, under Pods, left out), and a broken workspace.
    @Test func workspacesAndRepositories() throws {
        let root = temporaryFolder("repo")
        for path in ["Harbor.xcodeproj", "Modules/Kit/Kit.xcodeproj", "Pods/Pods.xcodeproj"] {
            let bundle = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
            try Data(Self.pbxproj.utf8).write(to: bundle.appendingPathComponent("project.pbxproj"))
        }
        let workspace = root.appendingPathComponent("Harbor.xcworkspace")
        try FileManager.default.createDirectory(at: workspace, withIntermediateDirectories: true)
        try Data("""
        <?xml version="1.0" encoding="UTF-8"?>
        <Workspace
           version = "1.0">
           <FileRef
              location = "group:Harbor.xcodeproj">
           </FileRef>
           <Group
              location = "container:Modules"
              name = "Modules">
              <FileRef
                 location = "group:Kit/Kit.xcodeproj">
              </FileRef>
           </Group>
           <FileRef
              location = "group:Pods/Pods.xcodeproj">
           </FileRef>
        </Workspace>
        """.utf8).write(to: workspace.appendingPathComponent("contents.xcworkspacedata"))
        let listed = try XcodeDiscovery.projects(at: workspace).map { String($0.path.dropFirst(root.standardizedFileURL.path.count + 1)) }
        #expect(listed == ["Harbor.xcodeproj", "Modules/Kit/Kit.xcodeproj", "Pods/Pods.xcodeproj"])
        let found = try XcodeDiscovery.projects(at: root).map { String($0.path.dropFirst(root.standardizedFileURL.path.count + 1)) }
        #expect(found == ["Harbor.xcodeproj", "Modules/Kit/Kit.xcodeproj"])
        // A project's own workspace stands for the project.
        #expect(try XcodeDiscovery.projects(at: root.appendingPathComponent("Harbor.xcodeproj/project.xcworkspace")).map(\.lastPathComponent) == ["Harbor.xcodeproj"])

        try Data("<Workspace version=\"1.0\"><FileRef location=\"group:A.xcodeproj\">".utf8).write(to: workspace.appendingPathComponent("contents.xcworkspacedata"))
        do {
            _ = try XcodeDiscovery.projects(at: workspace)
            Issue.record("a broken workspace was read")
        } catch { #expect("\(error)".contains("contents.xcworkspacedata: line "), "\(error)") }
        #expect(throws: XcodeProject.ReadError.self) { _ = try XcodeDiscovery.projects(at: root.appendingPathComponent("missing")) }
    }

    /// An extension's kind comes from its Info.plist (INFOPLIST_FILE); a missing one is said.
    @Test func extensionPointFromInfoPlist() throws {
        let bundle = try Self.write(Self.pbxproj)
        let folder = bundle.deletingLastPathComponent().appendingPathComponent("Harbor Content")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let plist: [String: Any] = ["CFBundleIdentifier": "$(PRODUCT_BUNDLE_IDENTIFIER)",
                                    "NSExtension": ["NSExtensionPointIdentifier": "com.apple.usernotifications.content-extension",
                                                    "NSExtensionAttributes": ["UNNotificationExtensionCategory": "boarding"]]]
        try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0).write(to: folder.appendingPathComponent("Info.plist"))
        let project = try XcodeProject(bundle: bundle)
        var problems: [String] = []
        let ext = try #require(project.targets.first { $0.isAppExtension })
        #expect(XcodeDiscovery.extensionPoint(of: ext, in: project, problems: &problems) == "com.apple.usernotifications.content-extension")
        #expect(problems.isEmpty)
        // The Info.plist the build makes: $(VAR)s expanded; a generated one from INFOPLIST_KEY_ settings.
        let info = XcodeDiscovery.infoPlist(of: ext, in: project, configuration: "Debug", problems: &problems)
        #expect(info["CFBundleIdentifier"]?.string == "com.example.Harbor.content")
        let app = try #require(project.targets.first { $0.isApplication })
        let generated = XcodeDiscovery.infoPlist(of: app, in: project, configuration: "Debug", problems: &problems)
        #expect(generated["CFBundleDisplayName"]?.string == #"Harbor "Beta""# && generated["UIApplicationSceneManifest_Generation"]?.string == "YES")
        #expect(XcodeDiscovery.infoPlist(of: app, in: project, configuration: "Release", problems: &problems)["CFBundleDisplayName"]?.string == "Harbor")
        // UIAppFonts: a name found among the target's resources, and one that is not.
        var withFonts = plist
        withFonts["UIAppFonts"] = ["MainInterface.storyboard", "Brand-Bold.otf"]
        try PropertyListSerialization.data(fromPropertyList: withFonts, format: .xml, options: 0).write(to: folder.appendingPathComponent("Info.plist"))
        var fontProblems: [String] = []
        #expect(XcodeDiscovery.fonts(of: ext, in: project, problems: &fontProblems) == ["Harbor Content/Base.lproj/MainInterface.storyboard"])
        #expect(fontProblems.contains { $0.contains("UIAppFonts lists Brand-Bold.otf") }, "\(fontProblems)")
        try FileManager.default.removeItem(at: folder.appendingPathComponent("Info.plist"))
        #expect(XcodeDiscovery.extensionPoint(of: ext, in: project, problems: &problems) == nil)
        #expect(problems.contains { $0.contains("INFOPLIST_FILE does not exist") })
    }
}
