import Foundation
import Payload

/// What a push SDK's service extension does with a payload, from its `Templates/sdks` file:
/// whether it acts at all (its gate), the changes it makes to the content, the buttons it builds
/// into a category, and the media references it downloads. Each result says where the SDK does so.
struct SDKStep {
    let sdk: PushSDK

    /// The gate's keys the payload lacks: the SDK then leaves the notification as it came.
    func missingGateKeys(_ userInfo: [AnyHashable: Any]) -> [String] {
        (sdk.gate?.keyPaths ?? []).filter { KeyPath($0).lookup(in: userInfo).value == nil }
    }

    /// The content changes, each a trace step: made, or said where PushPreview cannot draw it.
    func applyChanges(_ content: UNMutableNotificationContent) -> [ServiceTrace.Step] {
        var steps: [ServiceTrace.Step] = []
        for change in sdk.changes {
            if let when = change.when, KeyPath(when).lookup(in: content.userInfo).value == nil { continue }
            let said = sdk.said(change.source)
            if let note = change.note {
                steps.append(.init(step: "sdk", outcome: "not drawn", message: "\(change.field): \(note), \(said)"))
                continue
            }
            var value: String?
            if let from = change.fromKeyPath {
                guard let v = KeyPath(from).lookup(in: content.userInfo).value as? String else { continue }
                value = v
            }
            let current = field(change.field, of: content)
            if let missing = change.whenMissing {
                guard current?.isEmpty ?? true else { continue }
                value = missing
            }
            if let suffix = change.append { value = (value ?? current ?? "") + suffix }
            guard let value else { continue }
            if set(change.field, to: value, in: content) {
                steps.append(.init(step: "sdk", outcome: "set", message: "\(change.field) → \(value.prefix(80)), \(said)"))
            } else {
                steps.append(.init(step: "sdk", outcome: "not drawn", message: "\(change.field) is changed, \(said), but PushPreview cannot change that field"))
            }
        }
        return steps
    }

    func field(_ name: String, of content: UNMutableNotificationContent) -> String? {
        switch name {
        case "title": return content.title
        case "subtitle": return content.subtitle
        case "body": return content.body
        case "sound": return content.sound.map { $0.name ?? "default" }
        default: return nil
        }
    }

    func set(_ name: String, to value: String, in content: UNMutableNotificationContent) -> Bool {
        switch name {
        case "title": content.title = value
        case "subtitle": content.subtitle = value
        case "body": content.body = value
        case "sound": content.sound = value == "default" ? .default : UNNotificationSound(named: value)
        default: return false
        }
        return true
    }

    /// The category the SDK builds from the payload's buttons, or why it builds none (nil, nil
    /// when the payload has no buttons at all).
    func category(_ content: UNMutableNotificationContent, request: String) -> (DeliveredNotification.RegisteredCategory?, ServiceTrace.Step?) {
        guard let spec = sdk.actions else { return (nil, nil) }
        let userInfo = content.userInfo
        guard let value = KeyPath(spec.keyPath).lookup(in: userInfo).value else { return (nil, nil) }
        let said = sdk.said(spec.source)
        func skipped(_ why: String) -> (DeliveredNotification.RegisteredCategory?, ServiceTrace.Step?) {
            (nil, .init(step: "sdk", outcome: "not registered", message: "\(spec.keyPath): \(why), \(said)"))
        }
        if let requires = spec.requires, KeyPath(requires).lookup(in: userInfo).value == nil {
            return skipped("buttons are built only when the payload has \(requires)")
        }
        if spec.keepsPayloadCategory, !content.categoryIdentifier.isEmpty {
            return skipped("no buttons built: the payload names category \"\(content.categoryIdentifier)\", which the SDK keeps")
        }
        guard let items = value as? [Any] else { return skipped("expected an array of buttons, got \(KeyPath.typeName(value))") }
        var actions: [DeliveredNotification.RegisteredCategory.Action] = [], dropped: [String] = []
        for (i, item) in items.enumerated() {
            guard let button = KeyPath.object(item), let title = button[spec.titleKey] as? String, !title.isEmpty else {
                dropped.append("[\(i)] has no \(spec.titleKey)"); continue
            }
            var action = DeliveredNotification.RegisteredCategory.Action(identifier: button[spec.identifierKey] as? String ?? title, title: title)
            action.foreground = spec.options.contains("foreground")
            if let key = spec.foregroundKey, let open = button[key] as? Bool { action.foreground = open }
            action.destructive = spec.options.contains("destructive")
            if let key = spec.kindKey, let kind = button[key] as? String {
                if kind == spec.destructiveKind { action.destructive = true }
                if kind == spec.textInputKind {
                    action.textInput = (spec.textInputButtonKey.flatMap { button[$0] as? String }, spec.textInputPlaceholderKey.flatMap { button[$0] as? String })
                }
            }
            actions.append(action)
        }
        guard !actions.isEmpty else { return skipped("no button has a \(spec.titleKey)") }
        let id = spec.categoryPrefix + (spec.categoryKeyPath.flatMap { KeyPath($0).lookup(in: userInfo).value as? String } ?? request)
        content.categoryIdentifier = id
        let category = DeliveredNotification.RegisteredCategory(identifier: id, actions: actions, said: said)
        let message = "category \(id) with \(actions.map(\.title).joined(separator: ", ")) from \(spec.keyPath), \(said)" + (dropped.isEmpty ? "" : "; left out: " + dropped.joined(separator: ", "))
        return (category, .init(step: "sdk", outcome: "registered", message: message))
    }

    /// The media references at the SDK's keys, each with its key path; a value of another shape,
    /// or one without the type key the SDK requires, is a step saying so.
    func media(_ userInfo: [AnyHashable: Any]) -> (references: [(path: String, reference: String, said: String)], problems: [ServiceTrace.Step]) {
        var references: [(String, String, String)] = [], problems: [ServiceTrace.Step] = []
        for m in sdk.media {
            guard let value = KeyPath(m.keyPath).lookup(in: userInfo).value else { continue }
            let said = sdk.said(m.source)
            if m.typeRequired, let typeKey = m.typeKeyPath, KeyPath(typeKey).lookup(in: userInfo).value == nil {
                problems.append(.init(step: "attach", outcome: "not attached", message: "\(m.keyPath): no \(typeKey) beside it, and without it nothing is attached, \(said)"))
                continue
            }
            switch (m.shape, value) {
            case (_, let s as String): references.append((m.keyPath, s, said))
            case (.strings, let items as [Any]):
                for (i, item) in items.enumerated() {
                    if let s = item as? String { references.append(("\(m.keyPath).\(i)", s, said)) }
                }
            case (.objectValues, _) where KeyPath.object(value) != nil:
                let object = KeyPath.object(value)!
                for key in object.keys.sorted() {
                    if let s = object[key] as? String { references.append(("\(m.keyPath).\(key)", s, said)) }
                }
            default:
                problems.append(.init(step: "attach", outcome: "not attached", message: "\(m.keyPath): expected \(m.shape == .objectValues ? "an object of URLs" : "a URL string"), got \(KeyPath.typeName(value)), \(said)"))
            }
        }
        return (references, problems)
    }
}
