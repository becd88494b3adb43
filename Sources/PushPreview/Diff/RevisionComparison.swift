import Checked
import ConfinedFiles
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
    /// into `newFolder` (beneath the project's `.pushpreview/` unless it is a shard's `--out`).
    /// `.pushpreview/` and everything in it are made and written beneath the project folder with
    /// no link followed: a pull request that commits `.pushpreview` (or `base`) as a link to a
    /// folder elsewhere has that refused, not written through.
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
        let own: ConfinedFolder
        do {
            own = try ConfinedFolder(trusted: project).folder(".pushpreview", links: .refused, create: true)
            // Never committed: the folder ignores itself, as .build or a cache folder would.
            if !own.isFile(".gitignore") {
                try own.write("# made by pushpreview diff --base: rendered galleries, kept only as a cache\n*\n", to: ".gitignore")
            }
        } catch { throw Failure(description: "\(error.fullPath): \(error.why); nothing rendered") }
        let short = String(commit.prefix(12)), label = "\(ref) (\(short))"
        let key = self.key(commit: commit)
        let name = "base/\(short)-\(key)"
        let cache: ConfinedFolder
        do { cache = try own.folder(name, links: .refused, create: true) } catch { throw Failure(description: "\(error.fullPath): \(error.why); nothing rendered") }
        var base: Side
        // A cache a commit carries is not the tool's: files under .pushpreview that git tracks are never trusted.
        let tracked = repository.tracked(under: project.appendingPathComponent(".pushpreview"))
        if !tracked.isEmpty {
            say("base \(short): the repository commits \(tracked.count) file(s) under \(path.isEmpty ? "" : path + "/").pushpreview/ (\(tracked.prefix(3).joined(separator: ", "))); a cache is made by pushpreview, never taken from a commit: rendering anew")
        }
        if tracked.isEmpty, let report = try? GalleryReport.read(in: cache), Self.seal(of: cache, report: report) == (try? cache.read(Self.sealFile, limit: 4096)) {
            say("base \(short): taken from \(cache.url.path)")
            base = Side(folder: cache.url, report: report, label: label)
        } else if !repository.exists(path, at: commit) {
            say("base \(short): \(path.isEmpty ? "the project" : path) is not in that commit; every mock-up counts as added")
            try? own.remove(name)
            base = Side(folder: try Self.empty(own, name), report: nil,
                        failures: [ComparisonFailure(side: .base, subject: path.isEmpty ? "the project" : path, message: "not in \(short): every mock-up counts as added")], label: label)
        } else {
            say("base \(short): rendering in a temporary worktree")
            // The seal is written last: a run that stopped part-way leaves none, and is rendered
            // again next time.
            try? own.remove(name)
            let folder = try Self.empty(own, name)
            do {
                base = try repository.withWorktree(at: commit) { tree in
                    try gallery(tree.appendingPathComponent(path), into: folder, side: .base, name: "base \(short)", label: label)
                }
                if let report = base.report, let sealed = try? own.folder(name, links: .refused) {
                    try? sealed.write(Self.seal(of: sealed, report: report), to: Self.sealFile)
                }
            } catch let failure as Failure where !failure.usage {
                // The commit's side is not the branch's to blame: the diff is still written, all added.
                say("base \(short): \(failure.description); every mock-up counts as added")
                try? own.remove(name)
                base = Side(folder: try Self.empty(own, name), report: nil,
                            failures: [ComparisonFailure(side: .base, subject: "the base side", message: "could not be rendered: \(failure.description); every mock-up counts as added")], label: label)
            }
        }
        return base
    }

    /// The file that says a cached base is whole and as rendered: a digest of its report and of
    /// every file the report lists, with the key. A cache whose files were changed (or forged)
    /// no longer matches and is rendered again.
    static let sealFile = ".pushpreview-seal"

    static func seal(of cache: ConfinedFolder, report: GalleryReport) -> [UInt8] {
        var bytes = (try? cache.read("report.json")) ?? []
        for file in report.inputs.flatMap(\.mockups).flatMap(\.outputs).sorted() {
            bytes += Array(file.utf8) + [0] + Array(SHA256.hex((try? cache.read(file)) ?? []).utf8)
        }
        return Array("\(pushPreviewVersion) \(SHA256.hex(bytes))\n".utf8)
    }

    /// A new empty folder for a side, beneath `.pushpreview/` (no link followed), as its URL.
    static func empty(_ own: ConfinedFolder, _ name: String) throws -> URL {
        do { return try own.folder(name, links: .refused, create: true).url } catch { throw Failure(description: "\(error.fullPath): \(error.why)") }
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
        // The run's TMPDIR is a folder of ours, so what it makes there (its workers' folders) is
        // removed with it even when it is killed before its own clean-up ends (a Ctrl-C's grace).
        let scratch: URL
        do { scratch = try ChildProcesses.temporaryFolder("pushpreview-side") } catch { throw Failure(description: "\(name): could not make a temporary folder: \(error)") }
        defer { ChildProcesses.remove(folder: scratch) }
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = scratch.path
        process.environment = environment
        // The last run's report (an incremental side keeps one) is marked with a second newline at
        // its end, which readers ignore and a run's own write replaces (an identical file is not
        // written again, so its time cannot tell): a run that stops before its report leaves the mark.
        let out = try? ConfinedFolder(trusted: output, links: .refused)
        if let out, var last = try? out.read("report.json", limit: 256 << 20) {
            last.append(10)
            try? out.write(last, to: "report.json")
        }
        do { try process.run() } catch { throw Failure(description: "\(name): could not start \(executable.path): \(error)") }
        ChildProcesses.started(process.processIdentifier)
        process.waitUntilExit()
        ChildProcesses.ended(process.processIdentifier)
        let status = process.terminationStatus
        let signalled = process.terminationReason == .uncaughtSignal
        if status == 2 && !signalled { throw Failure(description: "\(name): the gallery run was refused (its message is above)", usage: true) }
        if !signalled, let written = try? ConfinedFolder(trusted: output, links: .refused), let bytes = try? written.read("report.json", limit: 256 << 20),
           !bytes.suffix(2).elementsEqual([10, 10]), let report = try? GalleryReport.read(in: written) {
            return Side(folder: output, report: report, failures: ComparisonFailure.of(report, side: side), label: label)
        }
        let why = signalled ? "the gallery run ended by signal \(status)" : "the gallery run wrote no report (exit status \(status))"
        say("\(name): \(why); its message is above. Compared as an empty side")
        let empty: URL
        do { empty = try ChildProcesses.temporaryFolder("pushpreview-empty") } catch { throw Failure(description: "\(name): \(why); and no empty folder could be made: \(error)") }
        return Side(folder: empty, report: nil, failures: [ComparisonFailure(side: side, subject: side == .base ? "the base side" : "this branch's side",
                                                                             message: "\(why); the job's log has its message")], label: label)
    }

    /// What the commit's gallery depends on besides the commit: the tool, its templates, the options.
    func key(commit: String) -> String {
        let options = "\(pushPreviewVersion)\u{0}\(commit)\u{0}\(renderArguments.joined(separator: "\u{0}"))\u{0}\(shard.map { "\($0.index)/\($0.count)" } ?? "")"
        let tool = InputKey.fingerprint(templates: templates)
        let bytes = Array(options.utf8) + tool
        return String(SHA256.hex(bytes).prefix(12))
    }
}
