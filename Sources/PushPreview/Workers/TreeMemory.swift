import ConfinedFiles
import Foundation
import Synchronization

/// Memory as the kernel counts it for a process tree: PSS (proportional set size: a page shared by
/// n processes counts 1/n in each, so shared libraries and copy-on-write pages count once), read
/// from /proc/PID/smaps_rollup. Summed RSS counted every shared page once per process: `--stats`
/// said 2–3× the real figure.
public enum TreeMemory {
    /// `pid` and every process below it (through each thread's children list).
    public static func members(_ pid: Int32) -> [Int32] {
        var out = [pid], next = 0
        while next < out.count {
            for task in TrustedFiles.names(in: URL(fileURLWithPath: "/proc/\(out[next])/task")) {
                let children = TrustedFiles.text(URL(fileURLWithPath: "/proc/\(out[next])/task/\(task)/children")) ?? ""
                out += children.split(separator: " ").compactMap { Int32($0) }
            }
            next += 1
        }
        return out
    }

    /// The process's PSS in kB (nil once it is gone), from smaps_rollup.
    public static func pss(_ pid: Int32) -> Int? {
        guard let rollup = TrustedFiles.text(URL(fileURLWithPath: "/proc/\(pid)/smaps_rollup")),
              let line = rollup.split(separator: "\n").first(where: { $0.hasPrefix("Pss:") }) else { return nil }
        return Int(line.split(separator: " ").dropFirst().first ?? "")
    }

    /// The tree's PSS now, in kB.
    public static func total(_ pid: Int32) -> Int { members(pid).compactMap(pss).reduce(0, +) }

    /// Samples this process's tree every `interval` on a thread of its own until stopped; the
    /// largest total seen is the peak (a worker that lives less than an interval may be missed).
    public final class Sampler: Sendable {
        private let state = Mutex<(peakKB: Int, stopped: Bool)>((0, false))
        private let done = DispatchSemaphore(value: 0)

        public init(interval: TimeInterval = 0.05) {
            let pid = getpid()
            Thread.detachNewThread { [self] in
                while !state.withLock({ $0.stopped }) {
                    let now = TreeMemory.total(pid)
                    state.withLock { $0.peakKB = max($0.peakKB, now) }
                    Thread.sleep(forTimeInterval: interval)
                }
                done.signal()
            }
        }

        /// Stops sampling (after one last sample) and returns the peak in kB.
        public func stop() -> Int {
            let now = TreeMemory.total(getpid())
            state.withLock { $0.peakKB = max($0.peakKB, now); $0.stopped = true }
            done.wait()
            return state.withLock { $0.peakKB }
        }
    }
}
