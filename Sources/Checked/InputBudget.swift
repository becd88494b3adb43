/// How deep and how much one reading of untrusted input may go. Every reader we wrote (JSON,
/// property lists, YAML, Interface Builder XML, swiftc's AST, Objective-C, build-setting
/// expansion) counts with one of these, so each limit is a number beside its reader and each
/// overrun the same error, which the reader turns into its own with the file and position.
public struct InputBudget: Sendable {
    public let maxDepth: Int
    public let maxSize: Int
    /// What `size` counts, for the message: "values", "bytes", "steps".
    public let unit: String
    /// How deep the reader is now.
    public private(set) var depth = 0
    /// How much has been counted so far: the reader's work counter, which tests read.
    public private(set) var size = 0
    /// The deepest the reader went.
    public private(set) var deepest = 0

    public init(maxDepth: Int, maxSize: Int, unit: String = "values") {
        self.maxDepth = maxDepth
        self.maxSize = maxSize
        self.unit = unit
    }

    /// A limit passed: the one error shape of every budget.
    public struct Exceeded: Error, Sendable, Equatable, CustomStringConvertible {
        public enum Limit: Sendable, Equatable { case depth, size }
        public var limit: Limit
        public var maximum: Int
        public var unit: String
        public var description: String { limit == .depth ? "nested deeper than \(maximum) levels" : "more than \(maximum) \(unit)" }

        public init(limit: Limit, maximum: Int, unit: String) {
            self.limit = limit
            self.maximum = maximum
            self.unit = unit
        }
    }

    /// One level deeper; past `maxDepth` the error, and the depth is unchanged.
    public mutating func enter() throws(Exceeded) {
        guard depth < maxDepth else { throw Exceeded(limit: .depth, maximum: maxDepth, unit: unit) }
        depth += 1
        deepest = Swift.max(deepest, depth)
    }

    /// One level back out (after `enter` succeeded).
    public mutating func leave() { depth = Swift.max(depth - 1, 0) }

    /// `n` more of what the budget counts; past `maxSize` the error (and every later count too).
    public mutating func count(_ n: Int = 1) throws(Exceeded) {
        size = size.addingReportingOverflow(Swift.max(n, 0)).overflow ? .max : size + Swift.max(n, 0)
        guard size <= maxSize else { throw Exceeded(limit: .size, maximum: maxSize, unit: unit) }
    }

    /// True when `n` more would still be within `maxSize` (counted only then).
    public mutating func take(_ n: Int) -> Bool {
        guard n >= 0, n <= maxSize - size else { return false }
        size += n
        return true
    }

    public var isSpent: Bool { size > maxSize }
}
