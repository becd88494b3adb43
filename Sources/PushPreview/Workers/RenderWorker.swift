import Checked
import Foundation
import Typography

/// `pushpreview worker`: the process a supervisor renders in. It sets up fonts and caches once,
/// then renders the payloads it is sent, one at a time (or, set up without fonts, does one
/// `ContainedTask`), and says what it is doing as it goes, so
/// that when our code (or a C library) traps, hangs or runs out of memory on an input, only that
/// payload is lost and the supervisor can say where it died.
public enum RenderWorker {
    /// Serves jobs from standard input until it closes. Standard output is kept for messages;
    /// anything else printed goes to standard error.
    public static func serve() -> Int32 {
        let out = LineChannel(fd: dup(1))
        dup2(2, 1)
        let input = LineChannel(fd: 0)
        guard case .line(let first) = input.readLine(), let setup = input.decode(WorkerSetup.self, first) else {
            FileHandle.standardError.write(Data("pushpreview worker: expected a setup line on standard input\n".utf8))
            return 2
        }
        // A sanitizer build maps terabytes of shadow memory up front: no data limit there (the
        // supervisor's watch on resident memory still applies).
        if dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__asan_init") == nil && dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__tsan_init") == nil {
            var limit = rlimit(rlim_cur: rlim_t(setup.dataLimitMB) << 20, rlim_max: rlim_t(setup.dataLimitMB) << 20)
            setrlimit(Int32(RLIMIT_DATA.rawValue), &limit)
        }
        Activity.report = { activity in
            out.send(WorkerNote(activity: activity))
            TestFault.inject(activity: activity)
        }
        ChildProcesses.report = { out.send(WorkerNote(children: $0)) }
        guard let templates = setup.templates else {
            guard case .line(let line) = input.readLine(), let task = input.decode(ContainedTask.self, line) else { return 2 }
            return task.perform(replyingOn: out) ? 0 : 1
        }
        let renderer: MockupRenderer
        do { renderer = try MockupRenderer(fonts: FontSet(files: setup.fonts ?? []), templates: templates) } catch {
            FileHandle.standardError.write(Data("pushpreview worker: \(error)\n".utf8))
            return 1
        }
        renderer.activity = { Activity.now($0) }
        var projects: [URL: Result<Project, ProjectError>] = [:]
        while case .line(let line) = input.readLine() {
            guard let job = input.decode(WorkerJob.self, line) else { return 2 }
            TestFault.inject(payload: job.payload)
            if projects[job.project] == nil {
                projects[job.project] = Result { () throws(ProjectError) in
                    guard let reading = job.xcode else { return try Project(folder: job.project) }
                    return try Project(folder: job.project) { _, _ in reading }
                }
            }
            let results: [MockupResult]
            switch projects[job.project]! {
            case .success(let project):
                results = job.thread.map { renderer.renderStack(members: $0, project: project, options: job.options) }
                    ?? renderer.render(payloadFile: job.payload, project: project, options: job.options)
            case .failure(let error):
                results = [.failed(job.payload.path, [error.diagnostic])]
            }
            guard out.send(WorkerMessage(reply: results)) else { return 1 }
        }
        return 0
    }
}

/// For the containment tests only: `PUSHPREVIEW_TEST_FAULT=trap:NAME` (or `hang:NAME`,
/// `memory:NAME`) makes the worker trap, hang or grow without bound on the payload file NAME, or
/// when it starts on the file NAME (an activity ending in its path: a storyboard, a template).
enum TestFault {
    static func inject(payload: URL) { inject(file: payload.lastPathComponent) }

    static func inject(activity: String) {
        guard let last = activity.split(separator: " ").last, last.contains("/") else { return }
        inject(file: URL(fileURLWithPath: String(last)).lastPathComponent)
    }

    static func inject(file name: String) {
        guard let spec = ProcessInfo.processInfo.environment["PUSHPREVIEW_TEST_FAULT"] else { return }
        let parts = spec.split(separator: ":", maxSplits: 1).map(String.init)
        guard parts.count == 2, parts[1] == name else { return }
        switch parts[0] {
        case "trap": let empty: [Int] = []; _ = empty[name.count]
        case "hang": while true { sleep(1) }
        case "memory":
            var hoard: [[UInt8]] = []
            while hoard.count >= 0 { hoard.append([UInt8](repeating: 1, count: 16 << 20)) }
        default: break
        }
    }
}
