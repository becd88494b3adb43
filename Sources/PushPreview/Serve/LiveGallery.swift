import ConfinedFiles
import ContentStage
import Diagnostics
import Foundation
import HTTP
import Imaging
import ServiceStage
import Styling
import Synchronization
import Typography

/// `serve`'s gallery: drawn once, then kept current. A thread waits on the folders (inotify)
/// and another draws: each batch of changed files is asked of the `EditPlan`, only the payloads
/// it touches are drawn again (in warm workers, started afresh after every batch so no worker
/// keeps a stale template or project), and open pages are told over Server-Sent Events which
/// pictures changed. Pushes the APNs endpoint took are drawn the same way, newest first.
/// Blocked threads use no CPU while nothing changes. The cards a page shows are drawn first.
///
/// Unchecked Sendable: `slots` (RenderSlot, not Sendable) are used by the drawer thread only,
/// after `start`; everything else the threads share lives in `shared`, a `Mutex`.
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

    /// What the threads share: the live state's rules, and what was drawn.
    struct Shared {
        var state = LiveState()
        var project: Project
        var findings: [Diagnostic]
        /// The project could not be read again: said in the page until it can.
        var projectError: Diagnostic?
        var report: GalleryReport?
        /// Each payload's last input drawn without errors, to show while a template is broken.
        var lastGood: [String: GalleryReport.Input] = [:]
        var page: [UInt8] = []
        /// Each picture's width and height, read from its header once per stamp.
        var sizes: [String: (width: Int, height: Int)] = [:]
        /// The files of the project and template folders at the last draw: a changed path that is
        /// neither there now nor was then (an editor's temporary file, renamed away) touches nothing.
        var known: Set<String> = []
        var received = ReceivedPushes()
        /// The cards approved, as the project's `pushpreview-approved.json` keeps them.
        var approvals = Approvals()
        /// The SHA-256 of each approved card's pictures, by the stamp it was read at.
        var approvedHashes: [String: (stamp: String, hash: String)] = [:]
        /// The threads started (the watcher and the drawer), each signals `finished` when it ends.
        var threads = 0
        var log: (@Sendable (String) -> Void)?
        var endpointNote = ""
    }

    let setup: Setup
    public let hub = EventHub()
    private let shared: Mutex<Shared>
    /// Rung when there is work (an edit, a push, the cards in view) or serve stops.
    private let doorbell = DispatchSemaphore(value: 0)
    private let slots: [RenderSlot]
    private let wake = WakeSignal()
    private let finished = DispatchSemaphore(value: 0)
    /// The output folder, held open; nothing beneath it follows a link.
    let out: ConfinedFolder
    /// Told after each batch: what was drawn, for the log.
    public var log: (@Sendable (String) -> Void)? {
        get { shared.withLock { $0.log } }
        set { shared.withLock { $0.log = newValue } }
    }
    /// What the page says about the endpoint (its address and whether it checks tokens).
    public var endpointNote: String {
        get { shared.withLock { $0.endpointNote } }
        set { shared.withLock { $0.endpointNote = newValue } }
    }

    public init(_ setup: Setup) throws(ProjectError) {
        self.setup = setup
        let (project, findings) = try Project.read(folder: setup.folder, templates: setup.templates, workers: setup.workers)
        shared = Mutex(Shared(project: project, findings: findings))
        do { out = try ConfinedFolder(trusted: setup.options.outputFolder, links: .refused, create: true) } catch {
            throw ProjectError(Diagnostic(.error, code: .path, file: error.fullPath, error.why))
        }
        slots = (0..<max(1, setup.jobs)).map { _ in RenderSlot(plan: setup.workers, templates: setup.templates, fonts: setup.fonts) }
    }

    var output: URL { setup.options.outputFolder }
    var project: Project { shared.withLock { $0.project } }
    public var bundleID: String? { project.bundleID }
    var options: RenderOptions {
        let project = self.project
        var o = setup.options
        o.axes.fill(from: project)
        return o
    }

    /// Draws the gallery (keeping what the last report says is current), then watches and draws.
    public func start() throws {
        do {
            let approvals = try Approvals.read(in: project.files)
            shared.withLock { $0.approvals = approvals }
        } catch { log?("serve: warning: \(error); no card is shown as approved") }
        try draw(EditPlan(payloads: nil), incremental: true)
        for slot in slots { slot.warm() }
        let watcher = Thread { [self] in watch() }, drawer = Thread { [self] in drawLoop() }
        shared.withLock { $0.threads = 2 }
        watcher.start()
        drawer.start()
    }

    public func stop() {
        let threads = shared.withLock { $0.state.stop(); return $0.threads }
        doorbell.signal()
        wake.signal()
        for _ in 0..<threads { finished.wait() }
        for slot in slots { slot.finish() }
        hub.close()
    }

    /// The page; while the gallery is first drawn, a page that says so and looks again.
    public var pageBytes: [UInt8] {
        shared.withLock { $0.page.isEmpty ? Array(Self.drawingPage.utf8) : $0.page }
    }
    static let drawingPage = """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="1">
        <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
        <title>Drawing… — PushPreview</title><style>body { font: 16px system-ui, sans-serif; margin: 40px; color: #6e6e73; }</style>
        </head><body><p>Drawing the gallery…</p></body></html>

        """

    /// The cards a page shows now (their `data-card` ids, in page order): drawn first after the
    /// next edit. Ids that name no card are ignored.
    public func viewing(_ ids: [String]) {
        let cards = ids.prefix(LiveState.maxViewing).compactMap(LiveState.CardKey.init(id:))
        shared.withLock { $0.state.viewed(cards) }
    }

    /// Approves the card `id` as its pictures are now (or takes its approval back), in the
    /// project's `pushpreview-approved.json`. False when no card has that id.
    public func approve(_ id: String, _ approved: Bool) throws -> Bool {
        let (shown, project) = shared.withLock { ($0.reportShown, $0.project) }
        let pictures = (shown?.inputs ?? []).flatMap(\.mockups).filter { LiveState.CardKey($0).id == id }.flatMap(\.outputs).filter { $0.hasSuffix(".png") }
        guard !pictures.isEmpty else { return false }
        let hashes = approved ? Approvals.hashes(pictures, in: out) : [:]
        let approvals = shared.withLock { shared -> Approvals in
            shared.approvals.cards[id] = approved ? hashes : nil
            return shared.approvals
        }
        try approvals.write(in: project.files)
        publish(drawn: [])
        return true
    }

    /// Keeps a push the endpoint accepted and has it drawn. `received/` is made beneath the
    /// project folder with no link followed (a committed `received` symlink is refused), and
    /// holds at most `keepReceived` pushes: the oldest are removed.
    public func take(_ push: APNsEndpoint.Push) throws {
        let now = Date()
        let folder = try project.files.folder("received", links: .refused, create: true)
        let name = ReceivedPushes.fileName(push, at: now)
        try folder.write(push.payload, to: name)
        let kept = ((try? folder.names()) ?? []).filter { $0.hasSuffix(".apns") }
        for old in kept.prefix(max(0, kept.count - setup.keepReceived)) { try? folder.remove(old) }
        let gone = shared.withLock { shared -> [ReceivedPushes.Entry] in
            let gone = shared.received.add(.init(push: push, file: folder.url.appendingPathComponent(name), received: now))
            shared.state.pushTaken()
            return gone
        }
        doorbell.signal()
        for entry in gone { try? out.remove("received/" + entry.name) }
    }

    private func watch() {
        defer { finished.signal() }
        let out = output.standardizedFileURL.path
        let project = self.project
        let skipped = [out, setup.folder.appendingPathComponent(".pushpreview").path, setup.folder.appendingPathComponent("received").path,
                       setup.folder.appendingPathComponent(Approvals.fileName).path,
                       setup.folder.appendingPathComponent(project.service.appGroup).appendingPathComponent("cache").path]
        let roots = [project.files] + [try? ConfinedFolder(trusted: setup.templates)].compactMap { $0 }
        let watch = FolderWatch(roots, files: project.xcodeInputs) { path in
            skipped.contains { path == $0 || path.hasPrefix($0 + "/") } || path.hasSuffix("~")
        }
        if watch.capped { log?("serve: more than \(FolderWatch.maxFolders) folders under \(setup.folder.path); edits in the rest are not seen (is a build or node_modules folder inside the project?)") }
        while let paths = watch.next(wake: wake.fd) {
            shared.withLock { $0.state.edited(paths) }
            doorbell.signal()
        }
    }

    private func drawLoop() {
        defer { finished.signal() }
        while true {
            guard let work = shared.withLock({ $0.state.next() }) else { doorbell.wait(); continue }
            switch work {
            case .stop: return
            case .pushes: drawPushes()
            case .edits(let changed):
                let (known, report, project) = shared.withLock { ($0.known, $0.reportShown, $0.project) }
                let paths = changed.filter { known.contains($0) || exists($0) }
                guard !paths.isEmpty else { continue }
                let addedOrRemoved = paths.filter { known.contains($0) != exists($0) }
                let plan = EditPlan.touched(by: paths, addedOrRemoved: addedOrRemoved, project: project, templates: setup.templates, report: report)
                let start = Date()
                if !plan.readProjectAgain { drawFirst(plan) }
                do { try draw(plan, incremental: false) } catch { log?("serve: \(error)") }
                log?("\(plan.payloads.map { "\($0.count) payload\($0.count == 1 ? "" : "s")" } ?? "every payload") drawn again in \(Int(Date().timeIntervalSince(start) * 1000)) ms")
            }
        }
    }

    /// Draws the cards a page shows among those `plan` touches, one per lane, and tells the
    /// pages at once; the whole plan is drawn after.
    private func drawFirst(_ plan: EditPlan) {
        let (told, shown) = shared.withLock { ($0.state.first(among: plan.payloads, limit: LiveState.maxViewing), $0.reportShown) }
        // Only cards the page has: an id that names none draws nothing first.
        let pictures = Dictionary(grouping: (shown?.inputs ?? []).flatMap(\.mockups), by: LiveState.CardKey.init).mapValues { $0.flatMap(\.outputs) }
        let cards = Array(told.filter { pictures[$0] != nil && $0.variant != nil }.prefix(slots.count))
        guard !cards.isEmpty else { return }
        let kept = keepBefore(Set(cards.flatMap { pictures[$0] ?? [] }))
        let project = self.project, options = self.options, out = output.path
        let drawn = ResultsByIndex(cards.count)
        DispatchQueue.concurrentPerform(iterations: cards.count) { i in
            let card = cards[i]
            var one = options
            if let variant = card.variant { one.axes = VariantAxes(only: variant, locales: options.locales) }
            let results = slots[i].render(project.folder.appendingPathComponent(card.payload), project: project, options: one, name: card.payload)
            drawn.set(i, results.filter { $0.errors.isEmpty })
        }
        let written = drawn.items.compactMap { $0 }.flatMap { $0.flatMap(\.outputs) }
            .filter { $0.hasSuffix(".png") && $0.hasPrefix(out + "/") }.map { String($0.dropFirst(out.count + 1)) }
        publish(drawn: Set(written), kept: kept)
    }

    /// Keeps the pictures about to be drawn again as they are now, each a second name of its file
    /// beneath `previous/.staged/` (a hard link: no byte read); `publish` keeps those that changed
    /// as `previous/PATH` and lets the rest go.
    private func keepBefore(_ pictures: Set<String>) -> Set<String> {
        Set(pictures.filter { $0.hasSuffix(".png") && (try? out.link($0, to: Self.staged($0))) != nil })
    }
    static func staged(_ picture: String) -> String { "previous/.staged/" + picture }

    /// Draws what `plan` touches and tells the pages.
    private func draw(_ plan: EditPlan, incremental: Bool) throws {
        if plan.readProjectAgain {
            let read = Result { () throws(ProjectError) in try Project.read(folder: setup.folder, templates: setup.templates, workers: setup.workers) }
            shared.withLock {
                switch read {
                case .success(let (project, findings)): ($0.project, $0.findings, $0.projectError) = (project, findings, nil)
                case .failure(let error): $0.projectError = error.diagnostic
                }
            }
        }
        let (project, findings) = shared.withLock { ($0.project, $0.findings + ($0.projectError.map { [$0] } ?? [])) }
        var run = GalleryRun(project: project, templates: setup.templates, fonts: setup.fonts, options: options)
        run.workers = setup.workers
        run.slots = slots
        run.projectFindings = findings
        run.incremental = incremental
        var kept: Set<String> = []
        if !incremental {
            let only = plan.payloads ?? Set(project.payloadFiles.map { project.relativePath($0) })
            run.only = only
            let shown = shared.withLock { $0.reportShown }
            kept = keepBefore(Set((shown?.inputs ?? []).filter { only.contains($0.payload) }.flatMap(\.mockups).flatMap(\.outputs)))
        }
        let (drawn, _, _) = try run.run()
        let known = Set(project.files.files(limit: Self.maxKnown).files.map { setup.folder.path + "/" + $0 } + InputKey.toolFiles(setup.templates).map(\.url.path))
        // A fresh worker for the next batch: it reads templates and the project anew.
        for slot in slots { slot.finish(); slot.warm() }
        shared.withLock {
            for input in drawn.inputs where !input.mockups.contains(where: { !$0.errors.isEmpty }) { $0.lastGood[input.payload] = input }
            $0.report = drawn
            $0.known = known
        }
        let redrawn = incremental ? nil : plan.payloads
        publish(drawn: redrawn.map { payloads in Set(drawn.inputs.filter { payloads.contains($0.payload) }.flatMap(\.mockups).flatMap(\.outputs)) }, kept: kept)
    }

    /// Files of the project remembered between draws at most (a path edited beyond them is
    /// looked at on disk, as a new one is).
    static let maxKnown = 50_000

    /// Whether a changed path is there now: beneath the project or the Xcode app's repository,
    /// or among the tool's templates.
    private func exists(_ path: String) -> Bool {
        let url = URL(fileURLWithPath: path)
        return project.inputs.exists(url) || (path.hasPrefix(setup.templates.standardizedFileURL.path + "/") && TrustedFiles.exists(url))
    }

    private func drawPushes() {
        while true {
            let batch = shared.withLock { $0.state.pushesShouldYield ? [] : $0.received.pending(slots.count) }
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
            let items = results.items
            shared.withLock { for (i, entry) in batch.enumerated() { $0.received.drawn(entry.name, items[i] ?? []) } }
            publish(drawn: Set(items.compactMap { $0 }.flatMap { $0.flatMap(\.outputs) }))
        }
    }

    /// Builds the page and tells every open page which pictures changed. `drawn`: the pictures
    /// just drawn, the only ones looked at again (by a stat; their bytes are not read back);
    /// nil: every picture the page lists. `kept`: pictures whose file before was kept (staged).
    private func publish(drawn: Set<String>?, kept: Set<String> = []) {
        let (shown, entries, total, collapsed) = shared.withLock { ($0.reportShown, $0.received.entries, $0.received.total, $0.received.collapsed) }
        guard let shown else { return }
        let listed = Set((shown.inputs.flatMap(\.mockups).flatMap(\.outputs) + entries.flatMap { $0.results ?? [] }.flatMap(\.outputs)).filter { $0.hasSuffix(".png") })
        var stamps: [String: String] = [:]
        let known = shared.withLock { $0.state.pictures }
        for png in listed where drawn == nil || drawn!.contains(png) || known[png] == nil {
            if let stamp = out.stamp(png) { stamps[png] = stamp }
        }
        // Sizes for the page's img elements: a header's 24 bytes, read once per new stamp.
        var sizes: [String: (width: Int, height: Int)] = [:]
        for (png, stamp) in stamps where known[png]?.stamp != stamp {
            sizes[png] = (try? out.head(png, count: 24)).flatMap(PNGCodec.size(ofHeader:)) ?? (width: 0, height: 0)
        }
        let (changed, versions, previous, allSizes, endpoint) = shared.withLock { shared in
            let changed = shared.state.drawn(stamps, kept: kept)
            shared.state.keepOnly(listed)
            shared.sizes.merge(sizes) { $1 }
            shared.sizes = shared.sizes.filter { listed.contains($0.key) }
            return (changed, shared.state.versions, shared.state.previous, shared.sizes, shared.endpointNote)
        }
        // What changed keeps its picture before; the rest of what was kept is let go.
        let moved = Set(changed)
        for png in kept {
            if moved.contains(png) { try? out.move(Self.staged(png), to: "previous/" + png) } else { try? out.remove(Self.staged(png)) }
        }
        let live = GalleryPage.Live(versions: versions, previous: previous, sizes: allSizes, approvals: approvalStates(shown),
                                    received: entries, receivedTotal: total, collapsed: collapsed, endpoint: endpoint)
        let html = Array(GalleryPage.html(shown, output: output, live: live).utf8)
        shared.withLock { $0.page = html }
        let list = changed.prefix(200).map { "\"\(GalleryPage.jsonEscaped($0))\"" }.joined(separator: ",")
        hub.publish(event: "changed", data: "{\"pictures\":[\(list)],\"more\":\(max(0, changed.count - 200))}")
    }
}

extension LiveGallery {
    /// Each approved card's state: its pictures' hashes now against those approved. A picture
    /// is read again only when its stamp changed since it was last hashed.
    private func approvalStates(_ shown: GalleryReport) -> [String: Approvals.State] {
        let (approvals, cache, pictures) = shared.withLock { ($0.approvals, $0.approvedHashes, $0.state.pictures) }
        guard !approvals.cards.isEmpty else { return [:] }
        var byCard: [String: [String]] = [:]
        for m in shown.inputs.flatMap(\.mockups) where approvals.cards[LiveState.CardKey(m).id] != nil {
            byCard[LiveState.CardKey(m).id, default: []] += m.outputs.filter { $0.hasSuffix(".png") }
        }
        var fresh: [String: (stamp: String, hash: String)] = [:], states: [String: Approvals.State] = [:]
        for (id, files) in byCard {
            var hashes: [String: String] = [:]
            for png in files {
                let stamp = pictures[png]?.stamp ?? ""
                if let known = cache[png], known.stamp == stamp, !stamp.isEmpty { fresh[png] = known; hashes[png] = known.hash; continue }
                guard let hash = Approvals.hashes([png], in: out)[png] else { continue }
                fresh[png] = (stamp, hash)
                hashes[png] = hash
            }
            states[id] = approvals.state(of: id, hashes: hashes)
        }
        shared.withLock { $0.approvedHashes = fresh }
        return states
    }
}

extension LiveGallery.Shared {
    /// The report as the page shows it: a payload that fails where it drew before shows its last
    /// good pictures with the new errors (a template that no longer parses, with file and line).
    var reportShown: GalleryReport? {
        guard var shown = report else { return nil }
        for (i, input) in shown.inputs.enumerated() where input.outcome == "failed" {
            guard let good = lastGood[input.payload] else { continue }
            var errors: [Diagnostic] = []
            for e in input.mockups.flatMap(\.findings) where e.severity == .error && !errors.contains(e) { errors.append(e) }
            var kept = good
            kept.outcome = "failed"
            kept.mockups = good.mockups.map { m in
                var m = m
                m.findings = m.findings.filter { $0.severity == .warning } + errors
                m.notes = (m.notes ?? []) + ["Showing the last good picture until the errors below are fixed."]
                return m
            }
            shown.inputs[i] = kept
        }
        return shown
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
