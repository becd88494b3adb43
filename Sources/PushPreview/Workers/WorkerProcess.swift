import Checked
import ConfinedFiles
import Diagnostics
import Foundation

/// Supervised worker processes to render in (the command line's way): the executable that serves
/// `worker` (pushpreview itself) and the limits on one payload (`--timeout`, `--max-memory`).
public struct WorkerPlan: Sendable {
    public var executable: URL
    /// Seconds one payload may take, every device, appearance and locale included.
    public var seconds: Double = 120
    /// Resident memory a worker may reach, in MB.
    public var memoryMB: Int = 1024
    public init(executable: URL) { self.executable = executable }
}

/// The supervisor's handle on one worker (`pushpreview worker`): sends it a job, waits for its
/// reply within the limits, and when the worker dies or is killed says why and where. The worker
/// runs in a process group and a temporary folder (its TMPDIR) of its own; whatever way it ends,
/// its group and the groups it reported (swiftc) are killed and its folder removed. A dead worker
/// is not reused; the caller starts another.
final class WorkerProcess {
    private let process = Process()
    private let requests: LineChannel
    private let replies: LineChannel
    private let folder: URL
    private let log: URL
    /// The worker's own temporary folder (its TMPDIR), held open.
    private let own: ConfinedFolder
    private let limits: WorkerPlan
    /// The process groups the worker said it has running.
    private var children: [Int32] = []
    private(set) var alive = true
    /// The worker's peak resident memory (kB), read when it stops.
    private(set) var peakKB = 0

    init(_ plan: WorkerPlan, setup: WorkerSetup) throws {
        signal(SIGPIPE, SIG_IGN)
        limits = plan
        let stdin = Pipe(), stdout = Pipe()
        let own = try ConfinedFolder(trusted: ChildProcesses.temporaryFolder("pushpreview-worker-\(getpid())"), links: .refused)
        let folder = own.url
        self.folder = folder
        self.own = own
        log = folder.appendingPathComponent("stderr.log")
        process.executableURL = plan.executable
        process.arguments = ["worker"]
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"  // a trap is reported here; the runtime's backtracer takes seconds
        environment["TMPDIR"] = folder.path
        process.environment = environment
        process.standardInput = stdin
        process.standardOutput = stdout
        logHandle = try own.create("stderr.log")
        process.standardError = logHandle
        do { try process.run() } catch {
            ChildProcesses.remove(folder: folder)
            throw error
        }
        ChildProcesses.started(process.processIdentifier)
        requests = LineChannel(fd: stdin.fileHandleForWriting.fileDescriptor)
        replies = LineChannel(fd: stdout.fileHandleForReading.fileDescriptor)
        requests.send(setup)
        self.stdin = stdin
        self.stdout = stdout
    }
    private let stdin: Pipe, stdout: Pipe
    private let logHandle: FileHandle

    /// The payload's results, or one failed result naming how the worker died and what it was doing.
    func render(_ job: WorkerJob, name: String) -> [MockupResult] {
        switch exchange(job, [MockupResult].self, activity: "reading the payload") {
        case .success(let results): return results
        case .failure(let failure):
            return [.failed(name, [Diagnostic(.error, code: .worker, "\(failure); the other payloads are not affected")])]
        }
    }

    /// Sends `job` and waits for the reply, or says how the worker died or was stopped and what it
    /// was doing then (`activity` until it says otherwise).
    func exchange<Job: Encodable, Reply: Codable>(_ job: Job, _: Reply.Type, activity start: String) -> Result<Reply, WorkerFailure> {
        let logStart = { if case .file(let n)? = own.kind("stderr.log") { return n } else { return 0 } }()
        var activity = start
        let deadline = Date().addingTimeInterval(limits.seconds)
        var stopped: String?
        if requests.send(job) {
            reading: while true {
                switch replies.readLine(check: { self.limitReached(deadline: deadline) }) {
                case .line(let line):
                    guard let message = replies.decode(WorkerMessage<Reply>.self, line) else { stopped = "sent a line that is not a message"; break reading }
                    if let reply = message.reply { return .success(reply) }
                    if let a = message.activity { activity = a }
                    if let c = message.children { adopt(c) }
                case .stopped(let reason): stopped = reason; break reading
                case .closed: break reading
                }
            }
        }
        let reason: String
        if let stopped {
            ChildProcesses.kill(group: process.processIdentifier)
            process.waitUntilExit()
            reason = "stopped: \(stopped)"
        } else { reason = death(logStart: logStart) }
        alive = false
        cleanUp()
        return .failure(WorkerFailure(reason: reason, activity: activity))
    }

    /// Closes the worker's input and waits for it to finish.
    func stop() {
        guard alive else { return }
        peakKB = Self.status(process.processIdentifier, "VmHWM:")
        try? stdin.fileHandleForWriting.close()  // the worker's cue to finish
        process.waitUntilExit()
        alive = false
        cleanUp()
    }

    /// The budget counts the worker's whole tree: its own group and every group it started
    /// (swiftc, whose swift-frontend grew to gigabytes while the worker alone stayed small).
    private func limitReached(deadline: Date) -> String? {
        if !process.isRunning { return nil }
        if Date() > deadline { return "took longer than \(Self.seconds(limits.seconds)) (--timeout)" }
        let kB = children.isEmpty ? Self.status(process.processIdentifier, "VmRSS:") : Self.residentKB(groups: [process.processIdentifier] + children)
        if kB > limits.memoryMB * 1024 {
            return "used more than \(limits.memoryMB) MB of memory (--max-memory" + (children.isEmpty ? ")" : ", swiftc's included: \(kB >> 10) MB when stopped)")
        }
        return nil
    }

    /// The resident memory of every process in `groups` (process groups), in kB, from /proc.
    static func residentKB(groups: [Int32]) -> Int {
        let wanted = Set(groups), page = Int(sysconf(Int32(_SC_PAGESIZE))) / 1024
        var total = 0
        for name in TrustedFiles.names(in: URL(fileURLWithPath: "/proc")) where name.first?.isNumber == true {
            // pid (comm) state ppid pgrp … rss is the 22nd field after the command's ")".
            guard let stat = TrustedFiles.text(URL(fileURLWithPath: "/proc/\(name)/stat")), let close = stat.lastIndex(of: ")") else { continue }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 22, let group = Int32(fields[2]), wanted.contains(group), let pages = Int(fields[21]) else { continue }
            total += pages * page
        }
        return total
    }

    /// How the worker ended, with the last line it wrote to standard error (a trap's message).
    private func death(logStart: Int) -> String {
        process.waitUntilExit()
        let how = process.terminationReason == .uncaughtSignal
            ? "crashed: \(Self.signalName(process.terminationStatus))" : "exited with status \(process.terminationStatus)"
        let log = (try? own.read("stderr.log", limit: 64 << 20)).map { String(decoding: $0.dropFirst(logStart), as: UTF8.self) } ?? ""
        // The trap's message, else the last line that is not a frame of the stack dump after it.
        let lines = log.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let said = lines.last { $0.contains("Fatal error") } ?? lines.last { !($0.first?.isNumber ?? true) && !$0.hasPrefix("Stack dump") }
        return how + (said.map { " (\($0.prefix(300)))" } ?? "")
    }

    /// The worker's groups (swiftc) are this process's too: killed if it is, or when the worker dies.
    private func adopt(_ groups: [Int32]) {
        for group in groups where !children.contains(group) { ChildProcesses.started(group) }
        for group in children where !groups.contains(group) { ChildProcesses.ended(group) }
        children = groups
    }

    /// Every descriptor this handle opened is closed (a long run replaces many dead workers), and
    /// nothing the worker started is left running or on disk.
    private func cleanUp() {
        ChildProcesses.ended(process.processIdentifier)
        adopt([])
        try? logHandle.close()
        try? stdin.fileHandleForWriting.close()
        try? stdout.fileHandleForReading.close()
        ChildProcesses.remove(folder: folder)
    }

    static func status(_ pid: Int32, _ field: String) -> Int {
        guard let text = TrustedFiles.text(URL(fileURLWithPath: "/proc/\(pid)/status")),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix(field) }) else { return 0 }
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    static func signalName(_ n: Int32) -> String {
        let names: [Int32: String] = [SIGILL: "SIGILL", SIGTRAP: "SIGTRAP", SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGFPE: "SIGFPE",
                                      SIGSEGV: "SIGSEGV", SIGKILL: "SIGKILL", SIGTERM: "SIGTERM", SIGXCPU: "SIGXCPU"]
        return names[n] ?? "signal \(n)"
    }

    static func seconds(_ s: Double) -> String { s == s.rounded() ? "\(Int(saturating: s)) s" : "\(s) s" }
}

/// Why a worker gave no reply: how it died or why it was stopped, and what it was doing then.
public struct WorkerFailure: Error, CustomStringConvertible {
    public var reason: String
    public var activity: String
    public var description: String { "\(reason) while \(activity)" }
}
