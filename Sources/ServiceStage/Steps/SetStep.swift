import Foundation
import Payload
import Templating
import Formats

/// The fields a service extension may change on the content, by the payload's names
/// (`thread-id`) or the API's (`threadIdentifier`): the one place an `enrich` rule's `set` and
/// the `set` step write through. A field that is none of these is a custom key.
enum ContentField {
    static let names: [String: String] = [
        "title": "title", "subtitle": "subtitle", "body": "body",
        "category": "category", "categoryIdentifier": "category",
        "thread-id": "thread-id", "threadIdentifier": "thread-id",
        "sound": "sound", "badge": "badge",
        "target-content-id": "target-content-id", "targetContentIdentifier": "target-content-id",
        "interruption-level": "interruption-level", "interruptionLevel": "interruption-level",
        "relevance-score": "relevance-score", "relevanceScore": "relevance-score",
        "filter-criteria": "filter-criteria", "filterCriteria": "filter-criteria",
        "summary-arg": "summary-arg", "summaryArgument": "summary-arg",
        "summary-arg-count": "summary-arg-count", "summaryArgumentCount": "summary-arg-count",
    ]
    /// What an extension cannot change (the system owns them).
    static let refused: Set<String> = ["aps", "alert", "content-available", "mutable-content", "attachments"]

    /// Sets `field` to `text`; nil when done, else why not (the content is unchanged then).
    static func set(_ field: String, _ text: String, on content: UNMutableNotificationContent) -> String? {
        if refused.contains(field) { return "\(field) is not a field an extension can change" }
        if field.hasPrefix("communication.") {
            let name = String(field.dropFirst("communication.".count))
            guard ServiceSettings.communicationFields.contains(name) else { return "\(field) is not one of communication.\(ServiceSettings.communicationFields.joined(separator: ", communication."))" }
            var c = content.communication ?? UNCommunication(senderName: "")
            c[field: name] = text
            content.communication = c
            return nil
        }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        switch names[field] {
        case "title": content.title = text
        case "subtitle": content.subtitle = text
        case "body": content.body = text
        case "category": content.categoryIdentifier = trimmed
        case "thread-id": content.threadIdentifier = trimmed
        case "sound": content.sound = trimmed.isEmpty ? nil : trimmed == "default" ? .default : UNNotificationSound(named: trimmed)
        case "badge":
            if trimmed.isEmpty { content.badge = nil; return nil }
            guard let n = Int(trimmed), n >= 0 else { return "badge \"\(trimmed.prefix(40))\" is not a whole number ≥ 0" }
            content.badge = NSNumber(value: n)
        case "target-content-id": content.targetContentIdentifier = trimmed.isEmpty ? nil : trimmed
        case "interruption-level":
            guard let level = UNNotificationInterruptionLevel(rawValue: trimmed) else {
                return "interruption-level \"\(trimmed.prefix(40))\" is not one of \(UNNotificationInterruptionLevel.allCases.map(\.rawValue).joined(separator: ", "))"
            }
            content.interruptionLevel = level
        case "relevance-score":
            guard let score = Double(trimmed), score.isFinite, (0...1).contains(score) else { return "relevance-score \"\(trimmed.prefix(40))\" is not a number from 0 to 1" }
            content.relevanceScore = score
        case "filter-criteria": content.filterCriteria = trimmed.isEmpty ? nil : trimmed
        case "summary-arg": content.summaryArgument = text
        case "summary-arg-count":
            guard let n = Int(trimmed), n >= 0 else { return "summary-arg-count \"\(trimmed.prefix(40))\" is not a whole number ≥ 0" }
            content.summaryArgumentCount = n
        default:
            var userInfo = content.userInfo
            userInfo[field] = text
            content.userInfo = userInfo
        }
        return nil
    }

    /// The data `set` templates see: the content as it is now, and its custom keys.
    static func data(_ content: UNNotificationContent) -> TemplateValue {
        .object(["title": .string(content.title), "subtitle": .string(content.subtitle), "body": .string(content.body),
                 "category": .string(content.categoryIdentifier), "threadIdentifier": .string(content.threadIdentifier),
                 "userInfo": TemplateValue(json: .object(JSONValue.members(content.userInfo)))])
    }
}

/// `"set": {"FIELD": "Mustache", …}` in pushpreview.json: what an extension sets on every
/// notification, from the payload as decryption and enrichment left it, in the order given.
struct SetStep {
    let fields: [(field: String, template: String)]
    /// The app's string for a key, in the locale drawn (the `prefix:` and `suffix:` filters).
    let localize: (String) -> String?

    func run(_ content: UNMutableNotificationContent) -> (outcome: String, message: String) {
        var changed: [String] = [], problems: [String] = []
        for (field, source) in fields {
            let text: String
            do { text = try MustacheTemplate(source, name: "pushpreview.json set.\(field)").render(ContentField.data(content), html: false, localize: localize) } catch {
                problems.append("\(error)"); continue
            }
            if let problem = ContentField.set(field, text, on: content) { problems.append("set.\(field): \(problem); left as it was") }
            else { changed.append("\(field) = \"\(text.prefix(60))\"") }
        }
        let outcome = problems.isEmpty ? "set" : changed.isEmpty ? "failed" : "partly set"
        return (outcome, (changed + problems).joined(separator: "; "))
    }
}
