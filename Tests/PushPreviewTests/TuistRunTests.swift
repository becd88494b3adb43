import Foundation
import Testing

/// Issue 22: a Tuist repository (Tests/Fixtures/xcode/tuist-driftwood: Project.swift, its
/// ProjectDescriptionHelpers, no .xcodeproj) through the real CLI, as a new user runs it:
/// `init` on the folder, then `validate` and `gallery` on what it wrote, no file written by hand.
struct TuistRunTests {
    static func copy(_ name: String = #function) throws -> URL {
        let root = temporaryFolder(name).appendingPathComponent("driftwood")
        try FileManager.default.copyItem(at: repositoryRoot.appendingPathComponent("Tests/Fixtures/xcode/tuist-driftwood"), to: root)
        return root
    }

    @Test func initValidateGallery() throws {
        let root = try Self.copy()
        let first = try runProcess(pushpreviewBinary, ["init", root.path])
        #expect(first.status == 0 && first.stdout.contains("7 written, 0 unchanged, 0 kept"), "\(first.stdout)\(first.stderr)")
        #expect(first.stderr.split(separator: "\n").count == 1 && first.stderr.contains("its view is made in code"), "only the view made in code: \(first.stderr)")
        for line in ["project: Project.swift", "target DriftwoodContent: app-extension (com.apple.usernotifications.content-extension)",
                     "target DriftwoodService: app-extension (com.apple.usernotifications.service)", "app name: Driftwood Tides",
                     "category TIDE_ALERT: SNOOZE (Driftwood/Sources/AppDelegate.swift:8)"] {
            #expect(first.stdout.contains(line), "\(line) in \(first.stdout)")
        }
        let settings = try String(contentsOf: root.appendingPathComponent("pushpreview/pushpreview.json"), encoding: .utf8)
        #expect(settings.contains(#""xcode": "../Project.swift""#), "\(settings)")
        let validate = try runProcess(pushpreviewBinary, ["validate", root.appendingPathComponent("pushpreview").path])
        #expect(validate.status == 0, "\(validate.stdout)\(validate.stderr)")
        let out = root.appendingPathComponent("gallery")
        let gallery = try runProcess(pushpreviewBinary, ["gallery", root.appendingPathComponent("pushpreview").path, "--out", out.path, "--jobs", "1"])
        #expect(gallery.status == 0 && (gallery.stdout + gallery.stderr).contains("2 payloads, 12 mock-ups, 0 failed, 2 with warnings"), "\(gallery.stdout)\(gallery.stderr)")
        let report = try String(contentsOf: out.appendingPathComponent("report.json"), encoding: .utf8)
        #expect(report.contains("TIDE_ALERT") && report.contains("SWELL_REPORT"))
    }

    /// A Tuist repository without notification extensions: init says so, naming the manifest as Tuist's.
    @Test func aTuistAppWithoutExtensions() throws {
        let root = temporaryFolder()
        try Data(#"let project = Project(name: "Plover", targets: [.target(name: "Plover", destinations: .iOS, product: .app, bundleId: "com.example.plover")])"#.utf8)
            .write(to: root.appendingPathComponent("Project.swift"))
        let run = try runProcess(pushpreviewBinary, ["init", root.path])
        #expect(run.stderr.contains("Tuist project \(root.standardizedFileURL.path)/Project.swift: no target is a notification extension"), "\(run.stdout)\(run.stderr)")
    }

    /// A manifest that cannot be read: the message names Tuist and what was looked for.
    @Test func anUnreadableManifest() throws {
        let root = temporaryFolder()
        try Data("let project = makeProject()\n".utf8).write(to: root.appendingPathComponent("Project.swift"))
        let run = try runProcess(pushpreviewBinary, ["init", root.path])
        #expect(run.status == 1 && run.stderr.contains("no Xcode project found (looked for .xcodeproj, .xcworkspace, XcodeGen project.yml or Tuist Project.swift)"), "\(run.stderr)")
        #expect(run.stderr.contains("Project.swift:1:15: makeProject(…) is not a function"), "\(run.stderr)")
    }
}
