import Checked
import Synchronization

/// Pixels a painter makes once per process and every painter then shares: blurred shadow masks,
/// filtered backdrops, large gradients. Bounded (the least recently used go first); what it keeps
/// never changes what is drawn, only how often it is made.
final class RasterCache<Value: Sendable>: Sendable {
    private let state: Mutex<BoundedCache<String, Value>>
    private let cost: @Sendable (Value) -> Int

    /// `cost`: an entry's bytes.
    init(megabytes: Int, cost: @escaping @Sendable (Value) -> Int) {
        state = Mutex(BoundedCache(budget: megabytes << 20))
        self.cost = cost
    }

    /// What `key` names, made by `make` when not kept (or when `usable` refuses what is).
    func value(_ key: String, usable: (Value) -> Bool = { _ in true }, make: () -> Value) -> Value {
        if let kept = state.withLock({ $0.value(key) }), usable(kept) { return kept }
        let made = make()
        state.withLock { $0.insert(made, for: key, cost: cost(made)) }
        return made
    }
}
