import ConfinedFiles
import Diagnostics
import Foundation
import Payload
import ServiceStage
import Formats

/// A `UNNotificationAction` (reference §6.1–6.2); a text-input action when `textInput` is set.
public struct NotificationAction: Sendable, Equatable {
    public enum Option: String, Sendable, CaseIterable, Codable { case authenticationRequired, destructive, foreground }
    public enum Icon: Sendable, Equatable {
        /// A symbol name, drawn with our own look-alike from `Templates/system/icons/`.
        case system(String)
        /// An image of the app's, looked up as `Templates/icons/NAME.svg` in the project.
        case template(String)
    }
    /// A text the app localizes: looked up by `key` in `table` for each locale (the text given in
    /// categories.json, or the key, where no translation exists).
    public struct LocalizedKey: Sendable, Equatable {
        public var key: String
        public var table = "Localizable"
    }
    public struct TextInput: Sendable, Equatable {
        /// Without one, iOS shows its own "Send", in the device's language.
        public var buttonTitle = "Send"
        public var buttonTitleIsSystemDefault = true
        public var placeholder = ""
        public var buttonTitleKey: LocalizedKey?
        public var placeholderKey: LocalizedKey?
    }
    public var identifier: String
    public var title: String
    public var titleKey: LocalizedKey?
    public var options: [Option] = []
    public var icon: Icon?
    public var textInput: TextInput?
    public var isDestructive: Bool { options.contains(.destructive) }
}

/// A `UNNotificationCategory` (reference §6.3) from `categories.json`.
public struct NotificationCategory: Sendable, Equatable {
    public enum Option: String, Sendable, CaseIterable {
        case customDismissAction, allowInCarPlay, hiddenPreviewsShowTitle, hiddenPreviewsShowSubtitle, allowAnnouncement
    }
    public var identifier: String
    public var actions: [NotificationAction] = []
    public var options: [Option] = []
    public var hiddenPreviewsBodyPlaceholder: String?
    public var categorySummaryFormat: String?
    /// The custom view's template, relative to a Templates folder, without `.html`
    /// (default: the identifier; `stock/video` picks a stock template).
    public var template: String?

    /// The API shows up to 10 actions when there is room, and 2 where space is limited (§6.4).
    public static let maxActions = 10, compactActions = 2

    /// Reads `{"categories": [...]}`; bad entries are issues and are left out, the rest load.
    public static func read(_ url: URL, in folder: ConfinedFolder) -> ([NotificationCategory], [Diagnostic]) {
        let file = url.path
        let data: [UInt8]
        do { data = try folder.read(url, limit: 1 << 20) } catch {
            if case .tooLarge(let size, _) = error.reason { return ([], [Diagnostic(.error, code: .path, file: file, "\(size) bytes; over the 1 MB limit")]) }
            return ([], [Diagnostic(.error, code: .path, file: file, error.isMissing ? "no such file" : error.why)])
        }
        let json: JSONValue
        do { json = try JSONParser.parse(data, file: file) } catch {
            return ([], [error.diagnostic])
        }
        var issues: [Diagnostic] = []
        func issue(_ s: Diagnostic.Severity, _ at: String, _ m: String) { issues.append(Diagnostic(s, code: .categories, file: file, keyPath: at, m)) }
        guard case .array(let items)? = json["categories"] else {
            issue(.error, "categories", json["categories"].map { "expected an array, got \($0.typeName)" } ?? "missing: the file is {\"categories\": [...]}")
            return ([], issues)
        }
        func string(_ v: JSONValue?, _ at: String, required: Bool = false) -> String? {
            switch v {
            case .string(let s)?: return s
            case nil: if required { issue(.error, at, "missing (required)") }; return nil
            case let other?: issue(.error, at, "expected a string, got \(other.typeName)"); return nil
            }
        }
        func options<O: RawRepresentable & CaseIterable>(_ v: JSONValue?, _ at: String) -> [O] where O.RawValue == String {
            guard let v else { return [] }
            guard case .array(let list) = v else { issue(.error, at, "expected an array of option names, got \(v.typeName)"); return [] }
            return list.enumerated().compactMap { i, item in
                guard let name = item.string, let o = O(rawValue: name) else {
                    issue(.error, "\(at)[\(i)]", "\(item.compact) is not one of \(O.allCases.map(\.rawValue).joined(separator: ", "))")
                    return nil
                }
                return o
            }
        }
        func unknownKeys(_ v: JSONValue, _ known: Set<String>, _ at: String) {
            guard case .object(let members) = v else { return }
            for m in members where !known.contains(m.key) { issue(.warning, "\(at).\(m.key)", "unknown key, ignored") }
        }
        var categories: [NotificationCategory] = []
        var actionOwner: [String: (category: String, action: NotificationAction)] = [:]
        for (i, item) in items.enumerated() {
            let at = "categories[\(i)]"
            let first = issues.count
            defer { if let id = item["identifier"]?.string { for j in first..<issues.count { issues[j].category = id } } }
            guard case .object = item else { issue(.error, at, "expected an object, got \(item.typeName)"); continue }
            unknownKeys(item, ["identifier", "actions", "options", "hiddenPreviewsBodyPlaceholder", "categorySummaryFormat", "template", "intentIdentifiers"], at)
            guard let id = string(item["identifier"], "\(at).identifier", required: true) else { continue }
            guard !id.trimmed.isEmpty else { issue(.error, "\(at).identifier", "empty: it must match aps.category"); continue }
            if categories.contains(where: { $0.identifier == id }) { issue(.error, "\(at).identifier", "\"\(id)\" is defined twice; the first definition is used"); continue }
            var category = NotificationCategory(identifier: id)
            category.options = options(item["options"], "\(at).options")
            category.hiddenPreviewsBodyPlaceholder = string(item["hiddenPreviewsBodyPlaceholder"], "\(at).hiddenPreviewsBodyPlaceholder")
            category.categorySummaryFormat = string(item["categorySummaryFormat"], "\(at).categorySummaryFormat")
            category.template = string(item["template"], "\(at).template")
            if let t = category.template, t.contains("..") || t.hasPrefix("/") { issue(.error, "\(at).template", "\"\(t)\" must name a file inside a Templates folder"); category.template = nil }
            let actions: [JSONValue]
            switch item["actions"] {
            case nil: actions = []
            case .array(let list)?: actions = list
            case let other?: issue(.error, "\(at).actions", "expected an array, got \(other.typeName)"); actions = []
            }
            for (j, a) in actions.enumerated() {
                let aat = "\(at).actions[\(j)]"
                guard let action = NotificationAction.read(a, at: aat, issue: issue) else { continue }
                let aid = action.identifier
                // Apps offer one action (snooze, reply) in several categories; only one identifier
                // with two different definitions is a mistake.
                if let (owner, first) = actionOwner[aid], first != action {
                    issue(.error, "\(aat).identifier", "\"\(aid)\" is also an action of \"\(owner)\" with a different title, options, icon or text input; one identifier is one action")
                }
                if actionOwner[aid] == nil { actionOwner[aid] = (id, action) }
                category.actions.append(action)
            }
            if category.actions.count > maxActions {
                issue(.warning, "\(at).actions", "\(category.actions.count) actions; iOS shows the first \(maxActions)")
            }
            categories.append(category)
        }
        return (categories, issues)
    }
}

extension NotificationAction {
    /// An action's fields by the names categories.json uses.
    public static let fieldNames = ["identifier", "title", "options", "icon", "textInput"]

    /// An action from JSON: categories.json's entries, or those a payload carries for an
    /// extension that sets `notificationActions` (`names` maps a field to the payload's own name).
    /// A title may be a string or `{"key", "table", "default"}`; options an array or one name;
    /// the icon a symbol name or `{"system"|"template": NAME}`; `textInput` true or
    /// `{"buttonTitle", "placeholder"}`. Each problem goes to `issue`; nil without an identifier or title.
    public static func read(_ a: JSONValue, at: String, names: [String: String] = [:],
                            issue: (Diagnostic.Severity, String, String) -> Void) -> NotificationAction? {
        guard case .object(let members) = a else { issue(.error, at, "expected an object, got \(a.typeName)"); return nil }
        func name(_ field: String) -> String { names[field] ?? field }
        let known = Set(fieldNames.map(name))
        for m in members where !known.contains(m.key) { issue(.warning, "\(at).\(m.key)", "unknown key, ignored") }
        func string(_ v: JSONValue?, _ path: String, required: Bool = false) -> String? {
            switch v {
            case .string(let s)?: return s
            case nil: if required { issue(.error, path, "missing (required)") }; return nil
            case let other?: issue(.error, path, "expected a string, got \(other.typeName)"); return nil
            }
        }
        func localizable(_ v: JSONValue?, _ path: String, required: Bool = false) -> (String, LocalizedKey?)? {
            guard case .object = v else { return string(v, path, required: required).map { ($0, nil) } }
            for m in v!.objectMembers where !["key", "table", "default"].contains(m.key) { issue(.warning, "\(path).\(m.key)", "unknown key, ignored") }
            guard let key = string(v?["key"], "\(path).key", required: true) else { return nil }
            return (string(v?["default"], "\(path).default") ?? key, .init(key: key, table: string(v?["table"], "\(path).table") ?? "Localizable"))
        }
        let (idAt, titleAt) = ("\(at).\(name("identifier"))", "\(at).\(name("title"))")
        guard let id = string(a[name("identifier")], idAt, required: true), let (title, titleKey) = localizable(a[name("title")], titleAt, required: true) else { return nil }
        var action = NotificationAction(identifier: id, title: title)
        action.titleKey = titleKey
        let optionsAt = "\(at).\(name("options"))"
        let optionList: [JSONValue]
        switch a[name("options")] {
        case nil: optionList = []
        case .array(let list)?: optionList = list
        case .string?: optionList = [a[name("options")]!]
        case let other?: issue(.error, optionsAt, "expected an array of option names, got \(other.typeName)"); optionList = []
        }
        for (i, item) in optionList.enumerated() {
            if let o = item.string.flatMap(Option.init(rawValue:)) { action.options.append(o) }
            else { issue(.error, "\(optionsAt)[\(i)]", "\(item.compact) is not one of \(Option.allCases.map(\.rawValue).joined(separator: ", "))") }
        }
        let iconAt = "\(at).\(name("icon"))", icon = a[name("icon")]
        switch icon {
        case nil: break
        case .string(let n)?: action.icon = .system(n)
        case .object? where icon?["system"] != nil: action.icon = string(icon?["system"], "\(iconAt).system").map(Icon.system)
        case .object? where icon?["template"] != nil: action.icon = string(icon?["template"], "\(iconAt).template").map(Icon.template)
        case let other?: issue(.error, iconAt, "expected {\"system\": NAME} or {\"template\": NAME}, got \(other.compact.prefix(60))")
        }
        let inputAt = "\(at).\(name("textInput"))"
        switch a[name("textInput")] {
        case nil, .bool(false)?: break
        case .bool(true)?: action.textInput = TextInput()
        case .object?:
            let input = a[name("textInput")]!
            var t = TextInput()
            if let (text, key) = localizable(input["buttonTitle"], "\(inputAt).buttonTitle") { t.buttonTitle = text; t.buttonTitleKey = key; t.buttonTitleIsSystemDefault = false }
            if let (text, key) = localizable(input["placeholder"], "\(inputAt).placeholder") { t.placeholder = text; t.placeholderKey = key }
            action.textInput = t
        case let other?: issue(.error, inputAt, "expected true or an object {buttonTitle, placeholder}, got \(other.typeName)")
        }
        return action
    }
}

extension NotificationCategory {
    /// A category the service extension registered at delivery, with its actions.
    public init(registered r: DeliveredNotification.RegisteredCategory) {
        identifier = r.identifier
        actions = r.actions.map { a in
            var action = NotificationAction(identifier: a.identifier, title: a.title)
            action.options = (a.destructive ? [.destructive] : []) + (a.foreground ? [.foreground] : [])
            if let input = a.textInput {
                var t = NotificationAction.TextInput()
                if let button = input.button { t.buttonTitle = button; t.buttonTitleIsSystemDefault = false }
                t.placeholder = input.placeholder ?? ""
                action.textInput = t
            }
            return action
        }
    }
}
