import Foundation
import Payload
import Formats

/// userInfo travels as Foundation values (`[AnyHashable: Any]`, as on iOS); the rest of the
/// pipeline uses JSONValue. Keys come back sorted, so output never depends on hash order.
extension JSONValue {
    var foundation: Any {
        switch self {
        case .null: return NSNull()
        case .bool(let b): return b
        case .number(let n): return n == n.rounded() && abs(n) < 1e15 ? Int(n) as Any : n as Any
        case .string(let s): return s
        case .array(let items): return items.map(\.foundation)
        case .object(let members): return Dictionary(members.map { ($0.key, $0.value.foundation) }) { $1 }
        }
    }

    init(foundation value: Any) {
        switch value {
        case let b as Bool where type(of: value) == Bool.self: self = .bool(b)
        case let s as String: self = .string(s)
        case let i as Int: self = .number(Double(i))
        case let d as Double: self = .number(d)
        case let n as NSNumber: self = .number(n.doubleValue)
        case let a as [Any]: self = .array(a.map(JSONValue.init(foundation:)))
        case let d as [AnyHashable: Any]: self = .object(JSONValue.members(d))
        case let d as [String: Any]: self = .object(JSONValue.members(d))
        default: self = .null
        }
    }

    static func members(_ d: [AnyHashable: Any]) -> [(key: String, value: JSONValue)] {
        d.map { ("\($0.key.base)", JSONValue(foundation: $0.value)) }.sorted { $0.key < $1.key }
    }
    static func members(_ d: [String: Any]) -> [(key: String, value: JSONValue)] {
        d.map { ($0.key, JSONValue(foundation: $0.value)) }.sorted { $0.key < $1.key }
    }
}

extension UNNotificationContent {
    /// A payload value at a key path as text (strings, and numbers as iOS would print them);
    /// nil when it is absent or not text.
    func userInfoString(_ key: String) -> String? { Self.text(KeyPath(key).lookup(in: userInfo).value) }

    static func text(_ value: Any?) -> String? {
        switch value {
        case let b? where type(of: b) == Bool.self: return nil
        case let s as String: return s
        case let i as Int: return String(i)
        case let d as Double: return String(d)
        default: return nil
        }
    }
}
