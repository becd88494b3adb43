import Diagnostics
import Checked
import Payload
import Formats

/// One localized string as catalogs and stringsdicts hold it: text, or variations by device
/// (`iphone`, `ipad`, … `other`) or by plural category, nested, with `%#@name@` substitutions
/// that vary by plural on their own argument.
public indirect enum LocalizedValue: Sendable, Equatable {
    case text(String)
    case device([String: LocalizedValue])
    case plural([String: LocalizedValue])
}

public struct LocalizedEntry: Sendable, Equatable {
    public var value: LocalizedValue
    /// name → its argument (1-based, nil: the next one), its specifier and its plural forms.
    public var substitutions: [String: Substitution] = [:]

    public struct Substitution: Sendable, Equatable {
        public var argNum: Int?
        public var formatSpecifier: String
        public var forms: [String: String]
    }
}

/// `Localizable.xcstrings` (or any TABLE.xcstrings): a String Catalog, the JSON Xcode 15 writes.
/// Every form iOS reads is read: string units, device and plural variations (nested either
/// way), substitutions; `shouldTranslate: false` entries read as their key; a form it does not
/// know loses that entry only, named in `problems`.
public struct StringCatalog: Sendable {
    public var sourceLanguage: String
    /// key → language → entry
    public var strings: [String: [String: LocalizedEntry]]
    public var problems: [Diagnostic] = []

    /// This catalog with `other`'s keys and languages added where this one has none (two
    /// folders of an app with a catalog of the same name: the first folder's wins).
    func merging(_ other: StringCatalog) -> StringCatalog {
        var out = self
        out.strings.merge(other.strings) { mine, theirs in mine.merging(theirs) { first, _ in first } }
        out.problems += other.problems
        return out
    }

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
            if case .bool(false)? = value["shouldTranslate"] { strings[key] = [sourceLanguage: LocalizedEntry(value: .text(key))] }
            guard case .object(let languages)? = value["localizations"] else { continue }
            var entries: [String: LocalizedEntry] = strings[key] ?? [:]
            for (language, l) in languages {
                let at = "strings.\(key).localizations.\(language)"
                do {
                    var entry = LocalizedEntry(value: try Self.value(l, at: at))
                    if case .object(let subs)? = l["substitutions"] {
                        for (name, sub) in subs {
                            guard case .object(let forms)? = sub["variations"]?["plural"] else { throw Unreadable(at: "\(at).substitutions.\(name)", form: "non-plural substitution") }
                            entry.substitutions[name] = .init(argNum: sub["argNum"]?.number.map { Int(saturating: $0) }, formatSpecifier: sub["formatSpecifier"]?.string ?? "lld",
                                                              forms: Dictionary(uniqueKeysWithValues: forms.compactMap { f in f.value["stringUnit"]?["value"]?.string.map { (f.key, $0) } }))
                        }
                    }
                    entries[language] = entry
                } catch let error as Unreadable {
                    problems.append(Diagnostic(.warning, code: .stringsForm, file: file, keyPath: error.at, "\(error.form) is not read; the key falls back to other languages"))
                } catch {}
            }
            strings[key] = entries
        }
    }

    struct Unreadable: Error { var at: String; var form: String }

    /// A localization's value: a string unit, or device or plural variations of values.
    static func value(_ l: JSONValue, at: String) throws -> LocalizedValue {
        if let text = l["stringUnit"]?["value"]?.string { return .text(text) }
        guard case .object(let variations)? = l["variations"], variations.count == 1, let (kind, forms) = variations.first,
              case .object(let cases) = forms else { throw Unreadable(at: at, form: "a localization without a stringUnit or one kind of variations") }
        var out: [String: LocalizedValue] = [:]
        for (name, v) in cases { out[name] = try value(v, at: "\(at).variations.\(kind).\(name)") }
        switch kind {
        case "plural": return .plural(out)
        case "device": return .device(out)
        default: throw Unreadable(at: "\(at).variations", form: "\"\(kind)\" variations")
        }
    }
}

/// `TABLE.stringsdict`: a property list of keys, each an `NSStringLocalizedFormatKey` whose
/// `%#@name@` variables are plural rules (`NSStringPluralRuleType`) on their own argument.
public enum StringsDict {
    public static func parse(_ bytes: [UInt8], file: String) throws(PropertyList.ParseError) -> (entries: [String: LocalizedEntry], problems: [Diagnostic]) {
        guard let root = try PropertyList.read(bytes, file: file).dictionary else {
            throw PropertyList.ParseError(file: file, position: "line 1", message: "expected a dictionary of keys")
        }
        var entries: [String: LocalizedEntry] = [:], problems: [Diagnostic] = []
        for (key, value) in root {
            guard let dict = value.dictionary, let format = dict["NSStringLocalizedFormatKey"]?.string else {
                problems.append(Diagnostic(.warning, code: .stringsForm, file: file, keyPath: key, "no NSStringLocalizedFormatKey; not read")); continue
            }
            var entry = LocalizedEntry(value: .text(format))
            for (name, variable) in dict where name != "NSStringLocalizedFormatKey" {
                guard let v = variable.dictionary else { continue }
                guard v["NSStringFormatSpecTypeKey"]?.string == "NSStringPluralRuleType" else {
                    problems.append(Diagnostic(.warning, code: .stringsForm, file: file, keyPath: "\(key).\(name)", "\(v["NSStringFormatSpecTypeKey"]?.string ?? "a variable without a type") is not read; only plural rules are"))
                    continue
                }
                let forms = Dictionary(v.compactMap { entry in entry.value.string.map { (entry.key, $0) } }.filter { ["zero", "one", "two", "few", "many", "other"].contains($0.0) }) { $1 }
                entry.substitutions[name] = .init(argNum: nil, formatSpecifier: v["NSStringFormatValueTypeKey"]?.string ?? "d", forms: forms)
            }
            entries[key] = entry
        }
        return (entries, problems)
    }
}
