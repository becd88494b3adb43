import Formats
/// A path to a value inside a payload's custom keys, wherever a setting names a key:
/// `image-url`, `attachment.url`, `items.0.url`. Dots separate keys, a number indexes an array.
/// A key that itself holds a dot (`com.example.url`) is still found: at each level the longest
/// key present wins. Meeting a missing key or a value of the wrong type is an answer that says
/// where, never a crash.
public struct KeyPath: Sendable, Hashable, CustomStringConvertible {
    public let text: String
    let parts: [String]

    public init(_ text: String) {
        self.text = text
        parts = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    }

    public var description: String { text }

    public enum Lookup {
        case found(Any)
        /// Nothing at `at` (the path as far as it led).
        case missing(at: String)
        /// `at` holds a `found` (a type name) where an object or array was needed.
        case wrongType(at: String, found: String)

        public var value: Any? { if case .found(let v) = self { return v }; return nil }
    }

    /// Looks the path up in Foundation values (`[AnyHashable: Any]`, `[String: Any]`, `[Any]`)
    /// or in a `JSONValue` (then what is found is a `JSONValue` too).
    public func lookup(in root: Any) -> Lookup {
        var value = root, i = 0, reached: [String] = []
        while i < parts.count {
            if let json = value as? JSONValue {
                switch json {
                case .array(let items): value = items as [Any]
                case .object(let members): value = Dictionary(members.map { ($0.key, $0.value as Any) }) { _, last in last }
                default: break
                }
            }
            let here = reached.isEmpty ? "" : reached.joined(separator: ".")
            if let list = value as? [Any] {
                guard parts[i].allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int(parts[i]) else {
                    return .wrongType(at: here.isEmpty ? parts[i] : here, found: "an array (index it with a number: \(here).0)")
                }
                guard n < list.count else { return .missing(at: (reached + [parts[i]]).joined(separator: ".")) }
                value = list[n]
                reached.append(parts[i]); i += 1
                continue
            }
            guard let object = Self.object(value) else { return .wrongType(at: here, found: Self.typeName(value)) }
            // The longest key present: a.b.c, then a.b, then a.
            var matched = false
            for end in stride(from: parts.count, to: i, by: -1) {
                let key = parts[i..<end].joined(separator: ".")
                if let next = object[key] {
                    value = next
                    reached.append(key); i = end
                    matched = true
                    break
                }
            }
            if !matched { return .missing(at: (reached + [parts[i]]).joined(separator: ".")) }
        }
        return .found(value)
    }

    /// An object of either Foundation form, keyed by strings.
    public static func object(_ value: Any) -> [String: Any]? {
        if let d = value as? [String: Any] { return d }
        if let d = value as? [AnyHashable: Any] { return Dictionary(d.map { ("\($0.key.base)", $0.value) }) { first, _ in first } }
        return nil
    }

    /// A value's JSON type name, for messages.
    public static func typeName(_ value: Any) -> String {
        if let json = value as? JSONValue { return json.typeName == "null" ? "null" : (json.typeName.first.map { "aeiou".contains($0) } == true ? "an " : "a ") + json.typeName }
        switch value {
        case let v where type(of: v) == Bool.self: return "a boolean"
        case is String: return "a string"
        case is Int, is Double: return "a number"
        case is [Any]: return "an array"
        case _ where object(value) != nil: return "an object"
        default: return "null"
        }
    }

    /// Every string (and number) below `root` with its path, sorted, at most `depth` levels down:
    /// what a payload holds that a setting could name.
    public static func strings(in root: Any, depth: Int = 8) -> [(path: String, value: String)] {
        var out: [(String, String)] = []
        func walk(_ value: Any, _ path: String, _ level: Int) {
            guard level <= depth else { return }
            if let s = value as? String { out.append((path, s)); return }
            if let list = value as? [Any] {
                for (i, item) in list.enumerated() { walk(item, path.isEmpty ? "\(i)" : "\(path).\(i)", level + 1) }
            } else if let object = object(value) {
                for (key, item) in object { walk(item, path.isEmpty ? key : "\(path).\(key)", level + 1) }
            }
        }
        walk(root, "", 0)
        return out.sorted { $0.0 < $1.0 }
    }
}
