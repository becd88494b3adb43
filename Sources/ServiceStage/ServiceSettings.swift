import Checked
import Foundation
import Payload
import Templating
import Formats

/// The service stage's part of `pushpreview.json`.
///
/// ```json
/// "timeBudget": 30,
/// "mediaRoots": ["media"], "allowedHosts": ["cdn.example.com", "127.0.0.1:8080"],
/// "mediaKeys": ["image-url", "attachment-url", "media-url"],
/// "sdks": ["klaviyo"],   (Templates/sdks/klaviyo.json: the push SDK the extension calls)
/// "decrypt": {"payloadKey": "encrypted", "keyIdKey": "key-id", "keys": "app-group/keys.json"},
///   or {"scheme": "webpush", "payloadKey": "p", "keys": "app-group/webpush.json",
///       "contentEncoding": "aesgcm", "saltKey": "s", "senderKeyKey": "k", "encoding": "z85",
///       "alertKeys": {"body": "message"}},
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
    /// The push SDKs the service extension hands payloads to (`Templates/sdks/ID.json`): their
    /// media keys are attached, their buttons built and their changes made, as each SDK does.
    public var sdks: [PushSDK] = []
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
    public static let communicationFields = ["senderName", "senderImage", "senderHandle", "groupName", "groupImage"]
    /// The shared container: keys, enrichment data, the download cache.
    public var appGroup = "app-group"

    public struct Decrypt: Sendable {
        /// `aes256gcm`: a CryptoKit box, its key chosen by key id. `webpush`: a Web Push message.
        public enum Scheme: String, Sendable, CaseIterable { case aes256gcm, webpush }
        /// Web Push's codings: RFC 8291's records carrying the sender's key, or the older draft's
        /// one record whose salt and sender key travel in payload keys.
        public enum ContentEncoding: String, Sendable, CaseIterable { case aes128gcm, aesgcm }
        public static let alertFields = ["title", "subtitle", "body"]

        public var scheme: Scheme
        public var payloadKey = "encrypted"
        /// aes256gcm: the payload key whose value names the key to use.
        public var keyIdKey = "key-id"
        /// aes256gcm: a JSON object, key id → base64 of a 32-byte key. webpush:
        /// `{"privateKey": base64url of the 32-byte P-256 key, "auth": base64url of the 16-byte secret}`.
        public var keys: String
        public var contentEncoding = ContentEncoding.aes128gcm
        /// webpush: how the payload writes the body, salt and sender key.
        public var encoding = BinaryText.base64url
        /// webpush aesgcm: the payload keys carrying the salt and the sender's public key.
        public var saltKey = "s"
        public var senderKeyKey = "k"
        /// Alert field → the plaintext key that fills it, where it is not the field's own name.
        public var alertKeys: [String: String] = [:]

        public init(scheme: Scheme = .aes256gcm) {
            self.scheme = scheme
            keys = scheme == .webpush ? "app-group/webpush.json" : "app-group/keys.json"
        }

        public static let settingKeys = ["scheme", "payloadKey", "keys", "alertKeys", "keyIdKey", "contentEncoding", "encoding", "saltKey", "senderKeyKey"]

        /// What must be chosen for `key` to be read, when these settings do not choose it.
        func unmetCondition(for key: String) -> String? {
            let webpush = "\"scheme\": \"webpush\""
            switch key {
            case "keyIdKey": return scheme == .aes256gcm ? nil : "\"scheme\": \"aes256gcm\""
            case "contentEncoding", "encoding": return scheme == .webpush ? nil : webpush
            case "saltKey", "senderKeyKey": return scheme == .webpush && contentEncoding == .aesgcm ? nil : "\(webpush) and \"contentEncoding\": \"aesgcm\""
            default: return nil
            }
        }
    }

    public struct EnrichRule: Sendable {
        public static let settingKeys = ["key", "data", "set"]
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

    /// Whether a rule or the `set` step may change `field` (by either of its names): what a
    /// payload says of it is then not the last word.
    public func mayChange(_ field: String) -> Bool {
        let name = ContentField.names[field] ?? field
        return (set + enrich.flatMap(\.set)).contains { (ContentField.names[$0.field] ?? $0.field) == name }
    }

    /// Whether a template uses the app's strings (`prefix:` and `suffix:` filters), so that its
    /// text depends on the locale.
    public var readsAppStrings: Bool {
        let templates = (set + enrich.flatMap(\.set)).map(\.template) + Array(communication.values)
        return templates.contains { $0.contains("{{#prefix:") || $0.contains("{{#suffix:") }
    }

    public static let keys: Set<String> = ["timeBudget", "mediaRoots", "allowedHosts", "mediaKeys", "sdks", "attachmentOptions", "decrypt", "enrich", "set", "communication"]

    /// Reads the keys above from the settings object; errors name the file and key.
    public init(settings: JSONValue, file: String) throws(SettingsError) {
        func fail(_ path: String, _ message: String) -> SettingsError { SettingsError(file: file, keyPath: path, reason: message) }
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
        if let v = settings["sdks"] {
            let catalog = PushSDK.Catalog.standard
            for id in try strings(v, "sdks") {
                guard let sdk = catalog.sdk(id) else {
                    throw fail("sdks", "no push SDK \"\(id)\" in Templates/sdks; known: \(catalog.sdks.map(\.id).joined(separator: ", "))" + (catalog.problems.isEmpty ? "" : " (\(catalog.problems.joined(separator: "; ")))"))
                }
                sdks.append(sdk)
            }
        }
        if let v = settings["attachmentOptions"] {
            guard case .object(let members) = v else { throw fail("attachmentOptions", "expected an object: option name → key path, got \(v.typeName)") }
            for (name, path) in members {
                guard Self.attachmentOptionNames.contains(name) else { throw fail("attachmentOptions.\(name)", "not an attachment option; one of \(Self.attachmentOptionNames.joined(separator: ", "))") }
                guard let p = path.string, !p.isEmpty else { throw fail("attachmentOptions.\(name)", "expected a key path string, got \(path.compact)") }
                attachmentOptions[name] = p
            }
        }
        if let v = settings["decrypt"] { decrypt = try Self.decrypt(v, fail: fail, string: string) }
        if let v = settings["enrich"] {
            guard case .array(let rules) = v else { throw fail("enrich", "expected an array of rules, got \(v.typeName)") }
            for (i, rule) in rules.enumerated() {
                let path = "enrich[\(i)]"
                guard let key = rule["key"]?.string, let data = rule["data"]?.string, case .object(let set)? = rule["set"] else {
                    throw fail(path, "a rule needs \"key\" (string), \"data\" (string) and \"set\" (object)")
                }
                if let unknown = rule.objectMembers.first(where: { !EnrichRule.settingKeys.contains($0.key) }) {
                    throw fail("\(path).\(unknown.key)", "unknown key; expected \(EnrichRule.settingKeys.joined(separator: ", "))")
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

extension ServiceSettings {
    /// The `decrypt` object; a key the chosen scheme does not read is an error, as a typo would be.
    private static func decrypt(_ v: JSONValue, fail: (String, String) -> SettingsError,
                                string: (JSONValue?, String, String) throws(SettingsError) -> String) throws(SettingsError) -> Decrypt {
        guard case .object(let members) = v else { throw fail("decrypt", "expected an object, got \(v.typeName)") }
        func choice<T: RawRepresentable & CaseIterable>(_ key: String, default d: T) throws(SettingsError) -> T where T.RawValue == String {
            let text = try string(v[key], "decrypt.\(key)", d.rawValue)
            guard let value = T(rawValue: text) else {
                throw fail("decrypt.\(key)", "expected \(T.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: " or ")), got \"\(text)\"")
            }
            return value
        }
        var d = Decrypt(scheme: try choice("scheme", default: Decrypt.Scheme.aes256gcm))
        d.payloadKey = try string(v["payloadKey"], "decrypt.payloadKey", d.payloadKey)
        d.keys = try string(v["keys"], "decrypt.keys", d.keys)
        d.keyIdKey = try string(v["keyIdKey"], "decrypt.keyIdKey", d.keyIdKey)
        d.contentEncoding = try choice("contentEncoding", default: d.contentEncoding)
        d.encoding = try choice("encoding", default: d.encoding)
        d.saltKey = try string(v["saltKey"], "decrypt.saltKey", d.saltKey)
        d.senderKeyKey = try string(v["senderKeyKey"], "decrypt.senderKeyKey", d.senderKeyKey)
        if let mapping = v["alertKeys"] {
            guard case .object(let fields) = mapping else { throw fail("decrypt.alertKeys", "expected an object, got \(mapping.typeName)") }
            for (field, key) in fields {
                guard Decrypt.alertFields.contains(field) else {
                    throw fail("decrypt.alertKeys.\(field)", "unknown field; expected \(Decrypt.alertFields.joined(separator: ", "))")
                }
                d.alertKeys[field] = try string(key, "decrypt.alertKeys.\(field)", field)
            }
        }
        for (key, _) in members {
            guard Decrypt.settingKeys.contains(key) else {
                throw fail("decrypt.\(key)", "unknown key; expected \(Decrypt.settingKeys.joined(separator: ", "))")
            }
            if let condition = d.unmetCondition(for: key) { throw fail("decrypt.\(key)", "read only with \(condition)") }
        }
        return d
    }
}

public struct SettingsError: Error, CustomStringConvertible {
    public var file: String
    /// Where in the settings ("decrypt.keys", "enrich[0].set.title").
    public var keyPath: String
    public var reason: String
    public var message: String { "\(file): \(keyPath): \(reason)" }
    public var description: String { message }
}
