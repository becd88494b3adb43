import Checked
import ConfinedFiles
import ContentStage
import Diagnostics
import Foundation
import PushPreview
import Styling
import Typography

enum GalleryCommand {
    static let spec = CommandSpec(
        name: "gallery", synopsis: ["gallery [PROJECT] [options]", "gallery --merge DIR... [--out DIR]"],
        summary: "render a whole project in parallel: Output/index.html and report.json (default PROJECT: Examples)",
        about: """
        Renders every payload of PROJECT (default Examples) for every device, appearance and locale
        asked for, on every core, and writes OUT/index.html (the gallery) and OUT/report.json.
        """,
        positionals: [.init(name: "PROJECT", completes: .folder)],
        options: RenderOptions.sharedOptions(appearances: "both", views: "lockscreen, notification-center (each notification, and each thread's stack, on the Lock Screen or in Notification Center)") + [
            .value("jobs", "N", "parallel workers, 1 to 256 (default: the number of cores)"),
            .value("shard", "I/N", "render only the I-th of N deterministic slices of the payloads (for a CI matrix)"),
            .flag("merge", "join the shard output folders given as arguments into one gallery and report.json (the same bytes one run gives)"),
            .flag("incremental", "keep the mock-ups of payloads whose inputs (the payload, every project file, the repository's templates, the options and the tool version) hash the same as in the last report.json; remote media is not re-fetched to check"),
            .flag("timings", "show service-step timings (output then differs from run to run)"),
            .flag("stats", "print wall time, mock-ups per second and peak memory: the PSS of the supervisor and its workers together, sampled every 50 ms (for make bench)"),
        ],
        exits: [.init(0, "all rendered"), .init(1, "some inputs failed or the project has errors (listed in the gallery)"),
                .init(2, "usage (an unknown option or device, a bad value)")])

    static func run(_ argv: [String]) -> Int32 {
        let a: Arguments
        var options: RenderOptions
        var jobs = ProcessInfo.processInfo.activeProcessorCount
        var shard: (Int, Int)?
        var plan: WorkerPlan
        do {
            a = try Arguments(argv, Self.spec)
            if a.flags.contains("merge") {
                guard !a.positionals.isEmpty else { throw Arguments.UsageError(description: "--merge needs the shard output folders") }
            } else if a.positionals.count > 1 { throw Arguments.UsageError(description: "give one PROJECT folder") }
            options = try RenderOptions(a, defaultAppearances: [.light, .dark])
            options.reviewVariants = true
            plan = try WorkerPlan(a)
            if let j = a.value("jobs") {
                guard let n = Int(j), n >= 1, n <= 256 else { throw Arguments.UsageError(description: "--jobs takes a number from 1 to 256") }
                jobs = n
            }
            shard = try a.shard()
        } catch { return usageError(Self.spec, error) }

        if a.flags.contains("merge") {
            do {
                let report = try GalleryMerge.merge(a.positionals.map { URL(fileURLWithPath: $0) }, into: options.outputFolder)
                printError("merged \(a.positionals.count) shards: \(report.summary.payloads) payloads, \(report.summary.mockups) mock-ups → \(options.outputFolder.path)/index.html")
                return report.summary.failed > 0 ? 1 : 0
            } catch {
                printError("pushpreview gallery --merge: \(error)")
                return 1
            }
        }
        guard let templates = repositoryTemplatesOrExplain() else { return 1 }
        let project: Project
        let findings: [Diagnostic]
        let fonts: FontSet
        do {
            (project, findings) = try Project.read(folder: URL(fileURLWithPath: a.positionals.first ?? "Examples"), templates: templates, workers: plan)
            fonts = try FontSet.standard(extraDirectories: a.list("font-dir"))
        } catch {
            printError("pushpreview gallery: \(error)")
            return 1
        }
        options.axes.fill(from: project)
        var run = GalleryRun(project: project, templates: templates, fonts: fonts, options: options)
        run.jobs = jobs
        run.workers = plan
        run.projectFindings = findings
        run.shard = shard
        run.incremental = a.flags.contains("incremental")
        run.timings = a.flags.contains("timings")
        let catalog: [DeviceProfile]
        do { catalog = try MockupRenderer.deviceCatalog(templates: templates, project: project) } catch {
            printError("pushpreview gallery: \(error)")
            return 1
        }
        if let unknown = options.devices.first(where: { id in !catalog.contains { $0.id == id } }) {
            printError("pushpreview gallery: unknown device '\(unknown)'; see: pushpreview devices")
            return 2
        }
        let line = ProgressLine()
        let start = Date()
        let memory = a.flags.contains("stats") ? TreeMemory.Sampler() : nil
        do {
            let (report, kept, _) = try run.run { line.update($0) }
            line.finish()
            for issue in report.projectDiagnostics ?? [] { printError(issue.printed) }
            let projectErrors = (report.projectDiagnostics ?? []).contains { $0.severity == .error }
            let s = report.summary
            let failed = s.failed > 0 ? line.red("\(s.failed) failed") : "0 failed"
            let unchanged = run.incremental ? " (\(kept) payloads unchanged, kept)" : ""
            printError("\(s.payloads) payloads, \(s.mockups) mock-ups\(unchanged), \(failed), \(s.withWarnings) with warnings → \(options.outputFolder.path)/index.html")
            if a.flags.contains("stats") {
                let wall = Date().timeIntervalSince(start)
                let combos = report.inputs.flatMap(\.mockups).map { "\($0.payload)|\($0.device)|\($0.appearance)|\($0.locale ?? "")" }
                let peak = memory?.stop() ?? 0
                print(String(format: "stats: wall %.2f s, %d notifications (payload × device × appearance × locale), %d PNG mock-ups, peak PSS %.1f MB (the supervisor and its workers together), jobs %d",
                             wall, Set(combos).count, s.mockups, Double(peak) / 1024, jobs))
            }
            return s.failed > 0 || projectErrors ? 1 : 0
        } catch {
            line.finish()
            printError("pushpreview gallery: \(error)")
            return 1
        }
    }
}

/// The progress line on a terminal: count, rate and time left, redrawn in place. Silent when
/// standard error is not a terminal; no colour when NO_COLOR is set.
final class ProgressLine: @unchecked Sendable {
    private let lock = NSLock()
    private let enabled = isatty(2) != 0
    private let colour = isatty(2) != 0 && ProcessInfo.processInfo.environment["NO_COLOR"].map(\.isEmpty) ?? true
    private var drawn = false

    func update(_ p: GalleryRun.Progress) {
        guard enabled else { return }
        lock.withLock {
            let rate = p.elapsed > 0 ? Double(p.done) / p.elapsed : 0
            let left = rate > 0 ? Double(p.total - p.done) / rate : 0
            FileHandle.standardError.write(Data("\r\u{1B}[K\(p.done)/\(p.total) payloads · \(String(format: "%.1f", rate))/s · \(Int(saturating: left, rounded: .toNearestOrAwayFromZero)) s left".utf8))
            drawn = true
        }
    }

    func finish() { lock.withLock { if drawn { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) } } }
    func red(_ s: String) -> String { colour ? "\u{1B}[31m\(s)\u{1B}[0m" : s }
}
