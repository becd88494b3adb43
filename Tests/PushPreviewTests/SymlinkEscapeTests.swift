import ConfinedFiles
import Foundation
import PushPreview
import Testing
import Typography
import ProjectImport

/// Issue 34's escapes, each as the pull request that tried it: a committed symlink where
/// pushpreview writes or reads, judged by evidence — the folder outside is untouched, the file
/// outside never opened (`Canary`), and the refusal is said with the link's name.
struct SymlinkEscapeTests {
    static func git(_ root: URL, _ arguments: String...) throws {
        let r = try runProcess(URL(fileURLWithPath: "/usr/bin/git"), ["-C", root.path, "-c", "user.name=CI", "-c", "user.email=ci@localhost"] + arguments)
        #expect(r.status == 0, "git \(arguments): \(r.stderr)")
    }

    static func link(_ at: URL, to target: String) throws {
        try? FileManager.default.removeItem(at: at)
        try FileManager.default.createDirectory(at: at.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: at.path, withDestinationPath: target)
    }

    /// Problem 1: a committed `pp/.pushpreview` (or `.pushpreview/base`) that is a link to a folder
    /// elsewhere: `diff --base` deleted a same-named folder there and wrote both galleries and a
    /// `.gitignore` through it.
    @Test func aCommittedPushpreviewLinkIsNotWrittenThrough() throws {
        for committed in [".pushpreview", ".pushpreview/base"] {
            let project = try examplesCopy(payloads: ["plain-alert.apns"], "link\(committed.count)")
            let root = project.deletingLastPathComponent()
            let outside = root.deletingLastPathComponent().appendingPathComponent("victim-\(committed.count)")
            try FileManager.default.createDirectory(at: outside.appendingPathComponent("base"), withIntermediateDirectories: true)
            try Data("keep".utf8).write(to: outside.appendingPathComponent("precious.txt"))
            try Self.link(project.appendingPathComponent(committed), to: outside.path)
            try Self.git(root, "init", "-q")
            try Self.git(root, "add", "-A")
            try Self.git(root, "commit", "-qm", "base")
            let before = tree(outside)
            let r = try runProcess(pushpreviewBinary, ["diff", "--base", "HEAD", project.path, "--out", root.appendingPathComponent("Diff").path] + PullRequestTests.options)
            #expect(r.status != 0, "\(committed): \(r.stderr)")
            #expect(r.stderr.contains("is a symbolic link"), "\(committed): \(r.stderr)")
            #expect(tree(outside) == before, "\(committed): the folder outside changed")
            #expect(FileManager.default.fileExists(atPath: outside.appendingPathComponent("base").path))
        }
    }

    /// Problem 2: a committed `received` link: `serve` wrote every push through it (and
    /// `OUT/received` likewise). The push is refused with the link named; nothing lands outside.
    @Test func aCommittedReceivedLinkIsNotWrittenThrough() throws {
        for inOutput in [false, true] {
            var victim: URL!
            let served = try ServeTests.Served(payloads: ["plain-alert.apns"], name: "received\(inOutput)") { project, out in
                victim = project.deletingLastPathComponent().appendingPathComponent("victim")
                try FileManager.default.createDirectory(at: victim, withIntermediateDirectories: true)
                try Self.link((inOutput ? out : project).appendingPathComponent("received"), to: victim.path)
            }
            let answer = try served.push(["apns-topic": ServeTests.bundleID, "apns-push-type": "alert"], body: #"{"aps":{"alert":"Through the link?"}}"#)
            // Refused when kept (the project's received/), or when drawn (the output's): said on the page.
            let said = served.waitFor(30) { served.page.contains("received is a symbolic link") }
            let log = served.stop().log
            #expect(try FileManager.default.contentsOfDirectory(atPath: victim.path).isEmpty, "inOutput \(inOutput): written through the link: \(log)")
            #expect(inOutput ? said : answer.status == 500 && log.contains("received is a symbolic link"), "inOutput \(inOutput): \(answer) \(log)")
        }
    }

    /// Problem 3: a collected `.apns`, fixture JSON or test source that is a link to a file
    /// outside: `init` read it and copied it into `payloads/` (`/etc/passwd` was opened).
    @Test func collectedPayloadLinksOutAreNotRead() throws {
        let repo = try XcodeRunTests.Repo()
        let outside = repo.root.deletingLastPathComponent().appendingPathComponent("outside")
        let canaries = [("push.apns", Canary(outside.appendingPathComponent("push.apns"), contents: #"{"aps": {"alert": "secret"}}"#)),
                        ("Tests/fixtures/push.json", Canary(outside.appendingPathComponent("push.json"), contents: #"{"aps": {"alert": "secret"}}"#))]
        for (path, canary) in canaries { try Self.link(repo.root.appendingPathComponent(path), to: canary.url.path) }
        let plan = try ProjectInit(path: repo.root)
        for (path, canary) in canaries { #expect(canary.opened() == 0, "\(path) was opened") }
        #expect(!plan.files.contains { $0.text.contains("secret") })
        #expect(plan.problems.contains { $0.contains("push.apns") && $0.contains("symbolic link") }, "\(plan.problems)")
    }

    /// Problem 4: a Tuist `Project.swift` or helper that is a link outside: read and used.
    @Test func aTuistManifestOrHelperLinkedOutIsNotRead() throws {
        let root = temporaryFolder()
        let outside = root.appendingPathComponent("outside"), repo = root.appendingPathComponent("repo")
        try FileManager.default.createDirectory(at: repo.appendingPathComponent(".git"), withIntermediateDirectories: true)
        let manifest = Canary(outside.appendingPathComponent("Project.swift"), contents: "import ProjectDescription\nlet project = Project(name: \"Outside\", targets: [])\n")
        let helper = Canary(outside.appendingPathComponent("Helper.swift"), contents: "let secret = 1\n")
        try Self.link(repo.appendingPathComponent("App/Project.swift"), to: manifest.url.path)
        #expect(throws: XcodeProject.ReadError.self) { _ = try XcodeProject(tuistManifest: repo.appendingPathComponent("App/Project.swift")) }
        try FileManager.default.removeItem(at: repo.appendingPathComponent("App/Project.swift"))
        try Data("import ProjectDescription\nlet project = Project(name: \"App\", targets: [])\n".utf8).write(to: repo.appendingPathComponent("App/Project.swift"))
        try Self.link(repo.appendingPathComponent("App/Tuist/ProjectDescriptionHelpers/Helper.swift"), to: helper.url.path)
        let project = try XcodeProject(tuistManifest: repo.appendingPathComponent("App/Project.swift"))
        #expect(manifest.opened() == 0 && helper.opened() == 0)
        #expect(project.problems.contains { $0.contains("Helper.swift") && $0.contains("cannot be read") }, "\(project.problems)")
    }

    /// Problem 5: `NAME.icon/icon.json` a link outside: read by every gallery.
    @Test func anIconJSONLinkedOutIsNotRead() throws {
        let root = temporaryFolder()
        let canary = Canary(root.appendingPathComponent("outside/icon.json"), contents: #"{"groups": []}"#)
        let bundle = root.appendingPathComponent("repo/AppIcon.icon")
        try Self.link(bundle.appendingPathComponent("icon.json"), to: canary.url.path)
        #expect(throws: XcodeProject.ReadError.self) { _ = try IconComposerIcon.read(bundle: try ConfinedFolder(trusted: bundle)) }
        #expect(canary.opened() == 0)
    }

    /// Problem 18: one collected payload with a 250-character name failed `init` whole ("File
    /// name too long"): the name is shortened, with a digest so it stays unique.
    @Test func aPayloadWithALongNameIsShortened() throws {
        let repo = try XcodeRunTests.Repo()
        let long = String(repeating: "notification-", count: 19) + "x"
        try Data(#"{"aps": {"alert": "long"}}"#.utf8).write(to: repo.root.appendingPathComponent(long + ".apns"))
        let plan = try ProjectInit(path: repo.root)
        let written = try #require(plan.files.first { $0.text.contains("long") })
        #expect(written.path.hasPrefix("payloads/notification-") && written.path.utf8.count < 130, "\(written.path)")
        let out = repo.root.appendingPathComponent("init-out")
        _ = try InitWriter.write(plan.files, into: out, force: false)
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent(written.path).path))
    }

    /// Problem 19: an unreadable base project made `diff --base` exit 3 with no diff; README says
    /// it is a warning, and the diff is still written, every mock-up added.
    @Test func anUnreadableBaseStillWritesTheDiff() throws {
        let project = try examplesCopy(payloads: ["plain-alert.apns"])
        let root = project.deletingLastPathComponent()
        try Data("{ not json".utf8).write(to: project.appendingPathComponent("pushpreview.json"))
        try Self.git(root, "init", "-q")
        try Self.git(root, "add", "-A")
        try Self.git(root, "commit", "-qm", "broken base")
        try FileManager.default.copyItem(at: examples.appendingPathComponent("pushpreview.json"), to: project.appendingPathComponent("pushpreview.json.new"))
        try FileManager.default.removeItem(at: project.appendingPathComponent("pushpreview.json"))
        try FileManager.default.moveItem(at: project.appendingPathComponent("pushpreview.json.new"), to: project.appendingPathComponent("pushpreview.json"))
        let diff = root.appendingPathComponent("Diff")
        let r = try runProcess(pushpreviewBinary, ["diff", "--base", "HEAD", project.path, "--out", diff.path] + PullRequestTests.options)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("warning: base:"), "\(r.stderr)")
        #expect(r.stdout.contains("added\tplain-alert/iphone-17-light-expanded"), "\(r.stdout)")
        #expect(FileManager.default.fileExists(atPath: diff.appendingPathComponent("index.html").path))
    }

    /// A cached base under `.pushpreview/base/` was trusted as found: a pull request can commit a
    /// forged one. A committed cache is never taken, and one whose files changed is rendered again.
    @Test func aForgedOrCommittedBaseCacheIsRenderedAgain() throws {
        let root = try PullRequestTests.repository()
        let project = root.appendingPathComponent("Examples")
        let diff = ["diff", "--base", "HEAD~1", project.path, "--out", root.appendingPathComponent("Diff").path] + PullRequestTests.options
        #expect(try runProcess(pushpreviewBinary, diff).status == 0)
        let base = project.appendingPathComponent(".pushpreview/base")
        let cache = try #require(try FileManager.default.contentsOfDirectory(atPath: base.path).first)
        // A picture swapped in the cache: the seal no longer matches.
        let picture = base.appendingPathComponent("\(cache)/localized-boarding/iphone-17-light-en-expanded.png")
        try FileManager.default.copyItem(at: picture, to: picture.appendingPathExtension("orig"))
        try Data(try Data(contentsOf: base.appendingPathComponent("\(cache)/plain-alert/iphone-17-light-banner.png"))).write(to: picture)
        let forged = try runProcess(pushpreviewBinary, diff)
        #expect(forged.stderr.contains("rendering in a temporary worktree") && !forged.stderr.contains("taken from"), "\(forged.stderr)")
        #expect(Set(forged.stdout.split(separator: "\n").map(String.init)) == PullRequestTests.expected)
        // A cache the commit carries (force-added past its .gitignore) is never trusted.
        try Self.git(root, "add", "-f", "Examples/.pushpreview/base")
        try Self.git(root, "commit", "-qm", "a cache in the commit")
        let committed = try runProcess(pushpreviewBinary, diff)
        #expect(committed.stderr.contains("never taken from a commit"), "\(committed.stderr)")
    }
}
