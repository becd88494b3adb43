import Checked
import Foundation
import Payload
import Templating

/// The service stage's part of `pushpreview.json`.
///
/// ```json
/// "timeBudget": 30,
/// "mediaRoots": ["media"], "allowedHosts": ["cdn.example.com", "127.0.0.1:8080"],
/// "mediaKeys": ["image-url", "attachment-url", "media-url"],
/// "decrypt": {"payloadKey": "encrypted", "keyIdKey": "key-id", "keys": "app-group/keys.json"},
/// "enrich": [{"key": "sender-id", "data": "app-group/contacts.json",
///             "set": {"title": "{{name}}", "image-url": "{{avatar}}"}}],
/// "communication": {"senderName": "{{userInfo.sender-name}}", "senderImage": "{{userInfo.sender-avatar}}",
///                   "groupName": "{{userInfo.group-name}}", "groupImage": "{{userInfo.group-avatar}}"}
/// ```
public struct ServiceSettings: Sendable {
    public var timeBudget = 30.0
    public var mediaRoots = ["media"]
    public var allowedHosts: [String] = []
    public var mediaKeys = ["image-url", "attachment-url", "media-url"]
    /// Where each attachment option is, when not at `attachment-options.NAME`: option name → key path.
    public var attachmentOptions: [String: String] = [:]
    public static let attachmentOptionNames = ["type-hint", "thumbnail-hidden", "thumbnail-time", "thumbnail-clipping-rect"]
    public var decrypt: Decrypt?
    public var enrich: [EnrichRule] = []
    /// Mustache templates over the notification's data (`title`, `subtitle`, `body`, `userInfo`):
    /// what the extension's donated `INSendMessageIntent` says of the sender and the group.
    public var communication: [String: String] = [:]
    /// `set`: field → Mustache over the content, applied in order after enrichment.
    public var set: [(field: String, template: String)] = []
    public static let communicationFields = ["senderName", "senderImage", "groupName", "groupImage"]
    /// The shared container: keys, enrichment data, the download cache.
    public var appGroup = "app-group"

    public struct Decrypt: Sendable {
        public var payloadKey = "encrypted"
        public var keyIdKey = "key-id"
        /// A JSON object: key id → base64 of a 32-byte key.
        public var keys = "app-group/keys.json"
        public init() {}
    }

    public struct EnrichRule: Sendable {
        /// The payload key whose value is looked up.
        public var key: String
        /// A JSON object, relative to the project: value → record.
        public var data: String
        /// Field (title, subtitle, body, or a custom key) → Mustache template over the record.
        public var set: [(field: String, template: String)]
        public init(key: String, data: String, set: [(field: String, template: String)]) {
            self.key = key; self.data = data; self.set = set
        }
    }

    public init() {}

    /// `path` (relative to the project, or absolute) as a file inside one of the media roots,
    /// symlinks resolved first; nil when it lies outside them.
    public func mediaFile(_ path: String, in projectFolder: URL) -> URL? {
        Confinement.file(path, relativeTo: projectFolder, within: mediaRoots.map { projectFolder.appendingPathComponent($0) })
    }

    /// A file the project names for itself (keys, enrichment data, the app group, the icon): inside
    /// the project folder, by the same rule as media; nil when it lies outside.
    public static func projectFile(_ path: String, in projectFolder: URL) -> URL? {
        Confinement.file(path, relativeTo: projectFolder, within: [projectFolder])
    }

    public static let keys: Set<String> = ["timeBudget", "mediaRoots", "allowedHosts", "mediaKeys", "attachmentOptions", "decrypt", "enrich", "set", "communication"]

    /// Reads the keys above from the settings object; errors name the file and key.
    public init(settings: JSONValue, file: String) throws(SettingsError) {
        func fail(_ path: String, _ message: String) -> SettingsError { SettingsError(message: "\(file): \(path): \(message)") }
        func strings(_ v: JSONValue, _ path: String) throws(SettingsError) -> [String] {
            guard case .array(let items) = v, items.allSatisfy({ $0.string != nil }) else { throw fail(path, "expected an array of strings, got \(v.compact)") }
            return items.compactMap(\.string)
        }
        func string(_ v: JSONValue?, _ path: String, default d: String) throws(SettingsError) -> String {
            guard let v else { return d }
            guard let s = v.string else { throw fail(path, "expected string, got \(v.typeName)") }
            return s
        }
        if let v = settings["timeBudget"] {
            guard let n = v.number, n > 0, n <= 600 else { throw fail("timeBudget", "expected seconds between 0 and 600, got \(v.compact)") }
            timeBudget = n
        }
        if let v = settings["mediaRoots"] { mediaRoots = try strings(v, "mediaRoots") }
        if let v = settings["allowedHosts"] { allowedHosts = try strings(v, "allowedHosts") }
        if let v = settings["mediaKeys"] { mediaKeys = try strings(v, "mediaKeys") }
        if let v = settings["attachmentOptions"] {
            guard case .object(let members) = v else { throw fail("attachmentOptions", "expected an object: option name → key path, got \(v.typeName)") }
            for (name, path) in members {
                guard Self.attachmentOptionNames.contains(name) else { throw fail("attachmentOptions.\(name)", "not an attachment option; one of \(Self.attachmentOptionNames.joined(separator: ", "))") }
                guard let p = path.string, !p.isEmpty else { throw fail("attachmentOptions.\(name)", "expected a key path string, got \(path.compact)") }
                attachmentOptions[name] = p
            }
        }
        if let v = settings["decrypt"] {
            guard case .object = v else { throw fail("decrypt", "expected an object, got \(v.typeName)") }
            var d = Decrypt()
            d.payloadKey = try string(v["payloadKey"], "decrypt.payloadKey", default: d.payloadKey)
            d.keyIdKey = try string(v["keyIdKey"], "decrypt.keyIdKey", default: d.keyIdKey)
            d.keys = try string(v["keys"], "decrypt.keys", default: d.keys)
            decrypt = d
        }
        if let v = settings["enrich"] {
            guard case .array(let rules) = v else { throw fail("enrich", "expected an array of rules, got \(v.typeName)") }
            for (i, rule) in rules.enumerated() {
                let path = "enrich[\(i)]"
                guard let key = rule["key"]?.string, let data = rule["data"]?.string, case .object(let set)? = rule["set"] else {
                    throw fail(path, "a rule needs \"key\" (string), \"data\" (string) and \"set\" (object)")
                }
                var fields: [(String, String)] = []
                for (field, template) in set {
                    guard let t = template.string else { throw fail("\(path).set.\(field)", "expected a template string, got \(template.typeName)") }
                    fields.append((field, t))
                }
                enrich.append(EnrichRule(key: key, data: data, set: fields))
            }
        }
        if let v = settings["communication"] {
            guard case .object(let fields) = v else { throw fail("communication", "expected an object, got \(v.typeName)") }
            for (field, template) in fields {
                guard Self.communicationFields.contains(field) else {
                    throw fail("communication.\(field)", "unknown field; expected \(Self.communicationFields.joined(separator: ", "))")
                }
                guard let t = template.string else { throw fail("communication.\(field)", "expected a template string, got \(template.typeName)") }
                communication[field] = t
            }
        }
        if let v = settings["set"] {
            guard case .object(let fields) = v else { throw fail("set", "expected an object: field → template, got \(v.typeName)") }
            for (field, template) in fields {
                guard let t = template.string else { throw fail("set.\(field)", "expected a template string, got \(template.typeName)") }
                guard !ContentField.refused.contains(field) else { throw fail("set.\(field)", "not a field an extension can change") }
                do { _ = try MustacheTemplate(t, name: "\(file) set.\(field)") } catch { throw fail("set.\(field)", "\(error)") }
                set.append((field, t))
            }
        }
    }
}

public struct SettingsError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
