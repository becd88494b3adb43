import Foundation
import Testing
import ProjectImport

/// A pbxproj configuration based on an xcconfig file (`baseConfigurationReference`, as 6 of the
/// 10 pbxproj apps of issue 22's survey have): its settings lie beneath the configuration's own,
/// project and target alike, are expanded like the rest, and their problems say file:line.
struct BaseConfigurationTests {
    /// Lighthouse with `Brand.xcconfig` as the base of the project's two configurations.
    static func repository(_ xcconfig: String, path: String = "Brand.xcconfig", _ name: String = #function) throws -> URL {
        let root = temporaryFolder(name).appendingPathComponent("Lighthouse")
        try FileManager.default.copyItem(at: repositoryRoot.appendingPathComponent("Tests/Fixtures/xcode/Lighthouse"), to: root)
        try Data(xcconfig.utf8).write(to: root.appendingPathComponent("Brand.xcconfig"))
        let pbxproj = root.appendingPathComponent("Lighthouse.xcodeproj/project.pbxproj")
        var text = try String(contentsOf: pbxproj, encoding: .utf8)
        text = text.replacingOccurrences(of: "/* Begin PBXFileReference section */\n",
                                         with: "/* Begin PBXFileReference section */\n\t\t4C1A00B000F1000000C0FFEE /* Brand.xcconfig */ = {isa = PBXFileReference; lastKnownFileType = text.xcconfig; path = \(path); sourceTree = \"<group>\"; };\n")
        text = text.replacingOccurrences(of: "\t\t\t\t4C1A00B00021000000C0FFEE /* gApp */,\n", with: "\t\t\t\t4C1A00B000F1000000C0FFEE /* Brand.xcconfig */,\n\t\t\t\t4C1A00B00021000000C0FFEE /* gApp */,\n")
        for id in ["4C1A00B00035000000C0FFEE /* Debug */", "4C1A00B00036000000C0FFEE /* Release */"] {
            text = text.replacingOccurrences(of: "\t\t\(id) = {\n\t\t\tisa = XCBuildConfiguration;\n", with: "\t\t\(id) = {\n\t\t\tisa = XCBuildConfiguration;\n\t\t\tbaseConfigurationReference = 4C1A00B000F1000000C0FFEE /* Brand.xcconfig */;\n")
        }
        try Data(text.utf8).write(to: pbxproj)
        return root
    }

    @Test func theBaseLiesBeneathAndIsExpanded() throws {
        let root = try Self.repository("BRAND_NAME = Beacon\nMARKETING_VERSION = 9.9\nBRAND_TITLE = $(BRAND_NAME) Light\n")
        let app = try XcodeApp(path: root.appendingPathComponent("Lighthouse.xcodeproj"))
        let settings = try #require(app.app?.configuration()?.settings)
        #expect(settings["BRAND_TITLE"] == "Beacon Light", "the xcconfig's settings, expanded")
        #expect(settings["MARKETING_VERSION"] == "1.4", "the configuration's own settings win over its base")
        #expect(app.project.definitionFiles.contains { $0.lastPathComponent == "Brand.xcconfig" }, "a changed xcconfig is a changed input")
        #expect(app.problems.isEmpty, "\(app.problems)")
    }

    @Test func aCycleInTheBaseIsSaidWithItsLine() throws {
        let root = try Self.repository("A = $(B)\nB = $(A)$(A)\n")
        let app = try XcodeApp(path: root.appendingPathComponent("Lighthouse.xcodeproj"))
        #expect(app.problems.contains { $0.contains("Brand.xcconfig:") && $0.contains("cycle") || $0.contains("Brand.xcconfig:") && $0.contains("refer") }, "\(app.problems)")
    }

    /// CocoaPods' base xcconfigs are absent until `pod install`: one problem for the project,
    /// not one per configuration.
    @Test func missingBasesAreSaidOnce() throws {
        let root = try Self.repository("", path: "\"Pods/Target Support Files/Pods-Lighthouse/Pods-Lighthouse.release.xcconfig\"")
        try FileManager.default.removeItem(at: root.appendingPathComponent("Brand.xcconfig"))
        let app = try XcodeApp(path: root.appendingPathComponent("Lighthouse.xcodeproj"))
        let said = app.problems.filter { $0.contains("xcconfig") }
        #expect(said.count == 1 && said[0].contains("1 xcconfig file(s)") && said[0].contains("pod install"), "\(app.problems)")
    }

    @Test func aBaseOutsideTheRepositoryIsNotRead() throws {
        let root = try Self.repository("", path: "../../outside.xcconfig")
        try Data("BRAND_NAME = Intruder\n".utf8).write(to: root.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("outside.xcconfig"))
        let app = try XcodeApp(path: root.appendingPathComponent("Lighthouse.xcodeproj"))
        #expect(app.app?.configuration()?.settings["BRAND_NAME"] == nil)
        #expect(app.problems.contains { $0.contains("outside.xcconfig") && $0.contains("outside the repository") }, "\(app.problems)")
    }
}
