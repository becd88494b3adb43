import Foundation
import Payload
import Templating

/// Fills fields from JSON data in the app group, keyed by a payload value: for example a
/// sender id to a display name and an avatar. Each rule's `set` templates see the record.
struct EnrichStep {
    let rule: ServiceSettings.EnrichRule
    let projectFolder: URL

    func run(_ content: UNMutableNotificationContent) -> (outcome: String, message: String) {
        guard let value = content.userInfoString(rule.key) else { return ("skipped", "no \(rule.key) in the payload") }
        guard let file = ServiceSettings.projectFile(rule.data, in: projectFolder) else {
            return ("failed", "enrich data \(rule.data) lies outside the project; not read")
        }
        guard let data = FileManager.default.contents(atPath: file.path) else { return ("failed", "no data file at \(file.path)") }
        let json: JSONValue
        do { json = try JSONParser.parse([UInt8](data), file: file.path) } catch { return ("failed", "\(error)") }
        guard let record = json[value] else { return ("no match", "\(rule.key) \"\(value)\" is not in \(rule.data)") }
        var userInfo = content.userInfo
        var changed: [String] = [], refused: [String] = []
        for (field, source) in rule.set {
            // Fields of the aps dictionary that enrichment does not set (yet): said, not stored as custom keys.
            if Self.notContentFields.contains(field) { refused.append(field); continue }
            let text: String
            do { text = try MustacheTemplate(source, name: "\(rule.data) rule").render(TemplateValue(json: record)) } catch {
                return ("failed", "\(error)")
            }
            switch field {
            case "title": content.title = text
            case "subtitle": content.subtitle = text
            case "body": content.body = text
            case "threadIdentifier", "thread-id": content.threadIdentifier = text
            case let f where f.hasPrefix("communication."):
                let name = String(f.dropFirst("communication.".count))
                guard ServiceSettings.communicationFields.contains(name) else { refused.append(field); continue }
                var c = content.communication ?? UNCommunication(senderName: "")
                switch name {
                case "senderName": c.senderName = text
                case "senderImage": c.senderImage = text
                case "groupName": c.groupName = text
                default: c.groupImage = text
                }
                content.communication = c
            default: userInfo[field] = text
            }
            changed.append(field)
        }
        content.userInfo = userInfo
        if !refused.isEmpty {
            return ("partly enriched", "\(rule.key) \"\(value)\" → \(changed.joined(separator: ", ")); set.\(refused.joined(separator: ", set.")) is not a content field enrich can change (title, subtitle, body, thread-id, communication.senderName, .senderImage, .groupName, .groupImage or a custom key): ignored")
        }
        return ("enriched", "\(rule.key) \"\(value)\" → \(changed.joined(separator: ", "))")
    }

    static let notContentFields: Set<String> = ["aps", "alert", "badge", "sound", "category", "categoryIdentifier", "content-available", "mutable-content",
                                                "interruption-level", "relevance-score", "target-content-id", "filter-criteria"]
}

extension TemplateValue {
    /// JSON values as template data (payload custom keys, enrichment records).
    public init(json: JSONValue) {
        switch json {
        case .null: self = .null
        case .bool(let b): self = .bool(b)
        case .number(let n): self = .number(n)
        case .string(let s): self = .string(s)
        case .array(let items): self = .list(items.map(TemplateValue.init(json:)))
        case .object(let members): self = .object(Dictionary(members.map { ($0.key, TemplateValue(json: $0.value)) }) { $1 })
        }
    }
}
