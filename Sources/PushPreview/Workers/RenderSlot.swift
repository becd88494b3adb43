import Diagnostics
import Foundation
import Rendering
import Typography

/// One of a run's parallel lanes: renders payloads one after another, in a supervised worker it
/// starts (and starts again after one dies), or, without a plan, in this process.
public final class RenderSlot {
    private let plan: WorkerPlan?
    private let templates: URL
    private let fonts: FontSet
    private let pixels: PixelCache
    private var renderer: MockupRenderer?
    private var worker: WorkerProcess?
    /// The peak resident memory of this lane's last worker (kB).
    public private(set) var workerPeakKB = 0

    public init(plan: WorkerPlan?, templates: URL, fonts: FontSet, pixels: PixelCache = PixelCache()) {
        self.plan = plan; self.templates = templates; self.fonts = fonts; self.pixels = pixels
    }

    /// `name` is how results and failures name the payload; `thread`: draw the stack of these
    /// payloads (the last, `file`, the newest) instead.
    public func render(_ file: URL, project: Project, options: RenderOptions, name: String, thread: [URL]? = nil) -> [MockupResult] {
        let failure = { (message: String) in [MockupResult.failed(name, [Diagnostic(.error, code: .worker, message)])] }
        guard let plan else {
            if renderer == nil {
                do { renderer = try MockupRenderer(fonts: fonts, templates: templates, pixelCache: pixels) } catch { return failure("fonts: \(error)") }
            }
            return thread.map { renderer!.renderStack(members: $0, project: project, options: options) }
                ?? renderer!.render(payloadFile: file, project: project, options: options)
        }
        if worker == nil {
            do { try start(plan) } catch { return failure("could not start a render worker (\(plan.executable.path)): \(error)") }
        }
        let results = worker!.render(WorkerJob(payload: file, project: project.folder, options: options, thread: thread, xcode: project.xcodeReading), name: name)
        if worker?.alive != true { worker = nil }
        return results
    }

    private func start(_ plan: WorkerPlan) throws {
        worker = try WorkerProcess(plan, setup: WorkerSetup(templates: templates, fonts: fonts.files, dataLimitMB: plan.memoryMB * 2 + 1024))
    }

    /// Starts a worker now (it loads its fonts while the lane waits for work), so the next
    /// payload is drawn without that wait: a new worker reads the project and templates afresh.
    public func warm() {
        if let plan, worker == nil { try? start(plan) }
    }

    public func finish() {
        worker?.stop()
        workerPeakKB = worker?.peakKB ?? 0
        worker = nil
    }
}
