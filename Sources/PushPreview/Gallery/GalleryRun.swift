import ConfinedFiles
import Diagnostics
import Foundation
import Rendering
import ServiceStage
import Typography

/// `pushpreview gallery`: every payload of a project rendered on every core, then
/// `report.json` and `index.html`. Each lane renders in a supervised worker process (or, without
/// a `workers` plan, in this one); payloads are handed out one at a time and results land in
/// payload order, so output does not depend on which worker drew what, and a worker that dies
/// loses only the payload it was drawing.
public struct GalleryRun {
    public var project: Project
    public var templates: URL
    public var fonts: FontSet
    public var options: RenderOptions
    /// Parallel workers (default: the number of cores).
    public var jobs = ProcessInfo.processInfo.activeProcessorCount
    /// Render only payloads i with i % count == index - 1 (`--shard INDEX/COUNT`).
    public var shard: (index: Int, count: Int)?
    /// Keep the mock-ups of payloads whose inputs have not changed since the last report.
    public var incremental = false
    /// Render only these payloads (relative paths) and keep every other from the last report,
    /// whatever its key (`serve`, which knows what an edit touched).
    public var only: Set<String>?
    /// The lanes to render in, kept by the caller across runs (`serve`'s warm workers); nil
    /// starts `jobs` lanes and stops them at the end.
    public var slots: [RenderSlot]?
    /// Keep service-step timings in the report and gallery (they make output differ run to run).
    public var timings = false
    /// Worker processes to render in; nil renders in this process.
    public var workers: WorkerPlan?
    /// Decoded and resampled images, shared by the lanes when they render in this process.
    public var pixelCache = PixelCache()
    /// The project's findings, when a worker has already checked it (`Project.read`).
    public var projectFindings: [Diagnostic]?

    public struct Progress: Sendable { public var done: Int; public var total: Int; public var elapsed: Double }

    public init(project: Project, templates: URL, fonts: FontSet, options: RenderOptions) {
        self.project = project; self.templates = templates; self.fonts = fonts; self.options = options
    }

    /// The payloads this run (or shard) renders. A payload's shard is decided by its own path's
    /// hash, not its place in the list, so it is in the same shard on both sides of a `diff
    /// --base` (where one side may have payloads the other has not): a shard that is lost loses the
    /// same payloads from both.
    public var payloads: [URL] {
        let all = project.payloadFiles
        guard let shard else { return all }
        let folder = project.folder.standardizedFileURL.path + "/"
        return all.filter { url in
            let path = url.standardizedFileURL.path
            let relative = path.hasPrefix(folder) ? String(path.dropFirst(folder.count)) : url.lastPathComponent
            let hash = UInt64(SHA256.hex(Array(relative.utf8)).prefix(16), radix: 16) ?? 0
            return Int(hash % UInt64(shard.count)) == shard.index - 1
        }
    }

    /// Renders, writes `report.json` and `index.html`, and returns the report, how many payloads
    /// `--incremental` kept without rendering, and the workers' peak memory added up (kB).
    public func run(progress: (@Sendable (Progress) -> Void)? = nil) throws -> (report: GalleryReport, kept: Int, workersPeakKB: Int) {
        let output = options.outputFolder
        let out = try ConfinedFolder(trusted: output, links: .refused, create: true)
        out.removeLeftovers()
        let files = payloads
        let global = InputKey.options(options, timings: timings)
        let fingerprint = InputKey.fingerprint(project: project, templates: templates)
        let previous = incremental || self.only != nil ? (try? GalleryReport.read(in: out)) : nil
        // What changed since the last report, asked of the edit plan: the payloads it touches
        // are drawn again, with those whose own file changed (their key) and those new since.
        let only: Set<String>? = {
            guard self.incremental, self.only == nil else { return self.only }
            guard let before = previous?.files else { return nil }
            let changed = Set(fingerprint.keys).union(before.keys).filter { before[$0] != fingerprint[$0]?.hash }
            let path = { InputKey.path(ofName: $0, project: self.project, templates: self.templates) }
            return EditPlan.touched(by: Set(changed.map(path)), addedOrRemoved: Set(changed.filter { before[$0] == nil || fingerprint[$0] == nil }.map(path)),
                                    project: self.project, templates: self.templates, report: previous).payloads
        }()
        let keys = files.map { InputKey.payload($0, global: global, project: self.project) }
        let drawnBefore = Dictionary((previous?.inputs ?? []).map { ($0.payload, $0) }, uniquingKeysWith: { a, _ in a })
        /// Whether the payload at `relative` (whose key is `key`) must be drawn again.
        let incremental = self.incremental
        let redraw = { @Sendable (relative: String, key: String) -> Bool in
            guard let before = drawnBefore[relative], let only else { return true }
            return only.contains(relative) || (incremental && before.key != key)
        }
        let inputs = Results(count: files.count)
        // Threads are drawn as stacks too, as jobs after the payloads', beside each newest member.
        let threads = MockupRenderer.threads(files, project: project)
        let stacks = StackResults()
        let next = Counter()
        let start = Date()
        let jobs = slots?.count ?? max(1, min(self.jobs, files.count + threads.count))
        let peaks = PeakMemory()
        let (project, templates, fonts, options, timings, workers, pixels, slots) = (self.project, self.templates, self.fonts, self.options, self.timings, self.workers, self.pixelCache, self.slots.map(SlotList.init))
        // Results as the report keeps them: the payload and outputs relative, timings only if asked.
        let reported = { @Sendable (results: [MockupResult], payload: String) in
            results.map { r in
                var r = r
                r.payload = payload
                r.outputs = r.outputs.map { String($0.dropFirst(output.path.count + 1)) }
                if !timings { r.service.steps = r.service.steps.map { var s = $0; s.ms = 0; return s } }
                return r
            }
        }
        DispatchQueue.concurrentPerform(iterations: jobs) { lane in
            let slot = slots?.items[lane] ?? RenderSlot(plan: workers, templates: templates, fonts: fonts, pixels: pixels)
            while let i = next.take(below: files.count + threads.count) {
                guard i < files.count else {
                    let members = threads[i - files.count], newest = members.last!
                    let name = project.relativePath(newest)
                    if !members.contains(where: { redraw(project.relativePath($0), keys[files.firstIndex(of: $0)!]) }), let kept = drawnBefore[name] {
                        stacks.add(files.firstIndex(of: newest)!, kept.mockups.filter { $0.view.hasPrefix("stack") })
                        continue
                    }
                    stacks.add(files.firstIndex(of: newest)!, reported(slot.render(newest, project: project, options: options, name: name, thread: members), name))
                    continue
                }
                let file = files[i]
                let relative = project.relativePath(file)
                let key = keys[i]
                if !redraw(relative, key), let kept = drawnBefore[relative],
                   kept.mockups.allSatisfy({ $0.outputs.allSatisfy { out.isFile($0) } }) {
                    inputs.set(i, kept, kept: true)
                } else {
                    let results = reported(slot.render(file, project: project, options: options, name: relative), relative)
                    inputs.set(i, .init(payload: relative, category: results.lazy.compactMap(\.category).first, outcome: GalleryReport.outcome(of: results),
                                        key: key, mockups: results))
                }
                progress?(Progress(done: inputs.done, total: files.count, elapsed: Date().timeIntervalSince(start)))
            }
            if slots == nil {
                slot.finish()
                peaks.add(slot.workerPeakKB)
            }
        }
        let catalog = (try? MockupRenderer.deviceCatalog(templates: templates, project: project)) ?? []
        var all = inputs.all
        for (i, results) in stacks.all {
            all[i].mockups = all[i].mockups.filter { !$0.view.hasPrefix("stack") } + results
            all[i].outcome = GalleryReport.outcome(of: all[i].mockups)
        }
        var report = GalleryReport(tool: "pushpreview \(pushPreviewVersion)", project: project.folder.lastPathComponent, devices: options.devices,
                                   deviceProfiles: options.devices.compactMap { id in catalog.first { $0.id == id } },
                                   appearances: options.appearances.map(\.rawValue), locales: options.locales,
                                   textSizes: options.textSizes.map(\.rawValue), ios: options.axes.iosVersions.map(\.rawValue),
                                   glass: options.axes.glassStyles.map(\.rawValue),
                                   accessibility: options.axes.accessibilitySettings == [.standard] ? nil : options.axes.accessibilitySettings.map(\.rawValue),
                                   shard: shard.map { "\($0.index)/\($0.count)" }, summary: .init(), inputs: all)
        report.files = fingerprint.mapValues(\.hash)
        let findings = projectFindings ?? Validator(templates: templates).projectFindings(project)
        report.projectIssues = findings.map(\.printed)
        report.projectDiagnostics = findings
        report.summarize()
        if incremental { Self.removeUnlisted(in: out, report: report) }
        try out.write(try report.encoded(), to: "report.json")
        try out.write(GalleryPage.html(report, output: output), to: "index.html")
        return (report, inputs.kept, peaks.totalKB)
    }
}

extension GalleryRun {
    /// What an incremental run keeps is what its report lists: the mock-ups of payloads, locales
    /// or views that are gone since the last run are removed (shared media in media/ stay).
    static func removeUnlisted(in output: ConfinedFolder, report: GalleryReport) {
        let listed = Set(report.inputs.flatMap(\.mockups).flatMap(\.outputs))
        for folder in (try? output.names()) ?? [] where folder != "media" && !folder.hasPrefix(".") {
            guard output.isFolder(folder), !output.isLink(folder) else { continue }
            let files = (try? output.names(folder)) ?? []
            for file in files where !listed.contains(folder + "/" + file) && [".png", ".html", ".json"].contains(where: file.hasSuffix) {
                try? output.remove(folder + "/" + file)
            }
            if (try? output.names(folder))?.isEmpty == true { try? output.remove(folder) }
        }
    }
}

/// Results by payload index, filled in by the workers.
final class Results: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [GalleryReport.Input?]
    private(set) var done = 0, kept = 0
    init(count: Int) { items = Array(repeating: nil, count: count) }
    func set(_ i: Int, _ value: GalleryReport.Input, kept: Bool = false) { lock.withLock { items[i] = value; done += 1; if kept { self.kept += 1 } } }
    var all: [GalleryReport.Input] { lock.withLock { items.compactMap { $0 } } }
}

/// The stacks' results, by the index of the thread's newest payload.
final class StackResults: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Int: [MockupResult]] = [:]
    func add(_ i: Int, _ results: [MockupResult]) { lock.withLock { items[i, default: []] += results } }
    var all: [(Int, [MockupResult])] { lock.withLock { items.sorted { $0.key < $1.key }.map { ($0.key, $0.value) } } }
}

/// The caller's lanes, handed to the run's threads (each lane's slot is used by one thread only).
final class SlotList: @unchecked Sendable {
    let items: [RenderSlot]
    init(_ items: [RenderSlot]) { self.items = items }
}

/// The lanes' worker peak memory, added up.
final class PeakMemory: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var totalKB = 0
    func add(_ kB: Int) { lock.withLock { totalKB += kB } }
}

/// Hands out job indices to workers.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func take(below limit: Int) -> Int? {
        lock.withLock {
            guard value < limit else { return nil }
            defer { value += 1 }
            return value
        }
    }
}

/// What a mock-up's output depends on: the tool version and the render options, with the payload
/// file (its `key`), and every other file of the project but its payloads and download cache
/// (settings, Info.plists, categories, templates, strings, media), the repository's templates and
/// the Xcode app's files (the report's `files`). Remote media is not fetched to hash it: change
/// the URL to force a new render. Each file is read as every input is: the project's beneath its
/// folder, the Xcode app's beneath its repository, the tool's own as named.
enum InputKey {
    static func options(_ options: RenderOptions, timings: Bool) -> String {
        SHA256.hex(Array("\(pushPreviewVersion)|\(options.axes.hashKey)|\(options.formats.sorted())|\(options.showLimits)|\(options.mediaPlaying)|\(options.hiddenPreviews)|\(options.reviewVariants)|\(options.timeBudget ?? -1)|\(options.extraViews.sorted())|\(options.wallpaper?.digest ?? "")\(options.appScreen.map { "|app:" + ($0.digest ?? "") } ?? "")|\(timings)".utf8))
    }

    /// Each input file by name — `project/PATH`, `templates/PATH`, or (read from the Xcode app)
    /// its whole path — with its path and the hash of its bytes.
    static func fingerprint(project: Project, templates: URL) -> [String: (path: String, hash: String)] {
        // What serve writes into the project (pushes taken, cards approved) draws nothing.
        let skipped = ["payloads/", project.service.appGroup + "/cache/", "received/", Approvals.fileName]
        var named: [String: (path: String, hash: String)] = [:]
        for file in project.files.files().files where !skipped.contains(where: file.hasPrefix) {
            named["project/" + file] = (project.folder.path + "/" + file, hash { try project.files.read(file) })
        }
        for (name, url) in toolFiles(templates) { named["templates/" + name] = (url.path, hash { try TrustedFiles.read(url) }) }
        for file in project.xcodeInputs { named[file.path] = (file.path, hash { try project.inputs.read(file) }) }
        if let w = project.wallpaper, !w.path.hasPrefix(project.folder.path + "/") {
            named[w.path] = (w.path, hash { try project.inputs.read(w, limit: NamedPicture.byteLimit) })
        }
        return named
    }

    /// The file a fingerprint name stands for (it may be gone).
    static func path(ofName name: String, project: Project, templates: URL) -> String {
        if name.hasPrefix("project/") { return project.folder.path + name.dropFirst("project".count) }
        if name.hasPrefix("templates/") { return templates.standardizedFileURL.path + name.dropFirst("templates".count) }
        return name
    }

    /// The hash of what `read` gives (of nothing, when it cannot be read).
    static func hash(_ read: () throws -> [UInt8]) -> String { SHA256.hex((try? read()) ?? []) }

    /// The tool's templates by their path beneath `templates`, each with its hash, in path order.
    static func fingerprint(templates: URL) -> [UInt8] {
        var bytes: [UInt8] = []
        for (name, url) in toolFiles(templates) {
            bytes += Array(name.utf8) + [0]
            bytes += hash { try TrustedFiles.read(url) }.utf8
        }
        return bytes
    }

    /// A payload's key: the options with its bytes.
    static func payload(_ file: URL, global: String, project: Project) -> String {
        SHA256.hex(Array(global.utf8) + ((try? Project.read(file, in: project, limit: 1 << 20)) ?? []))
    }

    /// The tool's own files beneath `templates` (hidden ones skipped), by path, sorted.
    static func toolFiles(_ templates: URL) -> [(name: String, url: URL)] {
        let root = templates.standardizedFileURL
        return TrustedFiles.files(under: root).map { (String($0.path.dropFirst(root.path.count + 1)), $0) }
    }
}
