import Payload

/// `Localizable.xcstrings` (Xcode's String Catalog, JSON): per key, per language, a string unit
/// or plural variations.
public struct StringCatalog: Sendable {
    public enum Entry: Sendable, Equatable {
        case text(String)
        /// category (zero, one, two, few, many, other) → text
        case plural([String: String])
    }
    public var sourceLanguage: String
    /// key → language → entry
    public var strings: [String: [String: Entry]]
    /// Entries in a form this reader does not use, each named with its key: the rest of the
    /// catalog is still read.
    public var problems: [String] = []

    public struct ParseError: Error, CustomStringConvertible {
        public var file: String, message: String
        public var description: String { "\(file): \(message)" }
    }

    public init(_ bytes: [UInt8], file: String) throws(ParseError) {
        let json: JSONValue
        do { json = try JSONParser.parse(bytes, file: file) } catch { throw ParseError(file: file, message: "\(error.line):\(error.column): \(error.message)") }
        guard case .object = json, case .object(let keys)? = json["strings"] else {
            throw ParseError(file: file, message: "expected an object with \"strings\" (a String Catalog)")
        }
        sourceLanguage = json["sourceLanguage"]?.string ?? "en"
        strings = [:]
        for (key, value) in keys {
            guard case .object(let languages)? = value["localizations"] else { continue }
            var entries: [String: Entry] = [:]
            for (language, l) in languages {
                if let text = l["stringUnit"]?["value"]?.string { entries[language] = .text(text) }
                else if case .object(let forms)? = l["variations"]?["plural"] {
                    var plural: [String: String] = [:]
                    for (category, f) in forms { if let text = f["stringUnit"]?["value"]?.string { plural[category] = text } }
                    if !plural.isEmpty { entries[language] = .plural(plural) }
                } else {
                    let form = l["variations"].flatMap { v -> String? in if case .object(let kinds) = v { return kinds.map(\.key).joined(separator: ", ") }; return nil }
                    problems.append("\(file): strings.\(key).localizations.\(language): \(form.map { "\($0) variations are" } ?? "this form is") not read; the key falls back to other languages")
                }
            }
            strings[key] = entries
        }
    }
}
