/// The data a template sees: JSON's shapes, nothing more.
public enum TemplateValue: Sendable, Equatable, Codable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case list([TemplateValue])
    case object([String: TemplateValue])

    /// Mustache's falsey values: null, false, the empty list and the empty string.
    public var isFalsey: Bool {
        switch self {
        case .null, .bool(false): return true
        case .list(let items): return items.isEmpty
        case .string(let s): return s.isEmpty
        default: return false
        }
    }

    /// An object's member; in a list, `0`, `1`, … and `first`, `last` (`{{items.0.url}}`).
    public subscript(key: String) -> TemplateValue? {
        switch self {
        case .object(let members): return members[key]
        case .list(let items):
            if key == "first" { return items.first }
            if key == "last" { return items.last }
            guard !key.isEmpty, key.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let i = Int(key), i < items.count else { return nil }
            return items[i]
        default: return nil
        }
    }

    /// This object with `value` at `path`, making the objects on the way (`a.0.b` makes `a` an
    /// object with member `0`, which `{{a.0.b}}` reads as a list's item would be).
    public func setting(_ value: TemplateValue, at path: ArraySlice<String>) -> TemplateValue {
        guard let head = path.first else { return value }
        var members: [String: TemplateValue] = [:]
        if case .object(let m) = self { members = m }
        members[head] = (members[head] ?? .object([:])).setting(value, at: path.dropFirst())
        return .object(members)
    }

    /// How an interpolation prints the value.
    public var text: String {
        switch self {
        case .null: return ""
        case .bool(let b): return b ? "true" : "false"
        case .number(let n): return n == n.rounded() && abs(n) < 1e15 ? String(Int(n)) : "\(n)"
        case .string(let s): return s
        case .list, .object: return ""
        }
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null }
        else if let b = try? c.decode(Bool.self) { self = .bool(b) }
        else if let n = try? c.decode(Double.self) { self = .number(n) }
        else if let s = try? c.decode(String.self) { self = .string(s) }
        else if let l = try? c.decode([TemplateValue].self) { self = .list(l) }
        else { self = .object(try c.decode([String: TemplateValue].self)) }
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .null: try c.encodeNil()
        case .bool(let b): try c.encode(b)
        case .number(let n): try c.encode(n)
        case .string(let s): try c.encode(s)
        case .list(let l): try c.encode(l)
        case .object(let o): try c.encode(o)
        }
    }
}

extension TemplateValue: ExpressibleByStringLiteral, ExpressibleByDictionaryLiteral, ExpressibleByArrayLiteral,
    ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral, ExpressibleByFloatLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
    public init(dictionaryLiteral elements: (String, TemplateValue)...) { self = .object(Dictionary(elements) { $1 }) }
    public init(arrayLiteral elements: TemplateValue...) { self = .list(elements) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(floatLiteral value: Double) { self = .number(value) }
}
