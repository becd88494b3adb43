import Payload
import Formats

/// A payload a test builds in code: a Swift (`["aps": ["alert": "Hi"], "id": 5]`) or Objective-C
/// (`@{@"aps": @{@"alert": @"Hi"}, @"id": @5}`) dictionary literal with an `"aps"` key, read from
/// its text as JSON. A value that is not a literal (a variable, a call, an interpolated string) is
/// left out, and said.
struct PayloadLiteral {
    var json: JSONValue
    /// The literal's 1-based line.
    var line: Int
    /// The keys whose value is not a literal (`aps.alert.title`), left out.
    var leftOut: [String]

    static let maxDepth = 32

    /// Every dictionary literal in `bytes` that holds an `"aps"` key, outermost only.
    static func find(in bytes: [UInt8]) -> [PayloadLiteral] {
        var found: [PayloadLiteral] = []
        var opens: [Int] = []
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "/"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "/") || bytes[i + 1] == UInt8(ascii: "*") {
                var r = Reader(bytes: bytes, i: i)
                r.skipSpace()
                i = r.i
                continue
            }
            if b == UInt8(ascii: "\"") {
                var r = Reader(bytes: bytes, i: i)
                let text = r.string()
                var after = r
                after.skipSpace()
                // Swift's `[`, Objective-C's `@{`: a plain `{` opens a body (`case "aps":` in a switch).
                if text == "aps", after.peek == UInt8(ascii: ":"), let open = opens.last, bytes[open] != UInt8(ascii: "{") {
                    var reader = Reader(bytes: bytes, i: open)
                    if case .object(let members)? = reader.value(path: [], depth: 0), members.contains(where: { $0.key == "aps" }) {
                        found.append(PayloadLiteral(json: .object(members), line: bytes[..<open].reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }, leftOut: reader.leftOut))
                        opens.removeAll()
                        i = max(reader.i, i + 1)
                        continue
                    }
                }
                i = max(r.i, i + 1)
                continue
            }
            if b == UInt8(ascii: "[") || b == UInt8(ascii: "{") { opens.append(b == UInt8(ascii: "{") && i > 0 && bytes[i - 1] == UInt8(ascii: "@") ? i - 1 : i) }
            if b == UInt8(ascii: "]") || b == UInt8(ascii: "}"), !opens.isEmpty { opens.removeLast() }
            i += 1
        }
        return found
    }

    /// A recursive-descent reader of literals, over bytes.
    struct Reader {
        let bytes: [UInt8]
        var i: Int
        var leftOut: [String] = []

        var peek: UInt8? { i < bytes.count ? bytes[i] : nil }

        mutating func skipSpace() {
            while i < bytes.count {
                if bytes[i] == 0x20 || bytes[i] == 0x09 || bytes[i] == 0x0A || bytes[i] == 0x0D { i += 1; continue }
                if bytes[i] == UInt8(ascii: "/"), i + 1 < bytes.count {
                    if bytes[i + 1] == UInt8(ascii: "/") { while i < bytes.count, bytes[i] != 0x0A { i += 1 }; continue }
                    if bytes[i + 1] == UInt8(ascii: "*") {
                        i += 2
                        while i + 1 < bytes.count, !(bytes[i] == UInt8(ascii: "*") && bytes[i + 1] == UInt8(ascii: "/")) { i += 1 }
                        i = min(i + 2, bytes.count)
                        continue
                    }
                }
                return
            }
        }

        /// A string literal at `i` (`"…"`, `@"…"`); nil when it interpolates (`\(…)`) or is unterminated.
        mutating func string() -> String? {
            if peek == UInt8(ascii: "@") { i += 1 }
            guard peek == UInt8(ascii: "\"") else { return nil }
            i += 1
            var out: [UInt8] = [], literal = true
            while i < bytes.count, bytes[i] != UInt8(ascii: "\""), bytes[i] != 0x0A {
                if bytes[i] == UInt8(ascii: "\\"), i + 1 < bytes.count {
                    let e = bytes[i + 1]
                    switch e {
                    case UInt8(ascii: "n"): out.append(0x0A)
                    case UInt8(ascii: "t"): out.append(0x09)
                    case UInt8(ascii: "("): literal = false
                    default: out.append(e)
                    }
                    i += 2
                    continue
                }
                out.append(bytes[i])
                i += 1
            }
            guard peek == UInt8(ascii: "\"") else { return nil }
            i += 1
            return literal ? String(decoding: out, as: UTF8.self) : nil
        }

        /// The literal at `i` as JSON; nil (and `i` past the expression) for anything else.
        mutating func value(path: [String], depth: Int) -> JSONValue? {
            skipSpace()
            guard depth < PayloadLiteral.maxDepth, let b = peek else { skipExpression(); return nil }
            let objc = b == UInt8(ascii: "@")
            let next = objc && i + 1 < bytes.count ? bytes[i + 1] : b
            switch next {
            case UInt8(ascii: "\""):
                if let s = string() { return .string(s) }
                skipExpression()
                return nil
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                i += objc ? 2 : 1
                return collection(path: path, depth: depth, close: next == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]"), objc: objc)
            default:
                if objc { i += 1 }
                let start = i
                while i < bytes.count, SourceBytes.continuesIdentifier(bytes[i]) || bytes[i] == UInt8(ascii: ".") || bytes[i] == UInt8(ascii: "-") { i += 1 }
                let word = String(decoding: bytes[start..<i], as: UTF8.self)
                var after = self
                after.skipSpace()
                // A literal ends the value: a name followed by `.member`, `(` or an operator is code.
                if let c = after.peek, ![UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: ";")].contains(c) { skipExpression(); return nil }
                switch word {
                case "true", "YES": return .bool(true)
                case "false", "NO": return .bool(false)
                default:
                    if let n = Double(word), n.isFinite, !word.isEmpty { return .number(n) }
                    return nil
                }
            }
        }

        /// `[k: v, …]`, `[v, …]`, `@{k: v, …}`, `@[v, …]` from past the opening bracket.
        private mutating func collection(path: [String], depth: Int, close: UInt8, objc: Bool) -> JSONValue? {
            var members: [(key: String, value: JSONValue)] = [], items: [JSONValue] = []
            var isDictionary = close == UInt8(ascii: "}")
            while true {
                skipSpace()
                guard let b = peek else { return nil }
                let start = i
                defer { if i == start { i += 1 } } // a stray `)` is passed, never read again
                if b == close { i += 1; break }
                if b == UInt8(ascii: ":"), !objc { i += 1; isDictionary = true; continue } // `[:]`
                let index = items.count + members.count
                var probe = self
                let first = probe.value(path: path + [String(index)], depth: depth + 1)
                probe.skipSpace()
                if probe.peek == UInt8(ascii: ":") {
                    isDictionary = true
                    probe.i += 1
                    let key = first?.string
                    let keyPath = path + [key ?? "?"]
                    let value = probe.value(path: keyPath, depth: depth + 1)
                    self = probe
                    if let key, let value { members.append((key, value)) } else { leftOut.append(keyPath.joined(separator: ".")) }
                } else {
                    self = probe
                    if let first { items.append(first) } else { leftOut.append((path + [String(index)]).joined(separator: ".")) }
                }
                skipSpace()
                if peek == UInt8(ascii: ",") { i += 1 }
                else if peek != close { skipExpression() }
            }
            return isDictionary ? .object(members) : .array(items)
        }

        /// Past an expression that is not a literal: to the `,` or closing bracket that ends it.
        mutating func skipExpression() {
            var depth = 0
            while i < bytes.count {
                let b = bytes[i]
                if b == UInt8(ascii: "\"") { _ = string(); continue }
                if b == UInt8(ascii: "(") || b == UInt8(ascii: "[") || b == UInt8(ascii: "{") { depth += 1 }
                if b == UInt8(ascii: ")") || b == UInt8(ascii: "]") || b == UInt8(ascii: "}") {
                    if depth == 0 { return }
                    depth -= 1
                }
                if b == UInt8(ascii: ","), depth == 0 { return }
                if b == UInt8(ascii: ";"), depth == 0 { return }
                i += 1
            }
        }
    }
}
