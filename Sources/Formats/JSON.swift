import Checked

/// A JSON value with object keys in file order. Our own parser so that errors carry a line and
/// column, and `true` never turns into `1` (Foundation's parser on Linux blurs the two).
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([(key: String, value: JSONValue)])

    public static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.number(let x), .number(let y)): return x == y
        case (.string(let x), .string(let y)): return x == y
        case (.array(let x), .array(let y)): return x == y
        case (.object(let x), .object(let y)): return x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }

    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members.last { $0.key == key }?.value }
        return nil
    }

    /// The JSON type's name, for messages ("expected string, got number").
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .number: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }

    public var string: String? { if case .string(let s) = self { return s }; return nil }
    /// An object's members in file order; none for any other value.
    public var objectMembers: [(key: String, value: JSONValue)] { if case .object(let m) = self { return m }; return [] }
    public var number: Double? { if case .number(let n) = self { return n }; return nil }

    /// Compact serialization (no spaces), as APNs counts a payload's size.
    public var compact: String {
        switch self {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number(let n): return n == n.rounded() && abs(n) < 1e15 ? String(Int(n)) : "\(n)"
        case .string(let s): return JSONValue.quote(s)
        case .array(let items): return "[" + items.map(\.compact).joined(separator: ",") + "]"
        case .object(let members): return "{" + members.map { JSONValue.quote($0.key) + ":" + $0.value.compact }.joined(separator: ",") + "}"
        }
    }

    /// Readable serialization for files people edit: two-space indents, an object's members a
    /// line each, a short array of plain values on one line, a trailing newline. Keys stay in order.
    public var pretty: String { pretty(indent: "") + "\n" }

    func pretty(indent: String) -> String {
        let inner = indent + "  "
        switch self {
        case .array(let items) where items.isEmpty: return "[]"
        case .object(let members) where members.isEmpty: return "{}"
        case .array(let items):
            let plain = items.allSatisfy { if case .array = $0 { return false }; if case .object = $0 { return false }; return true }
            if plain, items.map(\.compact).joined(separator: ", ").count <= 72 { return "[" + items.map(\.compact).joined(separator: ", ") + "]" }
            return "[\n" + items.map { inner + $0.pretty(indent: inner) }.joined(separator: ",\n") + "\n" + indent + "]"
        case .object(let members):
            return "{\n" + members.map { inner + JSONValue.quote($0.key) + ": " + $0.value.pretty(indent: inner) }.joined(separator: ",\n") + "\n" + indent + "}"
        default: return compact
        }
    }

    static func quote(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where u.value < 0x20: out += "\\u" + String(u.value, radix: 16).leftPadded(4)
            default: out.unicodeScalars.append(u)
            }
        }
        return out + "\""
    }
}

public struct JSONError: Error, Equatable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var column: Int
    public var message: String
    public var description: String { "\(file):\(line):\(column): \(message)" }
}

public enum JSONParser {
    public static let maxDepth = 64

    public static func parse(_ bytes: [UInt8], file: String) throws(JSONError) -> JSONValue {
        var p = Parser(bytes: bytes, file: file)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { p.i = 3 }
        p.skipSpace()
        let value = try p.value()
        p.skipSpace()
        guard p.i == bytes.count else { throw p.error("unexpected text after the JSON value") }
        return value
    }

    struct Parser {
        let bytes: [UInt8]
        let file: String
        var i = 0
        var budget = InputBudget(maxDepth: JSONParser.maxDepth, maxSize: .max)

        func error(_ message: String) -> JSONError {
            var line = 1, column = 1
            // A byte-order mark is invisible in editors: positions start after it.
            let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
            for b in bytes[start..<max(start, min(i, bytes.count))] { if b == 10 { line += 1; column = 1 } else if b & 0xC0 != 0x80 { column += 1 } }
            return JSONError(file: file, line: line, column: column, message: message)
        }

        mutating func skipSpace() { while i < bytes.count, [9, 10, 13, 32].contains(bytes[i]) { i += 1 } }

        mutating func value() throws(JSONError) -> JSONValue {
            do { try budget.enter() } catch { throw self.error(error.description) }
            defer { budget.leave() }
            guard i < bytes.count else { throw error("unexpected end of file: a value is missing") }
            switch bytes[i] {
            case UInt8(ascii: "{"):
                i += 1
                var members: [(key: String, value: JSONValue)] = []
                skipSpace()
                if i < bytes.count, bytes[i] == UInt8(ascii: "}") { i += 1; return .object(members) }
                while true {
                    skipSpace()
                    guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw error("expected a \"key\" in double quotes") }
                    let key = try string()
                    skipSpace()
                    guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw error("expected : after \"\(key)\"") }
                    i += 1
                    skipSpace()
                    members.append((key, try value()))
                    skipSpace()
                    guard i < bytes.count else { throw error("unexpected end of file: } is missing") }
                    if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                    if bytes[i] == UInt8(ascii: "}") { i += 1; return .object(members) }
                    throw error("expected , or } after the value of \"\(key)\"")
                }
            case UInt8(ascii: "["):
                i += 1
                var items: [JSONValue] = []
                skipSpace()
                if i < bytes.count, bytes[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
                while true {
                    skipSpace()
                    items.append(try value())
                    skipSpace()
                    guard i < bytes.count else { throw error("unexpected end of file: ] is missing") }
                    if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                    if bytes[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
                    throw error("expected , or ] in the array")
                }
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): return try literal("true", .bool(true))
            case UInt8(ascii: "f"): return try literal("false", .bool(false))
            case UInt8(ascii: "n"): return try literal("null", .null)
            default: return try number()
            }
        }

        mutating func literal(_ word: String, _ value: JSONValue) throws(JSONError) -> JSONValue {
            let w = Array(word.utf8)
            guard bytes.count - i >= w.count, Array(bytes[i..<i + w.count]) == w else { throw error("unexpected text; expected a JSON value") }
            i += w.count
            return value
        }

        mutating func number() throws(JSONError) -> JSONValue {
            let start = i
            while i < bytes.count, "+-0123456789.eE".utf8.contains(bytes[i]) { i += 1 }
            let text = String(decoding: bytes[start..<i], as: UTF8.self)
            guard !text.isEmpty, let n = Double(text), n.isFinite, text.first != "+", !(text.hasPrefix("0") && text.count > 1 && text.dropFirst().first?.isNumber == true) else {
                i = start
                throw error(text.isEmpty ? "unexpected character; expected a JSON value" : "\"\(text)\" is not a JSON number")
            }
            return .number(n)
        }

        mutating func string() throws(JSONError) -> String {
            i += 1
            var out = [UInt8]()
            while i < bytes.count {
                let b = bytes[i]
                if b == UInt8(ascii: "\"") { i += 1; return String(decoding: out, as: UTF8.self) }
                if b < 0x20 { throw error("control character inside a string (escape newlines as \\n)") }
                if b == UInt8(ascii: "\\") {
                    i += 1
                    guard i < bytes.count else { break }
                    switch bytes[i] {
                    case UInt8(ascii: "n"): out.append(10)
                    case UInt8(ascii: "t"): out.append(9)
                    case UInt8(ascii: "r"): out.append(13)
                    case UInt8(ascii: "b"): out.append(8)
                    case UInt8(ascii: "f"): out.append(12)
                    case UInt8(ascii: "/"), UInt8(ascii: "\\"), UInt8(ascii: "\""): out.append(bytes[i])
                    case UInt8(ascii: "u"):
                        var code = try hex4()
                        // A high surrogate pairs only with a low one; alone, it is U+FFFD and the
                        // escape after it is read on its own.
                        if (0xD800..<0xDC00).contains(code), i + 2 < bytes.count, bytes[i + 1] == UInt8(ascii: "\\"), bytes[i + 2] == UInt8(ascii: "u") {
                            let mark = i
                            i += 2
                            let low = try hex4()
                            if (0xDC00..<0xE000).contains(low) { code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00) } else { i = mark }
                        }
                        out += Array(String(Unicode.Scalar(code).map(Character.init) ?? "\u{FFFD}").utf8)
                    default: throw error("unknown escape \\\(Character(Unicode.Scalar(bytes[i])))")
                    }
                    i += 1
                    continue
                }
                out.append(b)
                i += 1
            }
            throw error("unterminated string")
        }

        mutating func hex4() throws(JSONError) -> UInt32 {
            guard i + 4 < bytes.count, bytes[(i + 1)...(i + 4)].allSatisfy({ Character(Unicode.Scalar($0)).isHexDigit }),
                  let v = UInt32(String(decoding: bytes[(i + 1)...(i + 4)], as: UTF8.self), radix: 16) else {
                throw error("\\u needs four hex digits")
            }
            i += 4
            return v
        }
    }
}

extension String {
    func leftPadded(_ n: Int) -> String { String(repeating: "0", count: max(0, n - count)) + self }
}
