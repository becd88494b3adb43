import Foundation
import Testing
import PushPreview

/// Files that used to be dropped with exit 0 and no word: now each is an error or a warning
/// naming the file and where in it, from validate and from gallery alike.
struct SilentIgnoreTests {
    @Test func brokenDevicesJSONIsAnErrorWithItsPosition() throws {
        let project = try examplesCopy(payloads: ["body-only.apns"])
        try Data(#"[{"id": "tiny", "name": "Tiny", "width": 320, "scale": 2},]"#.utf8).write(to: project.appendingPathComponent("devices.json"))
        let out = project.deletingLastPathComponent().appendingPathComponent("Output")
        let g = try runProcess(pushpreviewBinary, ["gallery", project.path, "--out", out.path, "--device", "iphone-15"])
        #expect(g.status == 1 && g.stderr.contains("devices.json:1:") && !g.stderr.contains("unknown device"), "\(g.stderr)")
        let v = try runProcess(pushpreviewBinary, ["validate", project.path])
        #expect(v.status == 1 && (v.stdout + v.stderr).contains("devices.json:1:"), "\(v.stdout) \(v.stderr)")
    }

    @Test func brokenStringsAndCatalogsAreNamed() throws {
        let project = try examplesCopy(payloads: ["localized-boarding.apns"])
        try Data("\"FERRY_BOARDING\" = \"%1$@ boards at %2$@\"\n\"OTHER\" = \"x\";".utf8).write(to: project.appendingPathComponent("nl.lproj/Localizable.strings"))
        let v = try runProcess(pushpreviewBinary, ["validate", project.path])
        let said = v.stdout + v.stderr
        #expect(said.contains("nl.lproj/Localizable.strings:2"), "\(said)")
        let out = project.deletingLastPathComponent().appendingPathComponent("Output")
        _ = try runProcess(pushpreviewBinary, ["gallery", project.path, "--out", out.path, "--device", "iphone-15", "--locale", "nl"])
        let report = try GalleryReport.read(out.appendingPathComponent("report.json"))
        let warnings = report.inputs.flatMap(\.mockups).flatMap(\.warnings)
        #expect(warnings.contains { $0.contains("nl.lproj/Localizable.strings:2") }, "\(warnings)")
        #expect(report.inputs.allSatisfy { $0.outcome == "warnings" })
    }

    @Test func brokenInfoPlistHasALine() throws {
        let project = try examplesCopy(payloads: ["body-only.apns"])
        let plist = project.appendingPathComponent("Info.plist")
        var text = try String(contentsOf: plist, encoding: .utf8)
        text = text.replacingOccurrences(of: "</dict>", with: "</dcit>", options: [], range: text.range(of: "</dict>"))
        try Data(text.utf8).write(to: plist)
        let v = try runProcess(pushpreviewBinary, ["validate", project.path])
        #expect((v.stdout + v.stderr).contains("Info.plist: line "), "\(v.stdout) \(v.stderr)")
    }
}
