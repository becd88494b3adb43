import ConfinedFiles
import ContentStage
import Diagnostics
import Foundation
import PushPreview
import Testing

/// Issue 22: `validate` and `gallery` say the same things about a project, from one list. A
/// user who runs validate first is told every warning the gallery would then put on its
/// mock-ups about the project (icon, fonts, strings, categories, paths), with the same words.
struct FindingsAgreementTests {
    /// validate's findings as records, and the gallery's report, for one project folder.
    static func both(_ project: URL, _ name: String = #function) throws -> (validate: [Diagnostic], report: GalleryReport) {
        let v = try runProcess(pushpreviewBinary, ["validate", project.path, "--json"])
        let validate = try v.stdout.split(separator: "\n").map { try JSONDecoder().decode(Diagnostic.self, from: Data($0.utf8)) }
        let out = temporaryFolder(name).appendingPathComponent("out")
        let g = try runProcess(pushpreviewBinary, ["gallery", project.path, "--out", out.path, "--device", "iphone-17", "--jobs", "1"])
        #expect(g.status != 2, "\(g.stderr)")
        return (validate, try GalleryReport.read(in: ConfinedFolder(trusted: out, links: .refused)))
    }

    /// The agreement itself: the report's project findings are validate's, record for record, and
    /// every warning a mock-up carries is one validate gave, unless it is about that payload's own
    /// run (its service stage's fallbacks, what its data lacks).
    static func expectAgreement(_ project: URL, _ name: String = #function, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let (validate, report) = try both(project, name)
        let said = Set(validate)
        let projectFindings = report.projectDiagnostics ?? []
        #expect(Set(projectFindings).isSubset(of: said), "gallery says \(Set(projectFindings).subtracting(said)) that validate does not", sourceLocation: sourceLocation)
        #expect(report.projectIssues == projectFindings.map(\.printed), sourceLocation: sourceLocation)
        // The same finding: its kind, place and words (validate adds the category it checked the template for).
        let saidAnywhere = Set(validate.map { "\($0.code) \($0)" })
        for input in report.inputs {
            for mockup in input.mockups {
                for finding in mockup.findings where !saidAnywhere.contains("\(finding.code) \(finding)") {
                    #expect(Self.payloadOwn(finding, payload: input.payload), "\(input.payload) \(mockup.device) \(mockup.locale ?? "-") \(mockup.view): \"\(finding)\" (\(finding.code)) is not among validate's findings", sourceLocation: sourceLocation)
                }
            }
        }
    }

    /// What only drawing one payload can know: its own findings, the data it lacks for its
    /// template, how tall its view is drawn, its service steps (a download, a translation of its
    /// loc-keys), the system words of its locale.
    static func payloadOwn(_ finding: Diagnostic, payload: String) -> Bool {
        finding.file.hasSuffix(payload) || [.templateMissingKey, .clipped, .service, .systemStrings].contains(finding.code)
    }

    @Test func examples() throws {
        try Self.expectAgreement(repositoryRoot.appendingPathComponent("Examples"))
    }

    @Test func lighthouseThroughInit() throws {
        let repo = try XcodeRunTests.Repo()
        try Self.expectAgreement(repo.project)
    }

    /// Every fixture repository, through init as a user starts: XcodeGen (Tidewater), a view made
    /// in code with the repository's own payloads (Kestrel), Tuist (Driftwood).
    @Test(arguments: ["xcodegen", "codeview/Kestrel", "tuist-driftwood"])
    func fixtureRepositoriesThroughInit(_ fixture: String) throws {
        let root = temporaryFolder("agreement-\(fixture.replacingOccurrences(of: "/", with: "-"))").appendingPathComponent("repo")
        try FileManager.default.copyItem(at: repositoryRoot.appendingPathComponent("Tests/Fixtures/xcode/\(fixture)"), to: root)
        let made = try runProcess(pushpreviewBinary, ["init", root.path])
        #expect(made.status == 0, "\(made.stderr)")
        try Self.expectAgreement(root.appendingPathComponent("pushpreview"), "agreement-\(fixture.replacingOccurrences(of: "/", with: "-"))")
    }

    /// The three a user met (issue 22, item 1): the icon placeholder, an appIcon outside the
    /// project, an untranslated button. Each is a validate finding, and the mock-ups say the same.
    @Test func whatTheMockupsSayValidateSaysFirst() throws {
        let repo = try XcodeRunTests.Repo()
        try FileManager.default.removeItem(at: repo.project)
        #expect(try runProcess(pushpreviewBinary, ["init", repo.root.path]).status == 0)
        try repo.write("payloads/storm.apns", #"{"aps": {"alert": {"title": "Storm", "body": "Gusts"}, "category": "STORM_WARNING"}}"#)
        try FileManager.default.removeItem(at: repo.root.appendingPathComponent("App/Assets.xcassets/AppIcon.appiconset"))
        try repo.write("pushpreview.json", #"{"xcode": "../Lighthouse.xcodeproj", "locales": ["en", "nl", "de"]}"#)
        let (validate, report) = try Self.both(repo.project)
        let icon = try #require(validate.first { $0.code == .iconPlaceholder }, "\(validate)")
        #expect(icon.severity == .warning && icon.message.hasSuffix("drawing the placeholder"))
        let untranslated = validate.filter { $0.code == .stringsUntranslated && $0.locale == "de" }
        #expect(!untranslated.isEmpty && untranslated.contains { $0.category == "STORM_WARNING" }, "\(untranslated)")
        let stormUntranslated = untranslated.filter { $0.category == "STORM_WARNING" }
        let storm = try #require(report.inputs.first { $0.payload.hasSuffix("storm.apns") })
        let german = storm.mockups.filter { $0.locale == "de" && $0.view == "expanded" }
        #expect(!german.isEmpty && german.allSatisfy { m in stormUntranslated.allSatisfy { m.warnings.contains($0.description) } })
        #expect(storm.mockups.allSatisfy { $0.warnings.contains(icon.description) })
        try Self.expectAgreement(repo.project)

        try repo.write("pushpreview.json", #"{"xcode": "../Lighthouse.xcodeproj", "appIcon": "../../elsewhere.png"}"#)
        let outside = try Self.both(repo.project).validate
        #expect(outside.contains { $0.code == .iconPlaceholder && $0.keyPath == "appIcon" && $0.file.hasSuffix("pushpreview.json") }, "\(outside)")
    }
}
