import ConfinedFiles
import ContentStage
import Diagnostics
import Foundation
import HTTP
import ServiceStage
import Typography

/// `serve`'s gallery: drawn once, then kept current. A thread waits on the folders (inotify)
/// and another draws: each batch of changed files is asked of the `EditPlan`, only the payloads
/// it touches are drawn again (in warm workers, started afresh after every batch so no worker
/// keeps a stale template or project), and open pages are told over Server-Sent Events which
/// pictures changed. Pushes the APNs endpoint took are drawn the same way, newest first.
/// Blocked threads use no CPU while nothing changes.
public final class LiveGallery: @unchecked Sendable {
    public struct Setup: Sendable {
        public var folder: URL
        public var templates: URL
        public var fonts: FontSet
        public var options: RenderOptions
        public var workers: WorkerPlan
        public var jobs = 2
        /// Pushes kept in `received/` at most; the oldest are removed (`--keep-received`).
        public var keepReceived = 1_000
        public init(folder: URL, templates: URL, fonts: FontSet, options: RenderOptions, workers: WorkerPlan) {
            self.folder = folder; self.templates = templates; self.fonts = fonts; self.options = options; self.workers = workers
        }
    }

    let setup: Setup
    public let hub = EventHub()
    private let lock = NSCondition()
    private var project: Project
    private var findings: [Diagnostic]
    /// The project could not be read again: said in the page until it can.
    private var projectError: Diagnostic?
    private var report: GalleryReport?
    /// Each payload's last input drawn without errors, to show while a template is broken.
    private var lastGood: [String: GalleryReport.Input] = [:]
    private var page: [UInt8] = []
    /// Each picture's version, the hash of its bytes (by its stat, so unchanged files are not read again).
    private var versions: [String: (stat: String, hash: String)] = [:]
    private var changes: Set<String> = []
    /// The files of the project and template folders at the last draw: a changed path that is
    /// neither there now nor was then (an editor's temporary file, renamed away) touches nothing.
    private var known: Set<String> = []
    private var pushesWaiting = false
    private var stopping = false
    private var received = ReceivedPushes()
    private let slots: [RenderSlot]
    private let wake = WakeSignal()
    private var threads: [Thread] = []
    private let finished = DispatchSemaphore(value: 0)
    /// The output folder, held open; nothing beneath it follows a link.
    let out: ConfinedFolder
    /// Told after each batch: what was drawn, for the log.
    public var log: (@Sendable (String) -> Void)?
    /// What the page says about the endpoint (its address and whether it checks tokens).
    public var endpointNote = ""

    public init(_ setup: Setup) throws(ProjectError) {
        self.setup = setup
        (project, findings) = try Project.read(folder: setup.folder, templates: setup.templates, workers: setup.workers)
        do { out = try ConfinedFolder(trusted: setup.options.outputFolder, links: .refused, create: true) } catch {
            throw ProjectError(Diagnostic(.error, code: "path", file: error.fullPath, error.why))
        }
        slots = (0..<max(1, setup.jobs)).map { _ in RenderSlot(plan: setup.workers, templates: setup.templates, fonts: setup.fonts) }
    }

    var output: URL { setup.options.outputFolder }
    public var bundleID: String? { lock.withLock { project.bundleID } }
    var options: RenderOptions {
        var o = setup.options
        o.axes.fill(from: project)
        return o
    }

    /// Draws the gallery (keeping what the last report says is current), then watches and draws.
    public func start() throws {
        try draw(EditPlan(payloads: nil), incremental: true)
        for slot in slots { slot.warm() }
        let watcher = Thread { [self] in watch() }, drawer = Thread { [self] in drawLoop() }
        threads = [watcher, drawer]
        for t in threads { t.start() }
    }

    public func stop() {
        lock.withLock { stopping = true; lock.broadcast() }
        wake.signal()
        for _ in threads { finished.wait() }
        for slot in slots { slot.finish() }
        hub.close()
    }

    /// The page; while the gallery is first drawn, a page that says so and looks again.
    public var pageBytes: [UInt8] {
        lock.withLock { page.isEmpty ? Array(Self.drawingPage.utf8) : page }
    }
    static let drawingPage = """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="1">
        <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
        <title>Drawing… — PushPreview</title><style>body { font: 16px system-ui, sans-serif; margin: 40px; color: #6e6e73; }</style>
        </head><body><p>Drawing the gallery…</p></body></html>

        """

    /// Keeps a push the endpoint accepted and has it drawn. `received/` is made beneath the
    /// project folder with no link followed (a committed `received` symlink is refused), and
    /// holds at most `keepReceived` pushes: the oldest are removed.
    public func take(_ push: APNsEndpoint.Push) throws {
        let now = Date()
        let project = lock.withLock { self.project }
        let folder = try project.files.folder("received", links: .refused, create: true)
        let name = ReceivedPushes.fileName(push, at: now)
        try folder.write(push.payload, to: name)
        let kept = ((try? folder.names()) ?? []).filter { $0.hasSuffix(".apns") }
        for old in kept.prefix(max(0, kept.count - setup.keepReceived)) { try? folder.remove(old) }
        let gone = lock.withLock { () -> [ReceivedPushes.Entry] in
            let gone = received.add(.init(push: push, file: folder.url.appendingPathComponent(name), received: now))
            pushesWaiting = true
            lock.broadcast()
            return gone
        }
        for entry in gone { try? out.remove("received/" + entry.name) }
    }

    private func watch() {
        defer { finished.signal() }
        let out = output.standardizedFileURL.path
        let skipped = [out, setup.folder.appendingPathComponent(".pushpreview").path, setup.folder.appendingPathComponent("received").path,
                       setup.folder.appendingPathComponent(project.service.appGroup).appendingPathComponent("cache").path]
        let roots = [project.files] + [try? ConfinedFolder(trusted: setup.templates)].compactMap { $0 }
        let watch = FolderWatch(roots, files: project.xcodeInputs) { path in
            skipped.contains { path == $0 || path.hasPrefix($0 + "/") } || path.hasSuffix("~")
        }
        if watch.capped { log?("serve: more than \(FolderWatch.maxFolders) folders under \(setup.folder.path); edits in the rest are not seen (is a build or node_modules folder inside the project?)") }
        while let paths = watch.next(wake: wake.fd) {
            lock.withLock { changes.formUnion(paths); lock.broadcast() }
        }
    }

    private func drawLoop() {
        defer { finished.signal() }
        while true {
            guard let (changed, pushes) = lock.withLock({ () -> (Set<String>, Bool)? in
                while changes.isEmpty && !pushesWaiting && !stopping { lock.wait() }
                if stopping { return nil }
                defer { changes = []; pushesWaiting = false }
                return (changes, pushesWaiting)
            }) else { return }
            let paths = changed.filter { known.contains($0) || exists($0) }
            if !paths.isEmpty {
                let addedOrRemoved = paths.filter { known.contains($0) != exists($0) }
                let plan = EditPlan.touched(by: paths, addedOrRemoved: addedOrRemoved, project: project, templates: setup.templates, report: lock.withLock { reportShown })
                let start = Date()
                do { try draw(plan, incremental: false) } catch { log?("serve: \(error)") }
                log?("\(plan.payloads.map { "\($0.count) payload\($0.count == 1 ? "" : "s")" } ?? "every payload") drawn again in \(Int(Date().timeIntervalSince(start) * 1000)) ms")
            }
            if pushes { drawPushes() }
        }
    }

    /// Draws what `plan` touches and tells the pages.
    private func draw(_ plan: EditPlan, incremental: Bool) throws {
        if plan.readProjectAgain {
            do {
                (project, findings) = try Project.read(folder: setup.folder, templates: setup.templates, workers: setup.workers)
                projectError = nil
            } catch { projectError = error.diagnostic }
        }
        var run = GalleryRun(project: project, templates: setup.templates, fonts: setup.fonts, options: options)
        run.workers = setup.workers
        run.slots = slots
        run.projectFindings = findings + (projectError.map { [$0] } ?? [])
        run.incremental = incremental
        if !incremental { run.only = plan.payloads ?? Set(project.payloadFiles.map { project.relativePath($0) }) }
        let (drawn, _, _) = try run.run()
        known = Set(project.files.files(limit: Self.maxKnown).files.map { setup.folder.path + "/" + $0 } + InputKey.toolFiles(setup.templates).map(\.url.path))
        // A fresh worker for the next batch: it reads templates and the project anew.
        for slot in slots { slot.finish(); slot.warm() }
        lock.withLock {
            for input in drawn.inputs where !input.mockups.contains(where: { !$0.errors.isEmpty }) { lastGood[input.payload] = input }
            report = drawn
        }
        publish()
    }

    /// Files of the project remembered between draws at most (a path edited beyond them is
    /// looked at on disk, as a new one is).
    static let maxKnown = 50_000

    /// Whether a changed path is there now: beneath the project or the Xcode app's repository,
    /// or among the tool's templates.
    private func exists(_ path: String) -> Bool {
        let url = URL(fileURLWithPath: path)
        return lock.withLock { project.inputs.exists(url) } || (path.hasPrefix(setup.templates.standardizedFileURL.path + "/") && TrustedFiles.exists(url))
    }

    /// The report as the page shows it: a payload that fails where it drew before shows its last
    /// good pictures with the new errors (a template that no longer parses, with file and line).
    private var reportShown: GalleryReport? {
        guard var shown = report else { return nil }
        for (i, input) in shown.inputs.enumerated() where input.outcome == "failed" {
            guard let good = lastGood[input.payload] else { continue }
            let errors = Array(Set(input.mockups.flatMap(\.errors))).sorted()
            var kept = good
            kept.outcome = "failed"
            kept.mockups = good.mockups.map { m in
                var m = m
                m.errors = errors
                m.notes = (m.notes ?? []) + ["Showing the last good picture until the errors below are fixed."]
                return m
            }
            shown.inputs[i] = kept
        }
        return shown
    }

    private func drawPushes() {
        while true {
            let batch = lock.withLock { stopping || !changes.isEmpty ? [] : received.pending(slots.count) }
            guard !batch.isEmpty else { return }
            var pushOptions = self.options
            pushOptions.outputSubfolder = "received"
            let options = pushOptions, project = self.project, out = output.path
            let results = ResultsByIndex(batch.count)
            DispatchQueue.concurrentPerform(iterations: batch.count) { i in
                let entry = batch[i]
                guard entry.push.pushType == "alert" else { results.set(i, []); return }
                let drawn = slots[i].render(entry.file, project: project, options: options, name: "received/\(entry.file.lastPathComponent)")
                results.set(i, drawn.map { r in
                    var r = r
                    r.payload = "received/\(entry.file.lastPathComponent)"
                    r.outputs = r.outputs.map { String($0.dropFirst(out.count + 1)) }
                    return r
                })
            }
            lock.withLock { for (i, entry) in batch.enumerated() { received.drawn(entry.name, results.items[i] ?? []) } }
            publish()
        }
    }

    /// Builds the page and tells every open page which pictures changed.
    private func publish() {
        let (shown, entries, total, collapsed) = lock.withLock { (reportShown, received.entries, received.total, received.collapsed) }
        guard let shown else { return }
        let known = lock.withLock { versions }
        var stamps: [String: (stat: String, hash: String)] = [:]
        let pictures = shown.inputs.flatMap(\.mockups).flatMap(\.outputs) + entries.flatMap { $0.results ?? [] }.flatMap(\.outputs)
        for png in pictures where png.hasSuffix(".png") {
            guard let stamp = out.stamp(png) else { continue }
            if let k = known[png], k.stat == stamp { stamps[png] = k; continue }
            stamps[png] = (stamp, String(SHA256.hex((try? out.read(png)) ?? []).prefix(12)))
        }
        let live = GalleryPage.Live(versions: stamps.mapValues(\.hash), received: entries, receivedTotal: total, collapsed: collapsed, endpoint: endpointNote)
        let html = Array(GalleryPage.html(shown, output: output, live: live).utf8)
        let changed = lock.withLock { () -> [String] in
            let changed = stamps.filter { versions[$0.key]?.hash != $0.value.hash }.map(\.key).sorted()
            versions = stamps
            page = html
            return changed
        }
        let list = changed.prefix(200).map { "\"\(GalleryPage.jsonEscaped($0))\"" }.joined(separator: ",")
        hub.publish(event: "changed", data: "{\"pictures\":[\(list)],\"more\":\(max(0, changed.count - 200))}")
    }
}

/// Results by index, filled in by concurrent lanes.
final class ResultsByIndex: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [[MockupResult]?]
    init(_ count: Int) { values = Array(repeating: nil, count: count) }
    func set(_ i: Int, _ v: [MockupResult]) { lock.withLock { values[i] = v } }
    var items: [[MockupResult]?] { lock.withLock { values } }
}
