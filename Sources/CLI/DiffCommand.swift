import Checked
import ConfinedFiles
import Foundation
import PushPreview

enum DiffCommand {
    /// The gallery options diff --base passes on to both sides: all but those about one gallery's
    /// own output. The `howOnly` ones decide how mock-ups are made, not what they look like, so they
    /// leave the base cache's name alone.
    static let passed = GalleryCommand.spec.options.filter { !["out", "shard", "merge", "incremental", "timings", "stats"].contains($0.name) }
    static let howOnly = ["jobs", "timeout", "max-memory"]

    static let spec = CommandSpec(
        name: "diff", synopsis: ["diff BASE NEW [options]", "diff --base REF [PROJECT] [options]", "diff --merge DIR... [options]"],
        summary: "compare two output folders, or a project at a git commit with its working tree: diff images, page, markdown",
        about: """
        Compares two output folders mock-up by mock-up (PAYLOAD/STEM.png): added, removed, changed,
        unchanged. Writes before / after / difference images, index.html and diff.json into --out.
        With --base, renders PROJECT (default Examples) as it is at the git commit REF (in a temporary
        worktree, cached by commit under PROJECT/.pushpreview/base/) and as it is in the working tree
        (into PROJECT/.pushpreview/new/), then compares the two.
        """,
        positionals: [.init(name: "BASE", completes: .folder), .init(name: "NEW", completes: .folder)],
        options: [
            .value("out", "DIR", "where the diff goes (default Diff)", completes: .folder),
            .value("threshold", "T", "0–1: how far apart two colours must be to count, by YIQ distance as pixelmatch (default 0.1)"),
            .value("markdown", "FILE", "also write a pull-request comment: failures first, counts, then each payload's changed views with a picture, within --comment-budget", completes: .file),
            .value("comment-budget", "N", "the most characters the comment may have, 1000 to 1000000 (default 60000; GitHub refuses over 65536): rows that do not fit are counted and the full diff linked"),
            .value("image-base-url", "URL", "where the --out folder will be published, for the comment's images and its link to the full diff (without it the comment has no images)"),
            .value("artifact-url", "URL", "where the --out folder can be downloaded (a CI run's artefacts), linked by the comment when there is no --image-base-url"),
            .value("failure", "TEXT", "a failure to name first in the comment and the page, as SUBJECT: MESSAGE (a CI shard that did not finish); may be given more than once"),
            .flag("json", "print diff.json's entries on stdout"),
            .value("base", "REF", "compare PROJECT as it is at the git commit REF with its working tree"),
            .flag("fail-on-change", "with --base or --merge: exit 1 when a mock-up changed (else 0)"),
            .value("shard", "I/N", "with --base: render only the I-th of N slices of both sides, into --out's base/ and new/ (no diff yet: --merge makes it)"),
            .flag("merge", "join the shard folders given as arguments (their base/ and new/), then compare"),
            .flag("base-only", "with --base: render only REF's side into PROJECT/.pushpreview/base/ and compare nothing (a default-branch CI job that prepares the base of later pull requests)"),
        ] + passed.map { option in
            var option = option
            option.help = "with --base, for both sides, as for gallery: " + option.help
            return option
        },
        exits: [.init(0, "nothing changed"), .init(1, "something changed (BASE NEW, or --base/--merge with --fail-on-change)"),
                .init(2, "usage or unreadable folders (a ref that is not a commit, a folder outside git)"),
                .init(3, "the working tree's side could not be rendered whole (the diff is still written)")])

    static func run(_ argv: [String]) -> Int32 {
        let a: Arguments
        var threshold = 0.1
        var shard: (index: Int, count: Int)?
        do {
            a = try Arguments(argv, Self.spec)
            if let b = a.value("comment-budget") {
                guard let v = Int(b), (1000...1_000_000).contains(v) else { throw Arguments.UsageError(description: "--comment-budget takes a number of characters from 1000 to 1000000") }
            }
            if let t = a.value("threshold") {
                guard let v = Double(t), (0...1).contains(v) else { throw Arguments.UsageError(description: "--threshold takes a number from 0 to 1") }
                threshold = v
            }
            shard = try a.shard()
            let merging = a.flags.contains("merge"), revision = a.value("base") != nil
            if merging {
                guard !a.positionals.isEmpty else { throw Arguments.UsageError(description: "--merge needs the shard folders") }
                guard shard == nil else { throw Arguments.UsageError(description: "--merge joins shards; give --shard to the runs that make them") }
                guard !a.flags.contains("base-only") else { throw Arguments.UsageError(description: "--base-only goes with --base") }
            } else if revision {
                guard a.positionals.count <= 1 else { throw Arguments.UsageError(description: "with --base, give at most one PROJECT folder") }
            } else {
                guard a.positionals.count == 2 else { throw Arguments.UsageError(description: "give two output folders: BASE NEW (or --base REF [PROJECT])") }
                let given = (passed.map(\.name) + ["shard", "fail-on-change", "base-only"]).filter { a.value($0) != nil || a.flags.contains($0) }
                if let first = given.first { throw Arguments.UsageError(description: "--\(first) goes with --base or --merge") }
            }
            for folder in merging || !revision ? a.positionals : [] {
                guard TrustedFiles.isFolder(URL(fileURLWithPath: folder)) else { throw Arguments.UsageError(description: "\(folder): not a folder") }
            }
        } catch { return usageError(Self.spec, error) }
        let out: URL
        do { out = try TrustedFiles.outputFolder(a.value("out") ?? "Diff") } catch { return usageError(Self.spec, Arguments.UsageError(description: "--out \(error.description)")) }
        if a.flags.contains("merge") { return merge(a, out: out, threshold: threshold) }
        if let ref = a.value("base") { return revision(ref, a, out: out, threshold: threshold, shard: shard) }
        return compare(base: URL(fileURLWithPath: a.positionals[0]), new: URL(fileURLWithPath: a.positionals[1]), a, out: out, threshold: threshold, failures: given(a))
            .map { $0.anyChange ? 1 : 0 } ?? 2
    }

    /// `--base REF [PROJECT]`: both sides rendered, then compared (or, with --shard, left in --out).
    static func revision(_ ref: String, _ a: Arguments, out: URL, threshold: Double, shard: (index: Int, count: Int)?) -> Int32 {
        guard let templates = repositoryTemplatesOrExplain() else { return 3 }
        let project = URL(fileURLWithPath: a.positionals.first ?? "Examples").standardizedFileURL
        func given(_ options: [CommandSpec.Option]) -> [String] {
            options.flatMap { o in o.kind == .flag ? (a.flags.contains(o.name) ? ["--\(o.name)"] : []) : (a.options[o.name] ?? []).map { "--\(o.name)=\($0)" } }
        }
        var comparison = RevisionComparison(project: project, executable: ShareFolder.executable, templates: templates,
                                            renderArguments: given(passed.filter { !howOnly.contains($0.name) }))
        comparison.runArguments = given(passed.filter { howOnly.contains($0.name) })
        comparison.shard = shard
        comparison.say = { printError("pushpreview diff: \($0)") }
        if a.flags.contains("base-only") {
            let base: RevisionComparison.Side
            do { base = try attempt { try comparison.renderBase(ref: ref) } } catch { return error.status }
            for failure in base.failures { printError("warning: \(failure.line)") }
            printError("base \(ref) → \(base.folder.path)")
            return base.report == nil ? 3 : 0
        }
        let sides: (base: RevisionComparison.Side, new: RevisionComparison.Side)
        do {
            sides = try attempt {
                let sides = try comparison.render(ref: ref, newFolder: shard == nil ? project.appendingPathComponent(".pushpreview/new") : out.appendingPathComponent("new"))
                if shard != nil {
                    // The base side, copied beneath --out with no link followed on either side.
                    let target = try ConfinedFolder(trusted: out, links: .refused)
                    try? target.remove("base")
                    let source = try ConfinedFolder(trusted: sides.base.folder, links: .refused)
                    for file in source.files(hidden: true).files { try target.write(try source.read(file), to: "base/" + file) }
                    _ = try target.folder("base", links: .refused, create: true)
                }
                return sides
            }
        } catch { return error.status }
        if shard != nil {
            printError("shard \(shard!.index)/\(shard!.count) → \(out.path)/base and \(out.path)/new; join the shards with: pushpreview diff --merge DIR...")
            return sides.new.failures.isEmpty ? 0 : 3
        }
        return finish(base: sides.base, new: sides.new, a, out: out, threshold: threshold)
    }

    /// The status to exit with when rendering a side failed: 2 for a usage error (a ref that is
    /// not a commit), else 3.
    struct Exit: Error { var status: Int32 }

    /// `body`'s value; else its error printed, and thrown as the status to exit with.
    static func attempt<T>(_ body: () throws -> T) throws(Exit) -> T {
        do { return try body() } catch let failure as RevisionComparison.Failure {
            printError("pushpreview diff: \(failure)")
            throw Exit(status: failure.usage ? 2 : 3)
        } catch {
            printError("pushpreview diff: \(error)")
            throw Exit(status: 3)
        }
    }

    /// `--merge DIR...`: each shard folder's base/ and new/ joined, then compared. A shard that
    /// lacks a side's report (its run crashed or could not render it) is left out of both sides,
    /// so its payloads are not counted as added or removed, and named as a failure: the other
    /// shards are still compared.
    static func merge(_ a: Arguments, out: URL, threshold: Double) -> Int32 {
        let work: URL
        do { work = try ChildProcesses.temporaryFolder("pushpreview-merge") } catch {
            printError("pushpreview diff --merge: \(error)")
            return 3
        }
        defer { ChildProcesses.remove(folder: work) }
        let shards = a.positionals.map { URL(fileURLWithPath: $0) }
        func has(_ shard: URL, _ side: String) -> Bool { TrustedFiles.exists(shard.appendingPathComponent(side + "/report.json")) }
        // A base with no project at the commit is an empty folder in every shard.
        let baseAnywhere = shards.contains { has($0, "base") }
        var usable: [URL] = [], failures: [ComparisonFailure] = []
        for (given, shard) in zip(a.positionals, shards) {
            let lacking = [("new", ComparisonFailure.Side.new), ("base", .base)].first { side, _ in !has(shard, side) && (side == "new" || baseAnywhere) }
            if let (side, who) = lacking {
                failures.append(ComparisonFailure(side: who, subject: given, message: "this shard has no \(side) gallery (its run stopped before writing one; its job's log says why): its payloads are left out"))
            } else { usable.append(shard) }
        }
        var sides: [RevisionComparison.Side] = []
        for (side, name) in [(ComparisonFailure.Side.base, "base"), (.new, "new")] {
            let folder = work.appendingPathComponent(name)
            let whole = usable.filter { has($0, name) }.map { $0.appendingPathComponent(name) }
            if whole.isEmpty {
                try? TrustedFiles.makeFolder(folder)
                let failure = ComparisonFailure(side: side, subject: "every shard", message: "no usable shard has a \(name) gallery")
                sides.append(RevisionComparison.Side(folder: folder, report: nil, failures: [failure], label: name))
                continue
            }
            do {
                let report = try GalleryMerge.merge(whole, into: folder)
                sides.append(RevisionComparison.Side(folder: folder, report: report, failures: ComparisonFailure.of(report, side: side),
                                                     label: "\(name), joined from \(whole.count) of \(shards.count) shards"))
            } catch {
                printError("pushpreview diff --merge: \(error)")
                return 2
            }
        }
        sides[1].failures = failures + sides[1].failures
        return finish(base: sides[0], new: sides[1], a, out: out, threshold: threshold)
    }

    /// The comparison of two rendered sides, with what kept either from being whole.
    static func finish(base: RevisionComparison.Side, new: RevisionComparison.Side, _ a: Arguments, out: URL, threshold: Double) -> Int32 {
        let failures = given(a) + base.failures + new.failures
        for failure in failures { printError("warning: \(failure.line)") }
        guard let summary = compare(base: base.folder, new: new.folder, a, out: out, threshold: threshold, failures: failures, labels: (base.label, new.label)) else { return 3 }
        if !new.failures.isEmpty || failures.contains(where: { $0.side == .run }) { return 3 }
        return summary.anyChange && a.flags.contains("fail-on-change") ? 1 : 0
    }

    /// `--failure SUBJECT: MESSAGE`, each given.
    static func given(_ a: Arguments) -> [ComparisonFailure] {
        (a.options["failure"] ?? []).map { text in
            guard let colon = text.range(of: ": ") else { return ComparisonFailure(side: .run, subject: "the run", message: text) }
            return ComparisonFailure(side: .run, subject: String(text[..<colon.lowerBound]), message: String(text[colon.upperBound...]))
        }
    }

    /// Writes the diff of two output folders (and the comment); nil when it could not.
    static func compare(base: URL, new: URL, _ a: Arguments, out: URL, threshold: Double, failures: [ComparisonFailure] = [],
                        labels: (base: String, new: String)? = nil) -> OutputDiff.Summary? {
        var diff = OutputDiff(base: base, new: new)
        diff.threshold = threshold
        diff.labels = labels
        do {
            let result = try diff.run(output: out, failures: failures)
            let (entries, summary) = (result.entries, result.summary)
            if let markdown = a.value("markdown") {
                var comment = PullRequestComment(summary: summary, groups: result.groups, failures: failures, folderName: out.lastPathComponent)
                comment.imageBaseURL = a.value("image-base-url")
                comment.artifactURL = a.value("artifact-url")
                comment.budget = a.value("comment-budget").flatMap(Int.init) ?? PullRequestComment.defaultBudget
                comment.changedInputs = result.changedInputs
                comment.described = result.described
                let text = comment.markdown()
                _ = try TrustedFiles.writeOutput(Array(text.utf8), to: markdown)
                printError("comment: \(text.utf16.count) characters (budget \(comment.budget)) → \(markdown)")
            }
            if a.flags.contains("json") { entries.filter { $0.kind != .unchanged }.forEach { printJSON($0) } }
            for e in entries where e.kind != .unchanged && !a.flags.contains("json") { print("\(e.kind.rawValue)\t\(e.mockup)") }
            for e in entries { if let note = e.note { printError("warning: \(note)") } }
            printError("\(summary.changed) changed, \(summary.added) added, \(summary.removed) removed, \(summary.unchanged) unchanged → \(out.path)/index.html")
            return summary
        } catch {
            printError("pushpreview diff: \(error)")
            return nil
        }
    }
}
