import Payload
import Formats

extension CodeImport {
    /// categories.json's bytes for these categories, deterministic (sorted keys, stable order,
    /// 2-space indent, trailing newline), in exactly the form NotificationCategory.read accepts:
    /// `{"categories": [{"identifier", "actions": [{"identifier", "title", "options", "icon":
    /// {"system"|"template": NAME}, "textInput": {"buttonTitle", "placeholder"}}], "options",
    /// "hiddenPreviewsBodyPlaceholder", "categorySummaryFormat"}]}`, a localized text as
    /// `{"key", "table" (when not Localizable), "default" (when the code gives one)}`. Empty lists
    /// and absent values are left out. The two summary texts are plain strings there, so a
    /// localized one is written as the text it falls back to.
    public func categoriesJSON() -> String {
        let list = categories.sorted { $0.identifier < $1.identifier }.map(Self.json)
        return Self.write(.object([("categories", .array(list))]), indent: "") + "\n"
    }

    private static func json(_ c: ImportedCategory) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [("identifier", .string(c.identifier))]
        if !c.actions.isEmpty { members.append(("actions", .array(c.actions.map(json)))) }
        if !c.options.isEmpty { members.append(("options", .array(c.options.map(JSONValue.string)))) }
        if let p = c.hiddenPreviewsBodyPlaceholder { members.append(("hiddenPreviewsBodyPlaceholder", .string(p.fallback))) }
        if let f = c.categorySummaryFormat { members.append(("categorySummaryFormat", .string(f.fallback))) }
        return .object(members)
    }

    private static func json(_ a: ImportedAction) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [("identifier", .string(a.identifier)), ("title", json(a.title))]
        if !a.options.isEmpty { members.append(("options", .array(a.options.map(JSONValue.string)))) }
        switch a.icon {
        case .system(let name)?: members.append(("icon", .object([("system", .string(name))])))
        case .template(let name)?: members.append(("icon", .object([("template", .string(name))])))
        case nil: break
        }
        if let t = a.textInput {
            var input: [(key: String, value: JSONValue)] = []
            if let b = t.buttonTitle { input.append(("buttonTitle", json(b))) }
            if let p = t.placeholder { input.append(("placeholder", json(p))) }
            members.append(("textInput", .object(input)))
        }
        return .object(members)
    }

    private static func json(_ t: ImportedText) -> JSONValue {
        switch t {
        case .literal(let s): return .string(s)
        case .localized(let key, let table, let d):
            var members: [(key: String, value: JSONValue)] = [("key", .string(key))]
            if table != "Localizable" { members.append(("table", .string(table))) }
            if let d { members.append(("default", .string(d))) }
            return .object(members)
        }
    }

    /// Objects one member a line, keys sorted; a list of plain values on one line.
    private static func write(_ v: JSONValue, indent: String) -> String {
        let inner = indent + "  "
        switch v {
        case .object(let members) where !members.isEmpty:
            let lines = members.sorted { $0.key < $1.key }.map { inner + JSONValue.string($0.key).compact + ": " + write($0.value, indent: inner) }
            return "{\n" + lines.joined(separator: ",\n") + "\n" + indent + "}"
        case .array(let items) where items.contains(where: { if case .object = $0 { return true }; if case .array = $0 { return true }; return false }):
            return "[\n" + items.map { inner + write($0, indent: inner) }.joined(separator: ",\n") + "\n" + indent + "]"
        case .array(let items):
            return "[" + items.map(\.compact).joined(separator: ", ") + "]"
        default:
            return v.compact
        }
    }
}
