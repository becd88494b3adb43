import Checked
import Foundation

/// `calc()`, `min()`, `max()` and `clamp()` (CSS Values 4 §10): a tree of points and
/// percentages, resolved once layout knows what percentages refer to. Font-relative units are
/// points already; a sum with no percentage in it is folded into a plain length when read.
public indirect enum CalcExpression: Sendable, Hashable {
    case points(Double)
    case percent(Double)
    case number(Double)
    case sum(CalcExpression, CalcExpression)
    case product(CalcExpression, CalcExpression)
    case quotient(CalcExpression, CalcExpression)
    case minimum([CalcExpression])
    case maximum([CalcExpression])

    /// The value against `base` (nil where a percentage has nothing to refer to).
    public func resolve(_ base: Double?) -> Double? {
        switch self {
        case .points(let p), .number(let p): return p
        case .percent(let p): return base.map { $0 * p / 100 }
        case .sum(let a, let b): return a.resolve(base).flatMap { x in b.resolve(base).map { x + $0 } }
        case .product(let a, let b): return a.resolve(base).flatMap { x in b.resolve(base).map { (x * $0).clampedLength } }
        case .quotient(let a, let b):
            guard let x = a.resolve(base), let y = b.resolve(base), y != 0 else { return nil }
            return (x / y).clampedLength
        case .minimum(let xs): return xs.reduce(Double?.some(.infinity)) { m, x in m.flatMap { m in x.resolve(base).map { min(m, $0) } } }
        case .maximum(let xs): return xs.reduce(Double?.some(-.infinity)) { m, x in m.flatMap { m in x.resolve(base).map { max(m, $0) } } }
        }
    }

    var hasPercent: Bool {
        switch self {
        case .percent: return true
        case .points, .number: return false
        case .sum(let a, let b), .product(let a, let b), .quotient(let a, let b): return a.hasPercent || b.hasPercent
        case .minimum(let xs), .maximum(let xs): return xs.contains { $0.hasPercent }
        }
    }

    /// Parses `calc(…)`, `min(…)`, `max(…)` or `clamp(…)`; `unit` reads one dimension token
    /// (a length or percentage, already in points). Nil for anything malformed.
    static func parse(_ text: String, unit: @escaping (String) -> Length?) -> CalcExpression? {
        var parser = CalcParser(tokens: CalcParser.tokenize(text), unit: unit)
        guard let e = parser.function(), parser.atEnd else { return nil }
        return e
    }
}

/// A math function as a `Length` holds it: a number into a process-wide table where each
/// distinct expression is stored once. Length stays a plain value, so the cascade copies styles
/// without reference counting; equal expressions get equal references.
public struct CalcReference: Sendable, Hashable {
    let index: Int
    public var expression: CalcExpression { CalcTable.shared.expression(index) }
    public func resolve(_ base: Double?) -> Double? { expression.resolve(base)?.clampedLength }

    /// Nil once the table holds `CalcTable.limit` distinct expressions (the value is refused).
    static func intern(_ e: CalcExpression) -> CalcReference? { CalcTable.shared.intern(e).map(CalcReference.init) }
}

final class CalcTable: @unchecked Sendable {
    static let shared = CalcTable()
    static let limit = 100_000
    private let lock = NSLock()
    private var expressions: [CalcExpression] = []
    private var indices: [CalcExpression: Int] = [:]

    func intern(_ e: CalcExpression) -> Int? {
        lock.withLock {
            if let known = indices[e] { return known }
            guard expressions.count < Self.limit else { return nil }
            expressions.append(e)
            indices[e] = expressions.count - 1
            return expressions.count - 1
        }
    }
    func expression(_ index: Int) -> CalcExpression { lock.withLock { expressions[index] } }
}

/// A recursive-descent reader over the tokens of one math function, depth-limited.
private struct CalcParser {
    var tokens: [String]
    var index = 0
    var depth = 0
    let unit: (String) -> Length?
    var atEnd: Bool { index == tokens.count }

    init(tokens: [String], unit: @escaping (String) -> Length?) { self.tokens = tokens; self.unit = unit }

    static func tokenize(_ text: String) -> [String] {
        var out: [String] = [], current = ""
        func flush() { if !current.isEmpty { out.append(current); current = "" } }
        for c in text.lowercased() {
            if c == "(" { current.append(c); flush() }
            else if c == ")" || c == "," || c == "*" || c == "/" { flush(); out.append(String(c)) }
            else if c.isWhitespace { flush() }
            // `+` and `-` are operators only with space around them (§10.1); `-5px` is a number.
            else { current.append(c) }
        }
        flush()
        return out
    }

    mutating func next() -> String? { guard index < tokens.count else { return nil }; defer { index += 1 }; return tokens[index] }
    func peek() -> String? { index < tokens.count ? tokens[index] : nil }

    /// calc( sum ) | min( sum, … ) | max( sum, … ) | clamp( sum, sum, sum )
    mutating func function() -> CalcExpression? {
        guard depth < 32, let name = next(), name.hasSuffix("(") else { return nil }
        depth += 1
        defer { depth -= 1 }
        var arguments: [CalcExpression] = []
        repeat {
            guard let e = sum() else { return nil }
            arguments.append(e)
        } while peek() == "," && next() != nil
        guard next() == ")" else { return nil }
        switch name {
        case "calc(", "(": return arguments.count == 1 ? arguments[0] : nil
        case "min(": return .minimum(arguments)
        case "max(": return .maximum(arguments)
        case "clamp(": return arguments.count == 3 ? .maximum([arguments[0], .minimum([arguments[1], arguments[2]])]) : nil
        default: return nil
        }
    }

    mutating func sum() -> CalcExpression? {
        guard var e = product() else { return nil }
        while let op = peek(), op == "+" || op == "-" {
            index += 1
            guard let rhs = product() else { return nil }
            e = .sum(e, op == "+" ? rhs : .product(.number(-1), rhs))
        }
        return e
    }

    mutating func product() -> CalcExpression? {
        guard var e = value() else { return nil }
        while let op = peek(), op == "*" || op == "/" {
            index += 1
            // The divisor is a number (§10.8), and not zero.
            guard let rhs = value(), op == "*" || (!rhs.hasPercent && rhs.resolve(nil).map { $0 != 0 && $0.isFinite } == true) else { return nil }
            e = op == "*" ? .product(e, rhs) : .quotient(e, rhs)
        }
        return e
    }

    mutating func value() -> CalcExpression? {
        guard let t = peek() else { return nil }
        if t.hasSuffix("(") { return function() }
        index += 1
        if let n = Double(decimal: t) { return .number(n) }
        switch unit(t) {
        case .points(let p)?: return .points(p)
        case .percent(let p)?: return .percent(p)
        default: return nil
        }
    }
}
