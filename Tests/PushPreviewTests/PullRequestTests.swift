import Foundation
import Testing

/// A pull request the way CI sees it: a git repository whose last commit changes a template and
/// adds a payload. `diff --base`, the CI script and its comment, judged on what they write.
struct PullRequestTests {
    static let options = ["--device", "iphone-17", "--appearance", "light", "--locale", "en"]

    /// A repository with the project at Examples/ in two commits: the base, then the boarding
    /// pass's colour changed and emoji.apns added.
    static func repository(_ name: String = #function) throws -> URL {
        let project = try examplesCopy(payloads: ["localized-boarding.apns", "plain-alert.apns", "subtitle.apns"], name)
        let root = project.deletingLastPathComponent()
        let git = try Self.gitRepository(root)
        let template = project.appendingPathComponent("Templates/boarding-pass.html")
        try Data(try String(contentsOf: template, encoding: .utf8).replacingOccurrences(of: "#1fb5a8", with: "#e76f51").utf8).write(to: template)
        try FileManager.default.copyItem(at: examples.appendingPathComponent("payloads/emoji.apns"), to: project.appendingPathComponent("payloads/emoji.apns"))
        try git("add", "-A")
        try git("commit", "-qm", "a template change and a new payload")
        return root
    }

    /// `root` made a git repository with all it holds committed as "base"; then git in it.
    static func gitRepository(_ root: URL) throws -> (String...) throws -> Void {
        let git = { (arguments: String...) throws in
            let r = try runProcess(URL(fileURLWithPath: "/usr/bin/git"), ["-C", root.path, "-c", "user.name=CI", "-c", "user.email=ci@localhost"] + arguments)
            #expect(r.status == 0, "git \(arguments): \(r.stderr)")
        }
        try git("init", "-q")
        try git("add", "-A")
        try git("commit", "-qm", "base")
        return git
    }

    static let expected: Set<String> = ["changed\tlocalized-boarding/iphone-17-light-en-expanded",
                                        "added\temoji/iphone-17-light-banner", "added\temoji/iphone-17-light-expanded"]

    @Test func diffBaseListsExactlyTheChangedAndTheNewMockups() throws {
        let root = try Self.repository()
        let project = root.appendingPathComponent("Examples").path
        let diff = ["diff", "--base", "HEAD~1", project, "--out", root.appendingPathComponent("Diff").path] + Self.options
        let first = try runProcess(pushpreviewBinary, diff)
        #expect(first.status == 0, "a change is not a failure unless asked: \(first.stderr)")
        #expect(Set(first.stdout.split(separator: "\n").map(String.init)) == Self.expected, "\(first.stdout)")
        #expect(first.stderr.contains("rendering in a temporary worktree"))
        let page = try String(contentsOf: root.appendingPathComponent("Diff/index.html"), encoding: .utf8)
        #expect(page.contains("HEAD~1 (") && page.contains("the working tree") && !page.contains(".pushpreview"), "the page names the sides, not cache folders")
        // The cache is never committed: git sees nothing new.
        let status = try runProcess(URL(fileURLWithPath: "/usr/bin/git"), ["-C", root.path, "status", "--porcelain"])
        #expect(!status.stdout.contains(".pushpreview"), "\(status.stdout)")
        // The worktree is gone, and git no longer lists it.
        let worktrees = try runProcess(URL(fileURLWithPath: "/usr/bin/git"), ["-C", root.path, "worktree", "list"])
        #expect(worktrees.stdout.split(separator: "\n").count == 1, "\(worktrees.stdout)")

        // Again: the base comes from the cache; --fail-on-change makes the change fail.
        let second = try runProcess(pushpreviewBinary, diff + ["--fail-on-change"])
        #expect(second.status == 1)
        #expect(second.stderr.contains("taken from") && !second.stderr.contains("worktree"), "\(second.stderr)")
        #expect(Set(second.stdout.split(separator: "\n").map(String.init)) == Self.expected)

        // The same commit on both sides: nothing changed.
        let same = try runProcess(pushpreviewBinary, ["diff", "--base", "HEAD", project, "--out", root.appendingPathComponent("Same").path, "--fail-on-change"] + Self.options)
        #expect(same.status == 0 && same.stdout.isEmpty, "\(same.stdout)\(same.stderr)")
    }

    @Test func shardsMergedGiveTheWholeDiff() throws {
        let root = try Self.repository()
        let project = root.appendingPathComponent("Examples").path
        var shards: [String] = []
        for i in 1...2 {
            let out = root.appendingPathComponent("shard-\(i)").path
            let r = try runProcess(pushpreviewBinary, ["diff", "--base", "HEAD~1", project, "--shard", "\(i)/2", "--out", out] + Self.options)
            #expect(r.status == 0, "\(r.stderr)")
            #expect(FileManager.default.fileExists(atPath: out + "/base/report.json") && FileManager.default.fileExists(atPath: out + "/new/report.json"))
            shards.append(out)
        }
        let merged = try runProcess(pushpreviewBinary, ["diff", "--merge"] + shards + ["--out", root.appendingPathComponent("Diff").path])
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(Set(merged.stdout.split(separator: "\n").map(String.init)) == Self.expected, "\(merged.stdout)")
    }

    @Test func badInputsAreUsageErrors() throws {
        let root = try Self.repository()
        let project = root.appendingPathComponent("Examples").path
        let badRef = try runProcess(pushpreviewBinary, ["diff", "--base", "no-such-branch", project])
        #expect(badRef.status == 2 && badRef.stderr.contains("no-such-branch: not a commit"), "\(badRef.stderr)")
        let outside = temporaryFolder()
        let notGit = try runProcess(pushpreviewBinary, ["diff", "--base", "HEAD", outside.path])
        #expect(notGit.status == 2 && notGit.stderr.contains("not inside a git repository"), "\(notGit.stderr)")
        let option = try runProcess(pushpreviewBinary, ["diff", root.path, root.path, "--device", "iphone-17"])
        #expect(option.status == 2 && option.stderr.contains("--device goes with --base"), "\(option.stderr)")
        let badOption = try runProcess(pushpreviewBinary, ["diff", "--base", "HEAD", project, "--appearance", "sepia"])
        #expect(badOption.status == 2, "the gallery's refusal is diff's: \(badOption.stderr)")
    }

    /// A project the base commit does not have yet: every mock-up is added, and the comment says why.
    @Test func aProjectNewInTheBranchIsAllAdded() throws {
        let root = try Self.repository()
        let moved = root.appendingPathComponent("Preview")
        try FileManager.default.copyItem(at: root.appendingPathComponent("Examples"), to: moved)
        let md = root.appendingPathComponent("comment.md")
        let r = try runProcess(pushpreviewBinary, ["diff", "--base", "HEAD", moved.path, "--out", root.appendingPathComponent("Diff").path, "--markdown", md.path] + Self.options)
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.count == 8 && lines.allSatisfy { $0.hasPrefix("added\t") }, "\(r.stdout)")
        let comment = try String(contentsOf: md, encoding: .utf8)
        #expect(comment.contains("**Failed**") && comment.contains("- base: `Preview`: `not in "), "\(comment)")
    }

    /// Ctrl-C while the base renders: the worktree, its temporary folder and the gallery run are gone.
    @Test func interruptedLeavesNoWorktree() throws {
        let root = try Self.repository()
        let process = Process()
        process.executableURL = pushpreviewBinary
        process.arguments = ["diff", "--base", "HEAD~1", root.appendingPathComponent("Examples").path, "--out", root.appendingPathComponent("Diff").path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let listed = { try runProcess(URL(fileURLWithPath: "/usr/bin/git"), ["-C", root.path, "worktree", "list", "--porcelain"]).stdout }
        let deadline = Date().addingTimeInterval(60)
        var tree: String?
        while tree == nil, Date() < deadline, process.isRunning {
            tree = try listed().split(separator: "\n").filter { $0.hasPrefix("worktree ") }.dropFirst().first.map { String($0.dropFirst(9)) }
            usleep(20_000)
        }
        let found = try #require(tree, "the base worktree never appeared")
        usleep(300_000)  // into the gallery run
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(!FileManager.default.fileExists(atPath: found), "the worktree folder is removed")
        #expect(!(try listed()).contains(found), "git no longer lists it")
        let galleries = try runProcess(URL(fileURLWithPath: "/usr/bin/pgrep"), ["-f", "gallery \(found)"])
        #expect(galleries.stdout.isEmpty, "no gallery run outlives it: \(galleries.stdout)")
    }

    /// The CI script on the same repository: the comment it writes, then posted and updated in place
    /// through a GitHub-shaped API served on 127.0.0.1 that records what it is sent.
    @Test func ciScriptWritesAndUpdatesOneComment() throws {
        let root = try Self.repository()
        let out = root.appendingPathComponent("pushpreview-diff")
        var environment = ProcessInfo.processInfo.environment
        environment["PUSHPREVIEW"] = pushpreviewBinary.path
        environment["PUSHPREVIEW_BASE"] = "HEAD~1"
        environment["PUSHPREVIEW_OUT"] = out.path
        environment["PUSHPREVIEW_OPTIONS"] = Self.options.joined(separator: " ")
        environment["PUSHPREVIEW_IMAGE_BASE_URL"] = "https://previews.example.com/pr-7"
        let script = repositoryRoot.appendingPathComponent("ci/pushpreview-ci")
        let diff = try runProcess(script, ["diff", root.appendingPathComponent("Examples").path], environment: environment)
        #expect(diff.status == 0, "\(diff.stderr)")
        #expect(Set(diff.stdout.split(separator: "\n").map(String.init)) == Self.expected)
        let comment = try String(contentsOf: out.appendingPathComponent("comment.md"), encoding: .utf8)
        #expect(comment.hasPrefix("<!-- pushpreview-ci -->\n### PushPreview: 1 changed, 2 added, 0 removed"), "\(comment.prefix(200))")
        #expect(comment.contains("#### `payloads/localized-boarding.apns` — `Templates/boarding-pass.html`\n"), "\(comment)")
        #expect(comment.contains("| expanded | changed, "))
        #expect(comment.contains("#### `payloads/emoji.apns` — `payloads/emoji.apns (new)`"))
        #expect(comment.contains("<img src=\"https://previews.example.com/pr-7/emoji/iphone-17-light-banner-compare.png\""))

        let api = try CommentAPI()
        defer { api.stop() }
        let event = root.appendingPathComponent("event.json")
        try Data(#"{"pull_request": {"number": 7, "base": {"sha": "unused"}}}"#.utf8).write(to: event)
        environment["GITHUB_TOKEN"] = "token-for-the-test"
        environment["GITHUB_REPOSITORY"] = "harbor/app"
        environment["GITHUB_EVENT_PATH"] = event.path
        environment["GITHUB_API_URL"] = api.url
        for _ in 0..<2 {
            let r = try runProcess(script, ["comment"], environment: environment)
            #expect(r.status == 0, "\(r.stderr)")
        }
        let calls = api.calls()
        #expect(calls.filter { $0.hasPrefix("POST /repos/harbor/app/issues/7/comments") }.count == 1, "one comment made: \(calls)")
        #expect(calls.contains("PATCH /repos/harbor/app/issues/comments/1 Bearer token-for-the-test"), "then updated in place: \(calls)")
        #expect(api.body(of: 1) == comment)
    }
}

extension PullRequestTests {
    /// The environment the CI script's comment step has on a pull request, against `api`.
    static func commentEnvironment(_ api: CommentAPI, in root: URL) throws -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        let event = root.appendingPathComponent("event.json")
        try Data(#"{"pull_request": {"number": 7, "base": {"sha": "unused"}, "head": {"sha": "0123456789abcdef0123"}}}"#.utf8).write(to: event)
        environment["GITHUB_TOKEN"] = "token-for-the-test"
        environment["GITHUB_REPOSITORY"] = "harbor/app"
        environment["GITHUB_EVENT_PATH"] = event.path
        environment["GITHUB_API_URL"] = api.url
        environment["GITHUB_RUN_ID"] = "42"
        environment["GITHUB_SERVER_URL"] = "https://github.com"
        return environment
    }

    /// A payload that fails in the branch: the diff is still written, and the comment names it
    /// with its error, first, and is posted.
    @Test func aFailingPayloadStillPostsAndIsNamed() throws {
        let root = try Self.repository()
        let project = root.appendingPathComponent("Examples")
        try Data(#"{"aps": {"alert": "unterminated"#.utf8).write(to: project.appendingPathComponent("payloads/broken.apns"))
        let out = root.appendingPathComponent("pushpreview-diff")
        let api = try CommentAPI()
        defer { api.stop() }
        var environment = try Self.commentEnvironment(api, in: root)
        environment["PUSHPREVIEW"] = pushpreviewBinary.path
        environment["PUSHPREVIEW_BASE"] = "HEAD~1"
        environment["PUSHPREVIEW_OUT"] = out.path
        environment["PUSHPREVIEW_OPTIONS"] = Self.options.joined(separator: " ")
        let script = repositoryRoot.appendingPathComponent("ci/pushpreview-ci")
        let diff = try runProcess(script, ["diff", project.path], environment: environment)
        #expect(diff.status == 3, "the branch's side is not whole: \(diff.stderr)")
        let comment = try String(contentsOf: out.appendingPathComponent("comment.md"), encoding: .utf8)
        #expect(comment.hasPrefix("<!-- pushpreview-ci -->\n### PushPreview: 1 failed · 1 changed, 2 added"), "\(comment.prefix(300))")
        #expect(comment.contains("**Failed**") && comment.contains("- this branch: `payloads/broken.apns`: `"), "\(comment)")
        #expect(comment.contains("#### `payloads/localized-boarding.apns`"), "the rest is still compared")
        #expect(comment.contains("No images here") && comment.contains("[this run](https://github.com/harbor/app/actions/runs/42)"))
        #expect(comment.hasSuffix("<sub>PushPreview: [this run](https://github.com/harbor/app/actions/runs/42), commit `0123456789ab`</sub>\n"))
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("index.html").path))
        let posted = try runProcess(script, ["comment"], environment: environment)
        #expect(posted.status == 0, "\(posted.stderr)")
        #expect(api.body(of: 1) == comment)
    }

    /// Shards as the recipes run them: one whose render crashed (its new/ gallery never written)
    /// and one whose job uploaded nothing are named in the comment, and the rest still compared.
    @Test func aCrashedOrMissingShardIsNamedAndTheRestCompared() throws {
        let root = try Self.repository()
        var environment = ProcessInfo.processInfo.environment
        environment["PUSHPREVIEW"] = pushpreviewBinary.path
        environment["PUSHPREVIEW_BASE"] = "HEAD~1"
        environment["PUSHPREVIEW_OPTIONS"] = Self.options.joined(separator: " ")
        let script = repositoryRoot.appendingPathComponent("ci/pushpreview-ci")
        func run(_ arguments: [String], shards: String? = nil) throws -> ProcessRun {
            let process = Process()
            process.executableURL = script
            process.arguments = arguments
            process.currentDirectoryURL = root
            var e = environment
            e["PUSHPREVIEW_SHARDS"] = shards
            process.environment = e
            let err = Pipe()
            process.standardOutput = FileHandle.nullDevice
            process.standardError = err
            try process.run()
            let said = err.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return ProcessRun(status: process.terminationStatus, stdout: "", stderr: String(decoding: said, as: UTF8.self))
        }
        // A payload's slice is its path's hash: of 5, emoji is in 1, plain-alert in 3, subtitle in
        // 4 and localized-boarding in 5, on both sides.
        for i in 1...5 { #expect(try run(["shard", "\(i)/5", "Examples"]).status == 0) }
        // Shard 3's render died before its new side was written (the script kept why); shard 4's
        // job uploaded nothing.
        try FileManager.default.removeItem(at: root.appendingPathComponent("pushpreview-shard-3/new"))
        try Data("pushpreview diff exited with status 139".utf8).write(to: root.appendingPathComponent("pushpreview-shard-3/failed"))
        let merged = try run(["merge", "pushpreview-shard-1", "pushpreview-shard-2", "pushpreview-shard-3", "pushpreview-shard-5"], shards: "5")
        #expect(merged.status == 3, "\(merged.stderr)")
        let comment = try String(contentsOf: root.appendingPathComponent("pushpreview-diff/comment.md"), encoding: .utf8)
        #expect(comment.contains("### PushPreview: 3 failed · 1 changed, 2 added, 0 removed, 1 unchanged"), "\(comment)")
        #expect(comment.contains("- the run: `shard 4/5`: `uploaded nothing"), "\(comment)")
        #expect(comment.contains("- the run: `pushpreview-shard-3`: `pushpreview diff exited with status 139`"), "\(comment)")
        #expect(comment.contains("- this branch: `pushpreview-shard-3`: `this shard has no new gallery"), "\(comment)")
        #expect(comment.contains("#### `payloads/localized-boarding.apns`") && comment.contains("#### `payloads/emoji.apns`"), "the other shards are still compared")
    }

    /// The default branch's job renders the base alone, into the cache the pull request's diff
    /// then takes it from; the cache's key changes with the options and the shard.
    @Test func aBaseJobPreparesThePullRequestsBase() throws {
        let root = try Self.repository()
        var environment = ProcessInfo.processInfo.environment
        environment["PUSHPREVIEW"] = pushpreviewBinary.path
        environment["PUSHPREVIEW_BASE"] = "HEAD~1"
        environment["PUSHPREVIEW_OUT"] = root.appendingPathComponent("pushpreview-diff").path
        environment["PUSHPREVIEW_OPTIONS"] = Self.options.joined(separator: " ")
        let script = repositoryRoot.appendingPathComponent("ci/pushpreview-ci")
        let project = root.appendingPathComponent("Examples").path
        let base = try runProcess(script, ["base", project], environment: environment)
        #expect(base.status == 0 && base.stderr.contains("rendering in a temporary worktree"), "\(base.stderr)")
        #expect(!FileManager.default.fileExists(atPath: project + "/.pushpreview/new"), "only the base is rendered")
        let diff = try runProcess(script, ["diff", project], environment: environment)
        #expect(diff.status == 0 && diff.stderr.contains("taken from") && !diff.stderr.contains("worktree"), "\(diff.stderr)")
        let key = try runProcess(script, ["cache-key", "abc123"], environment: environment).stdout
        let again = try runProcess(script, ["cache-key", "abc123"], environment: environment).stdout
        #expect(key.hasPrefix("pushpreview-base-abc123-") && key == again)
        environment["PUSHPREVIEW_OPTIONS"] = "--device ipad-10"
        #expect(try runProcess(script, ["cache-key", "abc123"], environment: environment).stdout != key, "the options are in the key")
    }

    /// publish: the diff folder on the Pages branch as one commit, this pull request's earlier run
    /// replaced and the others' kept.
    @Test func publishKeepsOneRunAPullRequest() throws {
        let root = temporaryFolder()
        func git(_ arguments: [String], in folder: URL) throws -> ProcessRun {
            try runProcess(URL(fileURLWithPath: "/usr/bin/git"), ["-C", folder.path, "-c", "user.name=CI", "-c", "user.email=ci@localhost"] + arguments)
        }
        let origin = root.appendingPathComponent("origin.git"), work = root.appendingPathComponent("work")
        _ = try git(["init", "-q", "--bare", origin.path], in: root)
        _ = try git(["clone", "-q", origin.path, work.path], in: root)
        _ = try git(["commit", "-q", "--allow-empty", "-m", "app"], in: work)
        let diff = work.appendingPathComponent("pushpreview-diff")
        try FileManager.default.createDirectory(at: diff.appendingPathComponent("x"), withIntermediateDirectories: true)
        try Data("picture".utf8).write(to: diff.appendingPathComponent("x/a-compare.png"))
        try Data("comment".utf8).write(to: diff.appendingPathComponent("comment.md"))
        let script = repositoryRoot.appendingPathComponent("ci/pushpreview-ci")
        for (pr, run) in [("5", "11"), ("6", "12"), ("5", "13")] {
            let process = Process()
            process.executableURL = script
            process.arguments = ["publish", diff.path]
            process.currentDirectoryURL = work
            var environment = ProcessInfo.processInfo.environment
            environment["PUSHPREVIEW_PR"] = pr
            environment["GITHUB_RUN_ID"] = run
            process.environment = environment
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
        }
        let files = try git(["ls-tree", "-r", "--name-only", "gh-pages"], in: origin).stdout.split(separator: "\n").map(String.init)
        #expect(files == [".nojekyll", "pushpreview/pr-5/13/x/a-compare.png", "pushpreview/pr-6/12/x/a-compare.png"], "\(files)")
        #expect(try git(["rev-list", "--count", "gh-pages"], in: origin).stdout == "1\n", "no history piles up")
    }

    /// The API refuses the new results (422, as GitHub does a body that is too long): the script
    /// says what the API said and replaces the old comment with one saying so; when the update is
    /// refused too, the old comment is deleted and the note posted. No stale result stands.
    @Test func aRefusedUpdateReplacesTheOldComment() throws {
        let root = temporaryFolder()
        let script = repositoryRoot.appendingPathComponent("ci/pushpreview-ci")
        let old = root.appendingPathComponent("old.md"), new = root.appendingPathComponent("new.md")
        try Data("### PushPreview: 0 changed, 0 added, 0 removed, 12 unchanged\n\nNo mock-up changed.\n".utf8).write(to: old)
        try Data(("### PushPreview: 600 changed\n" + String(repeating: "| row |\n", count: 600)).utf8).write(to: new)
        for mode in [["--refuse-over", "3000"], ["--refuse-over", "3000", "--refuse-updates"]] {
            let api = try CommentAPI(mode)
            defer { api.stop() }
            let environment = try Self.commentEnvironment(api, in: root)
            #expect(try runProcess(script, ["comment", old.path], environment: environment).status == 0)
            let stale = try #require(api.body(of: 1))
            let refused = try runProcess(script, ["comment", new.path], environment: environment)
            #expect(refused.status == 1, "a refused comment fails the step")
            #expect(refused.stderr.contains("422 Validation Failed: body is too long (maximum is 3000 characters)"), "the API's message: \(refused.stderr)")
            let calls = api.calls()
            let standing = [1, 2].compactMap { api.body(of: $0) }
            #expect(standing.count == 1 && standing[0] != stale, "\(mode): the old comment is replaced, not left: \(calls)")
            #expect(standing.first?.contains("### PushPreview: this comment could not be updated") == true)
            #expect(standing.first?.contains("body is too long") == true && standing.first?.contains("Nothing from an earlier push stands here") == true)
            if mode.contains("--refuse-updates") {
                #expect(calls.contains { $0.hasPrefix("DELETE /repos/harbor/app/issues/comments/1") } && api.body(of: 2) != nil, "\(calls)")
            }
        }
        // No results at all (the render step failed): the old comment says so too.
        let api = try CommentAPI()
        defer { api.stop() }
        let environment = try Self.commentEnvironment(api, in: root)
        #expect(try runProcess(script, ["comment", old.path], environment: environment).status == 0)
        let missing = try runProcess(script, ["comment", root.appendingPathComponent("none.md").path], environment: environment)
        #expect(missing.status == 1 && api.body(of: 1)?.contains("the comparison did not finish") == true, "\(missing.stderr)")
    }

    /// From a workflow_run job the pull request's number comes from a fork's artefact: the script
    /// comments only when that pull request's head is the commit the run was for.
    @Test func aForkRunCommentsOnlyOnItsOwnPullRequest() throws {
        let root = temporaryFolder()
        let script = repositoryRoot.appendingPathComponent("ci/pushpreview-ci")
        let body = root.appendingPathComponent("comment.md")
        try Data("### PushPreview: 1 changed\n".utf8).write(to: body)
        let api = try CommentAPI()
        defer { api.stop() }
        var environment = try Self.commentEnvironment(api, in: root)
        environment["GITHUB_EVENT_PATH"] = nil
        environment["PUSHPREVIEW_PR"] = "7"
        try Data("feedfacefeedfacefeedfacefeedfacefeedface".utf8).write(to: api.folder.appendingPathComponent("head"))
        environment["PUSHPREVIEW_HEAD_SHA"] = "0000000000000000000000000000000000000000"
        let wrong = try runProcess(script, ["comment", body.path], environment: environment)
        #expect(wrong.status == 1 && wrong.stderr.contains("not the run's") && api.body(of: 1) == nil, "\(wrong.stderr)")
        environment["PUSHPREVIEW_HEAD_SHA"] = "feedfacefeedfacefeedfacefeedfacefeedface"
        let right = try runProcess(script, ["comment", body.path], environment: environment)
        #expect(right.status == 0 && api.body(of: 1) != nil, "\(right.stderr)")
    }
}

/// Tests/Support/comment-api.py on a free port of 127.0.0.1: the comments endpoints of a
/// GitHub-shaped API, keeping comments in memory and listing every call it was sent.
final class CommentAPI {
    let process = Process()
    let url: String
    let folder = temporaryFolder()

    /// `options`: `--refuse-over N`, `--refuse-updates` (GitHub's 422 for those).
    init(_ options: [String] = []) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [repositoryRoot.appendingPathComponent("Tests/Support/comment-api.py").path, folder.path] + options
        try process.run()
        let portFile = folder.appendingPathComponent("port")
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: portFile.path), Date() < deadline { usleep(20_000) }
        url = "http://127.0.0.1:" + (try String(contentsOf: portFile, encoding: .utf8))
    }

    func calls() -> [String] {
        ((try? String(contentsOf: folder.appendingPathComponent("calls"), encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    func body(of id: Int) -> String? { try? String(contentsOf: folder.appendingPathComponent("comment-\(id)"), encoding: .utf8) }

    /// SIGKILL: a test runner's thread may hand its children SIGTERM blocked.
    func stop() { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
}
