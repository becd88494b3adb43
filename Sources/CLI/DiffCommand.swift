import Checked
import Foundation
import PushPreview

enum DiffCommand {
    static let help = """
    usage: pushpreview diff BASE NEW [options]
           pushpreview diff --base REF [PROJECT] [options]
           pushpreview diff --merge DIR... [options]

    Compares two output folders mock-up by mock-up (PAYLOAD/STEM.png): added, removed, changed,
    unchanged. Writes before / after / difference images, index.html and diff.json into --out.
    With --base, renders PROJECT (default Examples) as it is at the git commit REF (in a temporary
    worktree, cached by commit under PROJECT/.pushpreview/base/) and as it is in the working tree
    (into PROJECT/.pushpreview/new/), then compares the two.

      --out DIR              where the diff goes (default Diff)
      --threshold T          0–1: how far apart two colours must be to count (default 0.1)
      --markdown FILE        also write a pull-request comment: a summary table and the images
      --image-base-url URL   where the --out folder will be uploaded, for the comment's images
      --json                 print diff.json's entries on stdout
      --base REF             compare PROJECT at the commit REF with its working tree
      --fail-on-change       with --base or --merge: exit 1 when a mock-up changed (else 0)
      --shard I/N            with --base: render only the I-th of N slices of both sides, into
                             --out's base/ and new/ (no diff yet: --merge makes it)
      --merge                join the shard folders given as arguments (their base/ and new/), then compare
      --device, --appearance, --locale, --format, --text-size, --view, --jobs, --timeout,
      --max-memory, --show-limits, --media-state, --hidden-previews, --time-budget, --font-dir:
                             with --base, as for gallery, for both sides
    exit status: 0 nothing changed; 1 something changed (BASE NEW, or with --fail-on-change);
    2 usage or unreadable folders; 3 the working tree's side could not be rendered whole
    """

    /// The gallery options diff --base passes on to both sides; the first group decides what the
    /// mock-ups look like (and so the base cache's name), the second only how they are made.
    static let renderValued = ["device", "appearance", "locale", "format", "text-size", "view", "media-state", "time-budget", "font-dir"]
    static let renderFlags = ["show-limits", "hidden-previews"]
    static let runValued = ["jobs", "timeout", "max-memory"]

    static func run(_ argv: [String]) -> Int32 {
        if argv.contains("--help") { print(help); return 0 }
        let a: Arguments
        var threshold = 0.1
        var shard: (index: Int, count: Int)?
        do {
            a = try Arguments(argv, valued: Set(["out", "threshold", "markdown", "image-base-url", "base", "shard"] + renderValued + runValued),
                              flags: Set(["json", "fail-on-change", "merge"] + renderFlags))
            if let t = a.value("threshold") {
                guard let v = Double(t), (0...1).contains(v) else { throw Arguments.UsageError(description: "--threshold takes a number from 0 to 1") }
                threshold = v
            }
            if let s = a.value("shard") {
                let parts = s.split(separator: "/").compactMap { Int($0) }
                guard parts.count == 2, parts[1] >= 1, (1...parts[1]).contains(parts[0]) else { throw Arguments.UsageError(description: "--shard takes I/N with 1 ≤ I ≤ N, e.g. 2/4") }
                shard = (parts[0], parts[1])
            }
            let merging = a.flags.contains("merge"), revision = a.value("base") != nil
            if merging {
                guard !a.positionals.isEmpty else { throw Arguments.UsageError(description: "--merge needs the shard folders") }
                guard shard == nil else { throw Arguments.UsageError(description: "--merge joins shards; give --shard to the runs that make them") }
            } else if revision {
                guard a.positionals.count <= 1 else { throw Arguments.UsageError(description: "with --base, give at most one PROJECT folder") }
            } else {
                guard a.positionals.count == 2 else { throw Arguments.UsageError(description: "give two output folders: BASE NEW (or --base REF [PROJECT])") }
                let passed = (renderValued + runValued + ["shard"]).filter { a.value($0) != nil } + (renderFlags + ["fail-on-change"]).filter(a.flags.contains)
                if let first = passed.first { throw Arguments.UsageError(description: "--\(first) goes with --base or --merge") }
            }
            for folder in merging || !revision ? a.positionals : [] {
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
                    throw Arguments.UsageError(description: "\(folder): not a folder")
                }
            }
        } catch {
            printError("pushpreview diff: \(error)\n\n\(help)")
            return 2
        }
        let out = URL(fileURLWithPath: a.value("out") ?? "Diff")
        if a.flags.contains("merge") { return merge(a, out: out, threshold: threshold) }
        if let ref = a.value("base") { return revision(ref, a, out: out, threshold: threshold, shard: shard) }
        return compare(base: URL(fileURLWithPath: a.positionals[0]), new: URL(fileURLWithPath: a.positionals[1]), a, out: out, threshold: threshold)
            .map { $0.anyChange ? 1 : 0 } ?? 2
    }

    /// `--base REF [PROJECT]`: both sides rendered, then compared (or, with --shard, left in --out).
    static func revision(_ ref: String, _ a: Arguments, out: URL, threshold: Double, shard: (index: Int, count: Int)?) -> Int32 {
        guard let templates = repositoryTemplatesOrExplain() else { return 3 }
        let project = URL(fileURLWithPath: a.positionals.first ?? "Examples").standardizedFileURL
        func passed(_ names: [String]) -> [String] { names.flatMap { n in (a.options[n] ?? []).map { "--\(n)=\($0)" } } }
        var comparison = RevisionComparison(project: project, executable: ShareFolder.executable, templates: templates,
                                            renderArguments: passed(renderValued) + renderFlags.filter(a.flags.contains).map { "--\($0)" })
        comparison.runArguments = passed(runValued)
        comparison.shard = shard
        comparison.say = { printError("pushpreview diff: \($0)") }
        let sides: (base: RevisionComparison.Side, new: RevisionComparison.Side)
        do {
            sides = try comparison.render(ref: ref, newFolder: shard == nil ? project.appendingPathComponent(".pushpreview/new") : out.appendingPathComponent("new"))
            if shard != nil {
                try? FileManager.default.removeItem(at: out.appendingPathComponent("base"))
                try FileManager.default.copyItem(at: sides.base.folder, to: out.appendingPathComponent("base"))
            }
        } catch let failure as RevisionComparison.Failure {
            printError("pushpreview diff: \(failure)")
            return failure.usage ? 2 : 3
        } catch {
            printError("pushpreview diff: \(error)")
            return 3
        }
        if shard != nil {
            printError("shard \(shard!.index)/\(shard!.count) → \(out.path)/base and \(out.path)/new; join the shards with: pushpreview diff --merge DIR...")
            return sides.new.problems.isEmpty ? 0 : 3
        }
        return finish(base: sides.base, new: sides.new, a, out: out, threshold: threshold)
    }

    /// `--merge DIR...`: each shard folder's base/ and new/ joined, then compared.
    static func merge(_ a: Arguments, out: URL, threshold: Double) -> Int32 {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("pushpreview-merge-\(UUID().uuidString)")
        ChildProcesses.using(folder: work)
        defer { ChildProcesses.remove(folder: work) }
        var sides: [RevisionComparison.Side] = []
        for side in ["base", "new"] {
            let folder = work.appendingPathComponent(side)
            let shards = a.positionals.map { URL(fileURLWithPath: $0).appendingPathComponent(side) }
            // A base with no project at the commit is an empty folder in every shard.
            if shards.allSatisfy({ !FileManager.default.fileExists(atPath: $0.appendingPathComponent("report.json").path) }) {
                try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                sides.append(RevisionComparison.Side(folder: folder, report: nil, problems: ["no shard has a \(side) gallery"]))
                continue
            }
            do {
                let report = try GalleryMerge.merge(shards, into: folder)
                sides.append(RevisionComparison.Side(folder: folder, report: report, problems: RevisionComparison.problems(of: report)))
            } catch {
                printError("pushpreview diff --merge: \(error)")
                return 2
            }
        }
        return finish(base: sides[0], new: sides[1], a, out: out, threshold: threshold)
    }

    /// The comparison of two rendered sides, with what kept either from being whole.
    static func finish(base: RevisionComparison.Side, new: RevisionComparison.Side, _ a: Arguments, out: URL, threshold: Double) -> Int32 {
        let notes = base.problems.map { "base: \($0)" } + new.problems.map { "working tree: \($0)" }
        for note in notes { printError("warning: \(note)") }
        guard let summary = compare(base: base.folder, new: new.folder, a, out: out, threshold: threshold, notes: notes) else { return 3 }
        if !new.problems.isEmpty { return 3 }
        return summary.anyChange && a.flags.contains("fail-on-change") ? 1 : 0
    }

    /// Writes the diff of two output folders (and the comment); nil when it could not.
    static func compare(base: URL, new: URL, _ a: Arguments, out: URL, threshold: Double, notes: [String] = []) -> OutputDiff.Summary? {
        var diff = OutputDiff(base: base, new: new)
        diff.threshold = threshold
        do {
            let (entries, summary) = try diff.run(output: out)
            if let markdown = a.value("markdown") {
                try OutputFile.write(OutputDiff.markdown(entries, summary, imageBaseURL: a.value("image-base-url") ?? "", notes: notes), to: URL(fileURLWithPath: markdown))
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
