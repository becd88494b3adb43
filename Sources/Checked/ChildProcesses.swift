import ConfinedFiles
import Foundation

/// The process groups this process started (render workers, swiftc) and the temporary folders
/// they write in, so that no child outlives its parent. Foundation's `Process` makes each child
/// the leader of a group of its own on Linux, so killing the group also kills what the child
/// started (swiftc's swift-frontend). On SIGINT, SIGTERM or SIGHUP every group is killed and every
/// folder removed, then this process ends as the signal says; a worker tells its supervisor of
/// its groups, which kills them when it stops the worker.
public enum ChildProcesses {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var groups: Set<pid_t> = []
    /// Each folder, with what to do once it is gone (tell git its worktree is), if anything.
    nonisolated(unsafe) private static var folders: [String: (@Sendable () -> Void)?] = [:]
    nonisolated(unsafe) private static var installed = false
    /// The write end of the pipe the signal handler wakes the clean-up thread with.
    nonisolated(unsafe) private static var wake: Int32 = -1
    /// Set in a worker (before any work): told of this process's live groups whenever they change.
    nonisolated(unsafe) public static var report: (@Sendable ([pid_t]) -> Void)?

    /// `group` (a child's pid, its group leader) was started: it is killed if this process is.
    public static func started(_ group: pid_t) {
        let live = lock.withLock { groups.insert(group); installOnce(); return groups.sorted() }
        report?(live)
    }

    /// `group`'s leader has exited and been waited for; anything it left in its group is killed.
    public static func ended(_ group: pid_t) {
        kill(group: group)
        let live = lock.withLock { groups.remove(group); return groups.sorted() }
        report?(live)
    }

    /// How long children have to clean up after SIGTERM, before SIGKILL.
    static let grace = 0.5

    /// Every process of `group`, at once and without a chance to linger.
    public static func kill(group: pid_t) {
        guard group > 1 else { return }
        _ = Foundation.kill(-group, SIGKILL)
    }

    /// A new temporary folder of this process's (under TMPDIR), made and registered in one step
    /// so that it is removed however this process ends (but by SIGKILL), then `afterRemoval` runs.
    /// Once a signal's clean-up has begun none is made: the caller waits for the end it brings
    /// (a folder made after the clean-up's sweep would outlive the process).
    public static func temporaryFolder(_ prefix: String, afterRemoval: (@Sendable () -> Void)? = nil) throws -> URL {
        let made: URL? = try lock.withLock {
            guard !sweeping else { return nil }
            let url = try TrustedFiles.temporaryFolder(prefix)
            folders[url.path] = .some(afterRemoval)
            installOnce()
            return url
        }
        guard let made else { while true { pause() } }
        return made
    }
    /// Set once the clean-up thread takes the folders to remove.
    nonisolated(unsafe) private static var sweeping = false

    /// Runs `body` first when a signal comes, before children are killed (a server closing its
    /// connections and saying it stopped).
    public static func onSignal(_ body: @escaping @Sendable () -> Void) {
        lock.withLock { hooks.append(body); installOnce() }
    }
    nonisolated(unsafe) private static var hooks: [@Sendable () -> Void] = []

    /// Waits for `process` (started, its group registered) while it keeps within `seconds` and
    /// its output (`written()`, in bytes) within `limit`; past either its group is killed. Returns
    /// why it was stopped, or nil. `name` says who ("swiftc", "tree-sitter").
    public static func watch(_ process: Process, name: String, seconds: Double, written: () -> Int, limit: Int) -> String? {
        let started = Date()
        var stopped: String?
        while process.isRunning {
            if Date().timeIntervalSince(started) > seconds { stopped = "\(name) took over \(Int(saturating: seconds)) s" }
            if written() > limit { stopped = "\(name)'s output is over \(limit >> 20) MB" }
            if stopped != nil { kill(group: process.processIdentifier); break }
            usleep(2_000)
        }
        process.waitUntilExit()
        return stopped
    }

    /// Removes the folder now.
    public static func remove(folder: URL) {
        removal.withLock { TrustedFiles.remove(folder) }
        let after = lock.withLock { folders.removeValue(forKey: folder.path) }
        after??()
    }
    /// Held while a folder is removed: the signal's clean-up and the caller's own removal of the
    /// same tree, run at once, each stopped at the entries the other had taken and left the rest.
    private static let removal = NSLock()

    /// The signal being handled, once one came (set by the handler).
    nonisolated(unsafe) private static var signalled: Int32 = 0

    /// Ends the process with `status`, unless a signal came: then the clean-up thread is let
    /// finish and end it by the signal (a caller whose child was just killed by that clean-up
    /// must not win the race with a plain exit status).
    public static func exit(_ status: Int32) -> Never {
        if signalled != 0 { while true { pause() } }
        Foundation.exit(status)
    }

    /// What the clean-up thread does on a signal, before ending the process with it. Children
    /// are asked to stop first (SIGTERM), so a child `pushpreview` cleans up after itself — its
    /// workers' temporary folders too — and killed after `grace` if they have not.
    private static func cleanUp() {
        for hook in lock.withLock({ hooks }) { hook() }
        let g = lock.withLock { groups }
        for group in g where group > 1 { _ = Foundation.kill(-group, SIGTERM) }
        let deadline = Date(timeIntervalSinceNow: grace)
        while Date() < deadline, g.contains(where: { Foundation.kill(-$0, 0) == 0 }) { usleep(10_000) }
        for group in g { kill(group: group) }
        // A child's folders are inside the folder it was given as TMPDIR, so they go with it even
        // when the child was killed before its own clean-up ended.
        let f = lock.withLock { sweeping = true; return folders }
        for (folder, after) in f {
            removal.withLock { TrustedFiles.remove(URL(fileURLWithPath: folder)) }
            after?()
        }
    }

    /// The handlers only write the signal's number to a pipe (all a handler may safely do); a
    /// thread of its own reads it, cleans up and re-raises the signal with its default action.
    /// That thread unblocks the signals: a process started from a Dispatch thread (a test
    /// runner's, a CI agent's) inherits them blocked, and would otherwise never see one.
    private static func installOnce() {
        guard !installed else { return }
        installed = true
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return }
        wake = fds[1]
        let readEnd = fds[0]
        let thread = Thread {
            var mask = sigset_t()
            sigemptyset(&mask)
            for s in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&mask, s) }
            pthread_sigmask(SIG_UNBLOCK, &mask, nil)
            var signal: Int32 = 0
            while read(readEnd, &signal, 4) != 4 {}
            cleanUp()
            Foundation.signal(signal, SIG_DFL)
            raise(signal)
        }
        thread.start()
        for s in [SIGINT, SIGTERM, SIGHUP] {
            Foundation.signal(s) { number in
                var n = number
                ChildProcesses.signalled = number
                _ = write(ChildProcesses.wake, &n, 4)
            }
        }
    }
}

/// What this process is doing now ("reading the Xcode project …"), said as it goes so that a
/// supervisor can tell where a worker that died or was stopped had got to.
public enum Activity {
    /// Set in a worker before any work; nil elsewhere, where saying costs nothing.
    nonisolated(unsafe) public static var report: (@Sendable (String) -> Void)?

    public static func now(_ what: @autoclosure () -> String) {
        guard let report else { return }
        report(what())
    }
}
