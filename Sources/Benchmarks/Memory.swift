import Foundation
import PushPreview

// Memory as the kernel counts it: the PSS (proportional set size: a page shared by n processes
// counts 1/n in each, so shared libraries count once) of a `pushpreview gallery` process and
// every process below it, sampled every 20 ms while it runs.

/// The peak PSS of a process tree, in all and per kind of process ("supervisor", "worker", or
/// the executable's name): the largest sum over all processes of the kind at one sample, and the
/// largest single one.
struct PSSPeak {
    var total = 0
    var kinds: [String: (sum: Int, single: Int, seen: Set<Int32>)] = [:]

    var line: String {
        let parts = kinds.sorted { $0.key < $1.key }.map { kind, peak in
            peak.seen.count == 1 ? "\(kind) \(megabytes(peak.single))"
                : "\(peak.seen.count) \(kind)s \(megabytes(peak.sum)) (largest \(megabytes(peak.single)))"
        }
        return "peak PSS \(megabytes(total)) in all: " + parts.joined(separator: ", ")
    }
    func megabytes(_ kB: Int) -> String { String(format: "%.0f MB", Double(kB) / 1024) }
    var largestWorker: Int { kinds["worker"]?.single ?? 0 }
}

enum ProcessTree {
    /// "supervisor" and "worker" for pushpreview's own processes, else the executable's name.
    static func kind(_ pid: Int32) -> String? {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"), !data.isEmpty else { return nil }
        let argv = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        let name = URL(fileURLWithPath: argv[0]).lastPathComponent
        guard name == "pushpreview", argv.count > 1 else { return name }
        return argv[1] == "worker" ? "worker" : "supervisor"
    }

    /// Runs `process` to its end, sampling its tree's PSS every 20 ms.
    static func peakPSS(running process: Process) throws -> PSSPeak {
        try process.run()
        var peak = PSSPeak()
        while process.isRunning {
            var total = 0, sums: [String: Int] = [:]
            for pid in TreeMemory.members(process.processIdentifier) {
                guard let kind = kind(pid), let kB = TreeMemory.pss(pid) else { continue }
                total += kB
                sums[kind, default: 0] += kB
                var known = peak.kinds[kind] ?? (0, 0, [])
                known.single = max(known.single, kB)
                known.seen.insert(pid)
                peak.kinds[kind] = known
            }
            peak.total = max(peak.total, total)
            for (kind, sum) in sums { peak.kinds[kind]!.sum = max(peak.kinds[kind]!.sum, sum) }
            usleep(20_000)
        }
        process.waitUntilExit()
        return peak
    }
}

/// The Examples project (its remote media served on 127.0.0.1:8765, as `make demo` does) copied
/// into `scratch`, with its payloads repeated up to `payloads` files when given (a copy of a
/// thread's member joins the thread).
func examplesProject(root: URL, scratch: URL, payloads: Int?) throws -> URL {
    let fm = FileManager.default
    let folder = scratch.appendingPathComponent("examples-\(payloads.map(String.init) ?? "as-is")")
    try? fm.removeItem(at: folder)
    try fm.copyItem(at: root.appendingPathComponent("Examples"), to: folder)
    try? fm.removeItem(at: folder.appendingPathComponent("app-group/cache"))
    guard let payloads else { return folder }
    let dir = folder.appendingPathComponent("payloads")
    let originals = try fm.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".apns") || $0.hasSuffix(".json") }.sorted()
    for i in originals.count..<payloads {
        let name = originals[i % originals.count], copy = URL(fileURLWithPath: name)
        try fm.copyItem(at: dir.appendingPathComponent(name),
                        to: dir.appendingPathComponent("\(copy.deletingPathExtension().lastPathComponent)-copy\(i).\(copy.pathExtension)"))
    }
    return folder
}

/// User and system time of the children waited for so far (the gallery and, through it, its
/// workers): a steadier measure of work than wall time on a shared machine.
func childrenCPUSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_CHILDREN.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}

/// `gallery` of the Examples project and of 125 and 250 of its payloads, `binary`'s peak PSS.
func memoryBenchmark(root: URL, scratch: URL, binary: URL) throws {
    let server = Process()
    server.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    server.arguments = ["-m", "http.server", "8765", "--bind", "127.0.0.1", "--directory", root.appendingPathComponent("Examples/media").path]
    server.standardOutput = FileHandle.nullDevice
    server.standardError = FileHandle.nullDevice
    try server.run()
    defer { server.terminate(); server.waitUntilExit() }
    usleep(500_000)
    print("memory: `gallery` of the Examples project (its devices, appearances and locales, review views), peak PSS of the supervisor and its workers, \(binary.path):")
    let examples = try examplesProject(root: root, scratch: scratch, payloads: nil)
    let cases: [(URL, Int, String)] = [(examples, 1, "Examples"), (examples, 2, "Examples")]
        + (try [125, 250].flatMap { n in let p = try examplesProject(root: root, scratch: scratch, payloads: n); return [(p, 1, "\(n) payloads"), (p, 2, "\(n) payloads")] })
    var worst = 0
    for (project, jobs, label) in cases {
        let out = scratch.appendingPathComponent("out-\(project.lastPathComponent)-\(jobs)")
        try? FileManager.default.removeItem(at: out)
        let child = Process()
        child.executableURL = binary
        child.arguments = ["gallery", project.path, "--out", out.path, "--jobs", "\(jobs)"]
        child.standardOutput = FileHandle.nullDevice
        child.standardError = FileHandle.nullDevice
        let start = DispatchTime.now().uptimeNanoseconds, cpu = childrenCPUSeconds()
        let peak = try ProcessTree.peakPSS(running: child)
        let wall = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        worst = max(worst, peak.largestWorker)
        print(String(format: "  %-12@ --jobs %d: %5.1f s (%.1f s CPU), exit %d, %@", label, jobs, wall, childrenCPUSeconds() - cpu, child.terminationStatus, peak.line))
        try? FileManager.default.removeItem(at: out)
    }
    print("  largest worker: \(PSSPeak().megabytes(worst))")
    print("target (issue 25): a worker under 150 MB PSS at any job count and any gallery size")
}
