/// What a long run keeps of what it made, within a budget: each entry costs what its caller says
/// (its bytes, usually), and past the budget the least recently used entries go, so memory stays
/// flat however much work a worker is given. An entry costing more than the whole budget is not
/// kept. What a cache holds never changes what is made from it, only how often it is made.
/// Not thread-safe: hold it behind a lock, or in a value only one thread uses.
public struct BoundedCache<Key: Hashable, Value> {
    /// One entry, linked to the next older and the next newer one (slot indices, -1: none).
    private struct Slot { var key: Key; var value: Value; var cost: Int; var older: Int; var newer: Int }

    public let budget: Int
    /// The sum of the kept entries' costs.
    public private(set) var cost = 0
    private var slots: [Slot?] = []
    private var index: [Key: Int] = [:]
    private var free: [Int] = []
    private var oldest = -1, newest = -1

    public init(budget: Int) { self.budget = budget }

    public var count: Int { index.count }

    /// The keys from the least to the most recently used (the order they would be evicted in).
    public var keys: [Key] {
        var out: [Key] = [], at = oldest
        while at >= 0, let slot = slots[at] { out.append(slot.key); at = slot.newer }
        return out
    }

    /// The value for `key`, which becomes the most recently used.
    public mutating func value(_ key: Key) -> Value? {
        guard let at = index[key] else { return nil }
        detach(at)
        link(at)
        return slots[at]!.value
    }

    /// Keeps `value` for `key` (replacing what it had) as the most recently used, then evicts the
    /// least recently used entries until the budget holds; a value costing more than the budget
    /// is not kept at all.
    public mutating func insert(_ value: Value, for key: Key, cost: Int) {
        remove(key)
        guard cost <= budget else { return }
        let slot = Slot(key: key, value: value, cost: max(0, cost), older: -1, newer: -1)
        let at: Int
        if let reused = free.popLast() { at = reused; slots[at] = slot } else { at = slots.count; slots.append(slot) }
        index[key] = at
        self.cost += slot.cost
        link(at)
        while self.cost > budget, oldest >= 0 { remove(slots[oldest]!.key) }
    }

    public mutating func remove(_ key: Key) {
        guard let at = index.removeValue(forKey: key) else { return }
        detach(at)
        cost -= slots[at]!.cost
        slots[at] = nil
        free.append(at)
    }

    public mutating func removeAll() {
        self = BoundedCache(budget: budget)
    }

    /// Takes slot `at` out of the recency list.
    private mutating func detach(_ at: Int) {
        let (older, newer) = (slots[at]!.older, slots[at]!.newer)
        if older >= 0 { slots[older]!.newer = newer } else { oldest = newer }
        if newer >= 0 { slots[newer]!.older = older } else { newest = older }
        slots[at]!.older = -1
        slots[at]!.newer = -1
    }

    /// Puts slot `at` at the newest end of the recency list.
    private mutating func link(_ at: Int) {
        slots[at]!.older = newest
        if newest >= 0 { slots[newest]!.newer = at } else { oldest = at }
        newest = at
    }
}
