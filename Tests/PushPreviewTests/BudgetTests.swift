import ConfinedFiles
import Foundation
import PushPreview
import Testing
import ProjectImport

/// Issue 34's limits that did not bound, each as the input that got past one: the budget now
/// counts (or refuses) it, and says so with the file and, where there is one, the line.
struct BudgetTests {
    typealias Repo = RepositoryContainmentTests.Repo

    func errorLines(_ r: ProcessRun) -> [String] {
        r.stderr.split(separator: "\n").map(String.init).filter { $0.hasPrefix("pushpreview ") || $0.hasPrefix("error") }
    }

    /// Problem 11: `--max-memory` counted the worker only, while swift-frontend (which it starts)
    /// grew to gigabytes. The worker's whole tree counts now, and the message gives its size.
    @Test func swiftFrontendCountsAgainstMaxMemory() throws {
        let repo = try Repo()
        // 1.5 million literals in a file the import parses: swift-frontend takes ~270 MB on them.
        let file = repo.root.appendingPathComponent("App/NotificationCategories.swift")
        let big = "\nlet values = [" + Array(repeating: "1", count: 1_500_000).joined(separator: ",") + "]\n"
        try Data((try String(contentsOf: file, encoding: .utf8) + big).utf8).write(to: file)
        let (r, _) = try repo.run(["init", repo.root.path, "--out", repo.root.appendingPathComponent("made").path, "--max-memory", "120"])
        #expect(r.status == 1, "\(r.stderr)")
        let errors = errorLines(r)
        #expect(errors.count == 1 && errors[0].contains("used more than 120 MB of memory (--max-memory, swiftc's included: "), "\(r.stderr)")
        repo.expectTemporaryFilesGone()
    }

    /// Problem 20: a Swift string nested 100,000 interpolations deep overflowed the reading
    /// worker's stack (contained, but init wrote nothing). It is refused with its line; init
    /// writes the rest.
    @Test func aStringNested100000InterpolationsDeepIsRefusedWithItsLine() throws {
        let repo = try Repo()
        let file = repo.root.appendingPathComponent("App/NotificationCategories.swift")
        let deep = "\nlet s = " + String(repeating: "\"\\(", count: 100_000) + "1" + String(repeating: ")\"", count: 100_000) + "\n"
        let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).count
        try Data((try String(contentsOf: file, encoding: .utf8) + deep).utf8).write(to: file)
        let made = repo.root.appendingPathComponent("made")
        let (r, _) = try repo.run(["init", repo.root.path, "--out", made.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("App/NotificationCategories.swift:\(lines + 1): nested deeper than \(SourceNesting.maxDepth) levels"), "\(r.stderr)")
        #expect(FileManager.default.fileExists(atPath: made.appendingPathComponent("pushpreview.json").path))
    }

    /// From the last round: a Swift file with 1,000 nested `[` kept init past 30 s while swiftc
    /// parsed it (its parser's time doubles with each level). Our reader refuses it first.
    @Test func aThousandNestedBracketsAreRefusedBeforeSwiftc() throws {
        let repo = try Repo()
        let file = repo.root.appendingPathComponent("App/NotificationCategories.swift")
        let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).count
        try Data((try String(contentsOf: file, encoding: .utf8) + "\nlet deep = " + String(repeating: "[", count: 1000) + String(repeating: "]", count: 1000) + "\n").utf8).write(to: file)
        let (r, seconds) = try repo.run(["init", repo.root.path, "--out", repo.root.appendingPathComponent("made").path, "--timeout", "30"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("NotificationCategories.swift:\(lines + 1): square brackets nested deeper than \(SourceNesting.maxSquareBrackets) levels"), "\(r.stderr)")
        #expect(seconds < 30, "refused before swiftc's parse, not stopped by the timeout")
    }

    /// Problem 13: icon layers had no limit (10,000 made a one-payload gallery take a minute).
    @Test func anIconOfTenThousandLayersIsCappedAndSaid() throws {
        let bundle = temporaryFolder().appendingPathComponent("AppIcon.icon")
        try FileManager.default.createDirectory(at: bundle.appendingPathComponent("Assets"), withIntermediateDirectories: true)
        try Data("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\"><rect width=\"10\" height=\"10\"/></svg>".utf8).write(to: bundle.appendingPathComponent("Assets/dot.svg"))
        let layers = Array(repeating: #"{"image-name": "dot.svg", "name": "dot"}"#, count: 10_000).joined(separator: ",")
        try Data(#"{"groups": [{"layers": [\#(layers)]}]}"#.utf8).write(to: bundle.appendingPathComponent("icon.json"))
        let icon = try #require(try IconComposerIcon.read(bundle: try ConfinedFolder(trusted: bundle)))
        let rendition = icon.rendition(.light)
        #expect(rendition.groups.flatMap(\.layers).count == IconComposerIcon.maxLayers)
        #expect(rendition.problems.contains { $0.contains("more than \(IconComposerIcon.maxLayers) layers") }, "\(rendition.problems)")
    }

    /// Problem 14: the project check built a font system per template, so 1,500 templates took
    /// the project's reading past `--timeout 30`. It is built once a run, and templates no
    /// category claims are checked up to a count, the rest said.
    @Test func fifteenHundredTemplatesFitTheProjectCheck() throws {
        let project = try examplesCopy(payloads: ["plain-alert.apns"])
        for i in 0..<1500 { try Data("<div>{{title}} \(i)</div>".utf8).write(to: project.appendingPathComponent("Templates/unclaimed-\(i).html")) }
        let out = project.deletingLastPathComponent().appendingPathComponent("Out")
        let r = try runProcess(pushpreviewBinary, ["gallery", project.path, "--out", out.path, "--device", "iphone-17", "--appearance", "light", "--locale", "en", "--timeout", "30"])
        #expect(!r.stderr.contains("took longer than 30 s"), "\(r.stderr)")
        let report = try GalleryReport.read(in: ConfinedFolder(trusted: out, links: .refused))
        #expect((report.projectDiagnostics ?? []).contains { $0.code == .templateCount && $0.message.contains("the first \(256) are checked") })
    }

    /// Problem 15: Ctrl-C during `diff --base` left a worker's temporary folder: the gallery runs
    /// it started were killed outright and could not clean up. They are asked to stop first.
    @Test func ctrlCDuringDiffBaseLeavesNoTemporaryFolder() throws {
        let root = try PullRequestTests.repository()
        let tmp = root.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = pushpreviewBinary
        process.arguments = ["diff", "--base", "HEAD~1", root.appendingPathComponent("Examples").path, "--out", root.appendingPathComponent("Diff").path] + PullRequestTests.options
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = tmp.path
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        // Wait until a gallery run's worker has its folder, then Ctrl-C.
        let deadline = Date().addingTimeInterval(120)
        func workerFolders() -> [String] { ((try? FileManager.default.subpathsOfDirectory(atPath: tmp.path)) ?? []).filter { $0.contains("pushpreview-worker-") } }
        while workerFolders().isEmpty, process.isRunning, Date() < deadline { usleep(20_000) }
        try #require(!workerFolders().isEmpty, "no worker was seen")
        let start = Date()
        kill(process.processIdentifier, SIGINT)
        while process.isRunning, Date().timeIntervalSince(start) < 20 { usleep(10_000) }
        #expect(!process.isRunning && Date().timeIntervalSince(start) < 5, "diff --base ends soon after Ctrl-C")
        usleep(300_000)
        let left = (try? FileManager.default.contentsOfDirectory(atPath: tmp.path)) ?? []
        #expect(left.isEmpty, "left in TMPDIR: \(left)")
    }
}
