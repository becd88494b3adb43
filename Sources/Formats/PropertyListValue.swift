import Foundation

/// A property-list value as read from any of its forms (XML, binary, the OpenStep text of
/// `project.pbxproj`): typed, so a reader asks `plist["NSExtension"]?["NSExtensionPointIdentifier"]?.string`
/// instead of casting Foundation values, and a dictionary keeps its keys in file order.
public enum PropertyListValue: Sendable, Equatable {
    case string(String)
    case integer(Int)
    case real(Double)
    case bool(Bool)
    case date(Date)
    case data(Data)
    case array([PropertyListValue])
    case dictionary(PropertyListDictionary)

    public subscript(key: String) -> PropertyListValue? { dictionary?[key] }

    public var string: String? { if case .string(let s) = self { return s }; return nil }
    public var bool: Bool? { if case .bool(let b) = self { return b }; return nil }
    public var integer: Int? { if case .integer(let n) = self { return n }; return nil }
    /// An integer's or a real's value.
    public var number: Double? {
        switch self {
        case .integer(let n): return Double(n)
        case .real(let n): return n
        default: return nil
        }
    }
    public var array: [PropertyListValue]? { if case .array(let a) = self { return a }; return nil }
    public var dictionary: PropertyListDictionary? { if case .dictionary(let d) = self { return d }; return nil }
    /// An array's strings (its other items left out); nil for anything but an array.
    public var strings: [String]? { array?.compactMap(\.string) }

    /// A flag as Info.plists write them: `<true/>`, or the strings `YES`, `1`, `true` (build settings write those).
    public var isTrue: Bool {
        switch self {
        case .bool(let b): return b
        case .string(let s): return ["YES", "1", "true"].contains(s)
        case .integer(let n): return n != 0
        default: return false
        }
    }

    /// The type's name, for messages ("expected a string, found an array").
    public var typeName: String {
        switch self {
        case .string: return "a string"
        case .integer: return "an integer"
        case .real: return "a real number"
        case .bool: return "a boolean"
        case .date: return "a date"
        case .data: return "data"
        case .array: return "an array"
        case .dictionary: return "a dictionary"
        }
    }

    /// Every string in the value rewritten by `transform` (given the key path it is at, `A.B[2]`).
    public func mapStrings(at path: String = "", _ transform: (String, String) -> String) -> PropertyListValue {
        switch self {
        case .string(let s): return .string(transform(s, path))
        case .array(let items): return .array(items.enumerated().map { $0.element.mapStrings(at: "\(path)[\($0.offset)]", transform) })
        case .dictionary(let d):
            return .dictionary(PropertyListDictionary(d.map { ($0.key, $0.value.mapStrings(at: path.isEmpty ? $0.key : "\(path).\($0.key)", transform)) }))
        default: return self
        }
    }
}

/// A dictionary's entries in the order the file has them, looked up by key (a repeated key: the last one).
public struct PropertyListDictionary: Sendable, Equatable, Sequence {
    public private(set) var keys: [String] = []
    private var values: [String: PropertyListValue] = [:]

    public init() {}
    public init(_ entries: [(String, PropertyListValue)]) {
        for (key, value) in entries { self[key] = value }
    }

    public subscript(key: String) -> PropertyListValue? {
        get { values[key] }
        set {
            if values[key] == nil, newValue != nil { keys.append(key) }
            if newValue == nil, values[key] != nil { keys.removeAll { $0 == key } }
            values[key] = newValue
        }
    }

    public var count: Int { keys.count }
    public var isEmpty: Bool { keys.isEmpty }

    public func makeIterator() -> some IteratorProtocol<(key: String, value: PropertyListValue)> {
        keys.lazy.map { (key: $0, value: values[$0]!) }.makeIterator()
    }
}

/// Encoded as the plain JSON-like value it is (dates as Foundation encodes them, data as base64),
/// so a read Info.plist can be written into a report or compared in a test.
extension PropertyListValue: Codable {
    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public func encode(to encoder: Encoder) throws {
        switch self {
        case .dictionary(let d):
            var container = encoder.container(keyedBy: Key.self)
            for (key, value) in d { try container.encode(value, forKey: Key(stringValue: key)) }
        case .array(let items):
            var container = encoder.unkeyedContainer()
            for item in items { try container.encode(item) }
        case .string(let s): var c = encoder.singleValueContainer(); try c.encode(s)
        case .integer(let n): var c = encoder.singleValueContainer(); try c.encode(n)
        case .real(let n): var c = encoder.singleValueContainer(); try c.encode(n)
        case .bool(let b): var c = encoder.singleValueContainer(); try c.encode(b)
        case .date(let d): var c = encoder.singleValueContainer(); try c.encode(d)
        case .data(let d): var c = encoder.singleValueContainer(); try c.encode(d)
        }
    }

    public init(from decoder: Decoder) throws {
        if let keyed = try? decoder.container(keyedBy: Key.self) {
            var d = PropertyListDictionary()
            for key in keyed.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
                d[key.stringValue] = try keyed.decode(PropertyListValue.self, forKey: key)
            }
            self = .dictionary(d)
        } else if var list = try? decoder.unkeyedContainer() {
            var items: [PropertyListValue] = []
            while !list.isAtEnd { items.append(try list.decode(PropertyListValue.self)) }
            self = .array(items)
        } else {
            let c = try decoder.singleValueContainer()
            if let b = try? c.decode(Bool.self) { self = .bool(b) }
            else if let n = try? c.decode(Int.self) { self = .integer(n) }
            else if let n = try? c.decode(Double.self) { self = .real(n) }
            else { self = .string(try c.decode(String.self)) }
        }
    }
}

extension PropertyListValue {
    /// A JSON value as the property list it stands for (an XcodeGen spec's `info:` properties, a
    /// Tuist manifest's): null as the empty string, numbers whole when they are.
    public init(_ json: JSONValue) {
        switch json {
        case .null: self = .string("")
        case .bool(let b): self = .bool(b)
        case .number(let n): self = n == n.rounded() && abs(n) < 1e15 ? .integer(Int(n)) : .real(n)
        case .string(let s): self = .string(s)
        case .array(let items): self = .array(items.map(PropertyListValue.init))
        case .object(let members): self = .dictionary(PropertyListDictionary(members.map { ($0.key, PropertyListValue($0.value)) }))
        }
    }
}
