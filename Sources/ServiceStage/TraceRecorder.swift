import Foundation

/// Collects trace steps from the extension's threads; frozen once the stage is over, so a
/// straggling thread (after expiry) cannot change what was reported.
final class TraceRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var steps: [ServiceTrace.Step] = []
    private var frozen = false
    private(set) var mediaFailed = false
    private(set) var deliveredOriginal = false

    func add(_ step: ServiceTrace.Step, mediaFailed: Bool = false, original: Bool = false) {
        lock.withLock {
            guard !frozen else { return }
            steps.append(step)
            if mediaFailed { self.mediaFailed = true }
            if original { deliveredOriginal = true }
        }
    }

    /// Times `body` and records its step.
    func time<T>(_ name: String, _ body: () -> (T, outcome: String, bytes: Int, message: String, mediaFailed: Bool)) -> T {
        let start = Date()
        let r = body()
        add(.init(step: name, outcome: r.outcome, ms: (Date().timeIntervalSince(start) * 10_000).rounded() / 10, bytes: r.bytes, message: r.message),
            mediaFailed: r.mediaFailed)
        return r.0
    }

    func freeze() -> (steps: [ServiceTrace.Step], mediaFailed: Bool, original: Bool) {
        lock.withLock {
            frozen = true
            return (steps, mediaFailed, deliveredOriginal)
        }
    }
}
