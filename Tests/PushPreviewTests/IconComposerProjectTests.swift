import ContentStage
import Foundation
import Imaging
import PushPreview
import Styling
import Testing
import ProjectImport

/// Issue 22: an Xcode 26 app whose icon is an Icon Composer bundle (`App/AppIcon.icon`, a
/// resource of the app as Xcode adds it: `lastKnownFileType = folder.iconcomposer.icon`), read
/// where it lives on every run, and drawn on the mock-ups.
struct IconComposerProjectTests {
    /// Lighthouse with `AppIcon.icon` (the Beacon fixture) among the app's resources; its icon
    /// set kept or removed.
    static func repo(keepSet: Bool, _ name: String = #function) throws -> XcodeRunTests.Repo {
        let repo = try XcodeRunTests.Repo(name)
        try FileManager.default.copyItem(at: IconComposerTests.fixtures.appendingPathComponent("Beacon.icon"), to: repo.root.appendingPathComponent("App/AppIcon.icon"))
        if !keepSet { try FileManager.default.removeItem(at: repo.root.appendingPathComponent("App/Assets.xcassets/AppIcon.appiconset")) }
        let file = repo.root.appendingPathComponent("Lighthouse.xcodeproj/project.pbxproj")
        var text = try String(contentsOf: file, encoding: .utf8)
        func insert(_ line: String, after anchor: String) {
            guard let r = text.range(of: anchor) else { Issue.record("no \(anchor) in the pbxproj"); return }
            text.insert(contentsOf: "\n" + line, at: text[r.upperBound...].firstIndex(of: "\n") ?? text.endIndex)
        }
        insert("\t\t4C1A00B000F1000000C0FFEE /* AppIcon.icon in Resources */ = {isa = PBXBuildFile; fileRef = 4C1A00B000F2000000C0FFEE /* AppIcon.icon */; };",
               after: "4C1A00B00007000000C0FFEE /* Assets.xcassets in Resources */ = {")
        insert("\t\t4C1A00B000F2000000C0FFEE /* AppIcon.icon */ = {isa = PBXFileReference; lastKnownFileType = folder.iconcomposer.icon; path = AppIcon.icon; sourceTree = \"<group>\"; };",
               after: "4C1A00B00008000000C0FFEE /* Assets.xcassets */ = {")
        insert("\t\t\t\t4C1A00B000F2000000C0FFEE /* AppIcon.icon */,", after: "\t\t\t\t4C1A00B00008000000C0FFEE /* Assets.xcassets */,")
        insert("\t\t\t\t4C1A00B000F1000000C0FFEE /* AppIcon.icon in Resources */,", after: "\t\t\t\t4C1A00B00007000000C0FFEE /* Assets.xcassets in Resources */,")
        try Data(text.utf8).write(to: file)
        return repo
    }

    @Test func theBundleIsTheIcon() throws {
        let repo = try Self.repo(keepSet: false)
        let project = try Project(folder: repo.project)
        let icon = try #require(project.appIcon)
        #expect(icon.light.path.hasSuffix("App/AppIcon.icon/icon.json") && icon.composed.keys.sorted { $0.rawValue < $1.rawValue } == [.dark, .light])
        #expect(project.appIconProblem?.code == .icon && project.appIconProblem?.description.contains("groups[0]: specular, shadow not drawn") == true && project.appIconProblem?.description.contains("placeholder") == false, "\(String(describing: project.appIconProblem))")
        #expect(project.xcodeInputs.map(\.lastPathComponent).filter { ["icon.json", "Band.png", "Lamp.svg"].contains($0) }.sorted() == ["Band.png", "Lamp.svg", "icon.json"])
        let plan = try ProjectInit(path: repo.root.appendingPathComponent("Lighthouse.xcodeproj"), folder: repo.root.appendingPathComponent("out"))
        #expect(plan.found.contains("app icon: App/AppIcon.icon (Icon Composer, 2 layers)"), "\(plan.found)")
    }

    /// With both kinds, the bundle wins (as Xcode 26 builds it); with neither, the placeholder's
    /// finding names both kinds that were looked for.
    @Test func theBundleWinsAndBothAreNamed() throws {
        let both = try Project(folder: try Self.repo(keepSet: true).project)
        #expect(both.appIcon?.light.lastPathComponent == "icon.json" && both.appIcon?.composed.isEmpty == false)
        let repo = try XcodeRunTests.Repo()
        try FileManager.default.removeItem(at: repo.root.appendingPathComponent("App/Assets.xcassets/AppIcon.appiconset"))
        let none = try Project(folder: repo.project)
        #expect(none.appIcon == nil)
        let said = try #require(none.appIconProblem?.description)
        #expect(said.contains("no AppIcon.icon among its resources") && said.contains("no AppIcon.appiconset in its asset catalogs") && said.hasSuffix("drawing the placeholder"), "\(said)")
    }

    /// End to end: the mock-ups show the composed icon, the lamp's yellow on the blue tile in light
    /// mode and white on the near-black tile in dark mode, and say what was not drawn.
    @Test func theMockupsShowTheComposedIcon() throws {
        let repo = try Self.repo(keepSet: false)
        let results = try repo.render(["--appearance", "light,dark"])
        func count(_ appearance: String, near colour: (Int, Int, Int)) throws -> Int {
            let r = try #require(results.first { $0.view == "banner" && $0.appearance == appearance && $0.payload.hasSuffix("storm.apns") })
            let png = try ContentStageTests.png(r)
            var n = 0
            for i in stride(from: 0, to: png.pixels.count, by: 4) where abs(Int(png.pixels[i]) - colour.0) < 14 && abs(Int(png.pixels[i + 1]) - colour.1) < 14 && abs(Int(png.pixels[i + 2]) - colour.2) < 14 { n += 1 }
            return n
        }
        #expect(try count("light", near: (26, 115, 230)) > 200 && count("dark", near: (26, 115, 230)) == 0)
        #expect(try count("light", near: (255, 204, 0)) > 20 && count("dark", near: (255, 204, 0)) == 0)
        #expect(try count("light", near: (224, 48, 32)) > 40 && count("dark", near: (224, 48, 32)) > 40)
        let banner = try #require(results.first { $0.view == "banner" && $0.appearance == "light" })
        #expect(banner.warnings.contains { $0.contains("AppIcon.icon/icon.json: groups[0]: specular, shadow not drawn") } && !banner.warnings.contains { $0.contains("placeholder") }, "\(banner.warnings)")
    }
}
