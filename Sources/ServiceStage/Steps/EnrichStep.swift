import ConfinedFiles
import Foundation
import Payload
import Templating
import Formats

/// Fills fields from JSON data in the app group, keyed by a payload value: for example a
/// sender id to a display name and an avatar. Each rule's `set` templates see the record.
struct EnrichStep {
    let rule: ServiceSettings.EnrichRule
    let folders: ServiceFolders
    let localize: (String) -> String?

    func run(_ content: UNMutableNotificationContent) -> (outcome: String, message: String) {
        let value: String
        switch KeyPath(rule.key).lookup(in: content.userInfo) {
        case .missing(let at): return ("skipped", "no \(rule.key) in the payload" + (at == rule.key ? "" : " (nothing at \(at))"))
        case .wrongType(let at, let found): return ("skipped", "\(rule.key): \(at) is \(found), not an object")
        case .found(let v):
            guard let text = UNNotificationContent.text(v) else { return ("skipped", "\(rule.key) is \(KeyPath.typeName(v)), not a string or number to look up") }
            value = text
        }
        guard let file = folders.projectFile(rule.data) else {
            return ("failed", "enrich data \(rule.data) lies outside the project; not read")
        }
        let data: [UInt8]
        do { data = try folders.project.read(file, limit: 64 << 20) } catch {
            return ("failed", error.isMissing ? "no data file at \(file.path)" : "enrich data \(rule.data): \(error.why)")
        }
        let json: JSONValue
        do { json = try JSONParser.parse(data, file: file.path) } catch { return ("failed", "\(error)") }
        guard let record = json[value] else { return ("no match", "\(rule.key) \"\(value)\" is not in \(rule.data)") }
        var changed: [String] = [], refused: [String] = []
        // The record's fields first, then the payload's (a rule may use both).
        let scope = TemplateValue.layered(TemplateValue(json: record), over: ContentField.data(content))
        for (field, source) in rule.set {
            let text: String
            do { text = try MustacheTemplate(source, name: "\(rule.data) rule").render(scope, html: false, localize: localize) } catch {
                return ("failed", "\(error)")
            }
            if let problem = ContentField.set(field, text, on: content) { refused.append("set.\(field): \(problem)") } else { changed.append(field) }
        }
        if !refused.isEmpty {
            return (changed.isEmpty ? "failed" : "partly enriched", "\(rule.key) \"\(value)\" → \(changed.joined(separator: ", ")); \(refused.joined(separator: "; ")): ignored")
        }
        return ("enriched", "\(rule.key) \"\(value)\" → \(changed.joined(separator: ", "))")
    }
}

extension TemplateValue {
    /// `top`'s members, and `under`'s where `top` has none of that name (objects only).
    static func layered(_ top: TemplateValue, over under: TemplateValue) -> TemplateValue {
        guard case .object(let a) = top, case .object(let b) = under else { return top }
        return .object(a.merging(b) { mine, _ in mine })
    }

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
