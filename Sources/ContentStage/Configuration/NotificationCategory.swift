import Foundation
import Payload

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
    public static func read(_ url: URL) -> ([NotificationCategory], [ConfigIssue]) {
        let file = url.path
        guard let data = FileManager.default.contents(atPath: file) else { return ([], [ConfigIssue(.error, file: file, "no such file")]) }
        guard data.count <= 1 << 20 else { return ([], [ConfigIssue(.error, file: file, "\(data.count) bytes; over the 1 MB limit")]) }
        let json: JSONValue
        do { json = try JSONParser.parse([UInt8](data), file: file) } catch {
            return ([], [ConfigIssue(.error, file: file, location: "\(error.line):\(error.column)", error.message)])
        }
        var issues: [ConfigIssue] = []
        func issue(_ s: ConfigIssue.Severity, _ at: String, _ m: String) { issues.append(ConfigIssue(s, file: file, location: at, m)) }
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
        /// A string, or `{"key": K, "table": T, "default": TEXT}` for a text the app localizes.
        func localizable(_ v: JSONValue?, _ at: String, required: Bool = false) -> (String, NotificationAction.LocalizedKey?)? {
            guard case .object = v else { return string(v, at, required: required).map { ($0, nil) } }
            unknownKeys(v!, ["key", "table", "default"], at)
            guard let key = string(v?["key"], "\(at).key", required: true) else { return nil }
            let table = string(v?["table"], "\(at).table") ?? "Localizable"
            return (string(v?["default"], "\(at).default") ?? key, .init(key: key, table: table))
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
                guard case .object = a else { issue(.error, aat, "expected an object, got \(a.typeName)"); continue }
                unknownKeys(a, ["identifier", "title", "options", "icon", "textInput"], aat)
                guard let aid = string(a["identifier"], "\(aat).identifier", required: true),
                      let (title, titleKey) = localizable(a["title"], "\(aat).title", required: true) else { continue }
                var action = NotificationAction(identifier: aid, title: title)
                action.titleKey = titleKey
                action.options = options(a["options"], "\(aat).options")
                switch a["icon"] {
                case nil: break
                case .string(let name)?: action.icon = .system(name)
                case .object? where a["icon"]?["system"] != nil: action.icon = string(a["icon"]?["system"], "\(aat).icon.system").map(NotificationAction.Icon.system)
                case .object? where a["icon"]?["template"] != nil: action.icon = string(a["icon"]?["template"], "\(aat).icon.template").map(NotificationAction.Icon.template)
                case let other?: issue(.error, "\(aat).icon", "expected {\"system\": NAME} or {\"template\": NAME}, got \(other.compact.prefix(60))")
                }
                if let input = a["textInput"] {
                    guard case .object = input else { issue(.error, "\(aat).textInput", "expected an object, got \(input.typeName)"); continue }
                    var t = NotificationAction.TextInput()
                    if let (text, key) = localizable(input["buttonTitle"], "\(aat).textInput.buttonTitle") { t.buttonTitle = text; t.buttonTitleKey = key; t.buttonTitleIsSystemDefault = false }
                    if let (text, key) = localizable(input["placeholder"], "\(aat).textInput.placeholder") { t.placeholder = text; t.placeholderKey = key }
                    action.textInput = t
                }
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
