import Checked
import Foundation
import ServiceStage

/// `diff --base REF`: the project as it is at a commit and as it is in the working tree, each
/// rendered by a `gallery` run of this executable with the same options. The commit's side is
/// rendered in a temporary worktree and kept under the project's `.pushpreview/base/`, named by
/// the commit, the options, the tool and its templates, so the next run renders only the
/// working tree's side.
public struct RevisionComparison {
    public struct Failure: Error, CustomStringConvertible { public var description: String; public var usage = false }

    public var project: URL
    public var executable: URL
    public var templates: URL
    /// The gallery options both runs are given that decide what mock-ups look like
    /// (`--device`, `--locale`, …), and those that only decide how they are made (`--jobs`, …).
    public var renderArguments: [String]
    public var runArguments: [String] = []
    public var shard: (index: Int, count: Int)?
    /// Told what is happening ("base abc123: rendering in a worktree"), for standard error.
    public var say: (String) -> Void = { _ in }

    public init(project: URL, executable: URL, templates: URL, renderArguments: [String]) {
        self.project = project
        self.executable = executable
        self.templates = templates
        self.renderArguments = renderArguments
    }

    /// One side's gallery folder and what its run said.
    public struct Side {
        public var folder: URL
        public var report: GalleryReport?
        /// Why the side is not whole: payloads that failed, project errors, no project at the
        /// commit, a gallery run that ended without a report.
        public var failures: [ComparisonFailure]
        /// What the diff page calls it: "origin/main (3f2a9c…)", "the working tree".
        public var label: String
        public init(folder: URL, report: GalleryReport?, failures: [ComparisonFailure] = [], label: String) {
            self.folder = folder
            self.report = report
            self.failures = failures
            self.label = label
        }
    }

    /// Renders both sides: the commit's into the cache (or taken from it), the working tree's
    /// into `newFolder`.
    public func render(ref: String, newFolder: URL) throws -> (base: Side, new: Side) {
        let base = try renderBase(ref: ref)
        say("new: rendering the working tree")
        // Incremental: only what the edits since the last diff touch is drawn again (the edit
        // plan), and mock-ups no longer made are removed, so none counts as added.
        let new = try gallery(project, into: newFolder, side: .new, name: "new", label: "the working tree", incremental: true)
        return (base, new)
    }

    /// The commit's side only, rendered into the cache under `.pushpreview/base/` (or taken from
    /// it): what a default-branch job prepares for the pull requests based on that commit.
    public func renderBase(ref: String) throws -> Side {
        let repository: GitRepository
        let commit: String
        do {
            repository = try GitRepository(containing: project)
            commit = try repository.commit(ref)
        } catch { throw Failure(description: "\(error)", usage: true) }
        guard let path = repository.relativePath(of: project) else {
            throw Failure(description: "\(project.path): not inside \(repository.root.path)", usage: true)
        }
        // Never committed: the folder ignores itself, as .build or a cache folder would.
        let own = project.appendingPathComponent(".pushpreview")
        if !FileManager.default.fileExists(atPath: own.appendingPathComponent(".gitignore").path) {
            try OutputFile.write(Array("# made by pushpreview diff --base: rendered galleries, kept only as a cache\n*\n".utf8), to: own.appendingPathComponent(".gitignore"))
        }
        let short = String(commit.prefix(12)), label = "\(ref) (\(short))"
        let cache = project.appendingPathComponent(".pushpreview/base/\(short)-\(key(commit: commit))")
        var base: Side
        if let report = try? GalleryReport.read(cache.appendingPathComponent("report.json")) {
            say("base \(short): taken from \(cache.path)")
            base = Side(folder: cache, report: report, label: label)
        } else if !repository.exists(path, at: commit) {
            say("base \(short): \(path.isEmpty ? "the project" : path) is not in that commit; every mock-up counts as added")
            try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
            base = Side(folder: cache, report: nil, failures: [ComparisonFailure(side: .base, subject: path.isEmpty ? "the project" : path, message: "not in \(short): every mock-up counts as added")], label: label)
        } else {
            say("base \(short): rendering in a temporary worktree")
            // The report is written last: a run that stopped part-way leaves none, and is
            // rendered again next time.
            try? FileManager.default.removeItem(at: cache)
            base = try repository.withWorktree(at: commit) { tree in
                try gallery(tree.appendingPathComponent(path), into: cache, side: .base, name: "base \(short)", label: label)
            }
        }
        return base
    }

    /// A gallery run of this executable on `folder`, writing into `output`. A run that ends without
    /// a report (a crash, an unreadable project) is that side's failure, its folder then an empty
    /// one, so the comparison is still written and says why; a refused option is a usage error.
    func gallery(_ folder: URL, into output: URL, side: ComparisonFailure.Side, name: String, label: String, incremental: Bool = false) throws -> Side {
        var arguments = ["gallery", folder.path, "--out", output.path] + renderArguments + runArguments + (incremental ? ["--incremental"] : [])
        if let shard { arguments += ["--shard", "\(shard.index)/\(shard.count)"] }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        // The last run's report (an incremental side keeps one) is marked with a second newline at
        // its end, which readers ignore and a run's own write replaces (an identical file is not
        // written again, so its time cannot tell): a run that stops before its report leaves the mark.
        let file = output.appendingPathComponent("report.json")
        if var last = FileManager.default.contents(atPath: file.path) {
            last.append(10)
            try OutputFile.write([UInt8](last), to: file)
        }
        do { try process.run() } catch { throw Failure(description: "\(name): could not start \(executable.path): \(error)") }
        ChildProcesses.started(process.processIdentifier)
        process.waitUntilExit()
        ChildProcesses.ended(process.processIdentifier)
        let status = process.terminationStatus
        let signalled = process.terminationReason == .uncaughtSignal
        if status == 2 && !signalled { throw Failure(description: "\(name): the gallery run was refused (its message is above)", usage: true) }
        let written = FileManager.default.contents(atPath: file.path).map { !$0.suffix(2).elementsEqual([10, 10]) } ?? false
        if !signalled, written, let report = try? GalleryReport.read(file) {
            return Side(folder: output, report: report, failures: ComparisonFailure.of(report, side: side), label: label)
        }
        let why = signalled ? "the gallery run ended by signal \(status)" : "the gallery run wrote no report (exit status \(status))"
        say("\(name): \(why); its message is above. Compared as an empty side")
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("pushpreview-empty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        ChildProcesses.using(folder: empty)
        return Side(folder: empty, report: nil, failures: [ComparisonFailure(side: side, subject: side == .base ? "the base side" : "this branch's side",
                                                                             message: "\(why); the job's log has its message")], label: label)
    }

    /// What the commit's gallery depends on besides the commit: the tool, its templates, the options.
    func key(commit: String) -> String {
        let options = "\(pushPreviewVersion)\u{0}\(commit)\u{0}\(renderArguments.joined(separator: "\u{0}"))\u{0}\(shard.map { "\($0.index)/\($0.count)" } ?? "")"
        let tool = InputKey.fingerprint(InputKey.files(under: templates).map { (String($0.dropFirst(templates.path.count)), $0) })
        let bytes = Array(options.utf8) + tool
        return String(SHA256.hex(bytes).prefix(12))
    }
}
