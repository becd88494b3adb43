import ConfinedFiles
import Foundation
import Payload
import Formats

/// Opens an encrypted payload with keys from the app group: an AES-256-GCM box (CryptoKit's
/// combined layout, base64, its key chosen by key id) or a Web Push message (RFC 8291's
/// aes128gcm, or the aesgcm draft with salt and sender key in payload keys). The plaintext is
/// a JSON object: its title, subtitle and body (or the keys `alertKeys` names) replace the
/// alert's, its other keys become custom keys. Any failure means: show the original content.
struct DecryptStep {
    let settings: ServiceSettings.Decrypt
    let folders: ServiceFolders

    enum Result { case decrypted(bytes: Int), notEncrypted, failed(String) }

    func run(_ content: UNMutableNotificationContent) -> Result {
        guard let value = content.userInfo[settings.payloadKey] else { return .notEncrypted }
        do throws(DecryptFailure) {
            guard let text = value as? String else { throw DecryptFailure("payload", "\(settings.payloadKey) is not text") }
            let (plaintext, bytes) = switch settings.scheme {
            case .aes256gcm: try openBox(text, content)
            case .webpush: try openWebPush(text, content)
            }
            try apply(plaintext, to: content)
            return .decrypted(bytes: bytes)
        } catch {
            return .failed(error.description)
        }
    }

    /// The plaintext and the size of what was opened.
    private func openBox(_ text: String, _ content: UNMutableNotificationContent) throws(DecryptFailure) -> ([UInt8], Int) {
        let box = try decode(.base64, text, settings.payloadKey, step: "payload")
        let keyId = content.userInfoString(settings.keyIdKey) ?? "default"
        let (keys, file) = try readKeys()
        guard let keyText = keys[keyId]?.string else { throw DecryptFailure("keys", "\(file) has no base64 key \"\(keyId)\"") }
        let key = try decode(.base64, keyText, "\(file) key \"\(keyId)\"", length: 32, step: "keys")
        do { return (try AESGCM.open(box, key: key), box.count) } catch { throw DecryptFailure("box", error.description) }
    }

    private func openWebPush(_ text: String, _ content: UNMutableNotificationContent) throws(DecryptFailure) -> ([UInt8], Int) {
        let body = try decode(settings.encoding, text, settings.payloadKey, step: "payload")
        let (json, file) = try readKeys()
        let scalar = try decode(.base64url, json["privateKey"]?.string, "\(file) privateKey", length: 32, step: "keys")
        let auth = try decode(.base64url, json["auth"]?.string, "\(file) auth", length: 16, step: "keys")
        let privateKey: P256PrivateKey
        do { privateKey = try P256PrivateKey(scalar: scalar) } catch { throw DecryptFailure("keys", "\(file) privateKey is \(error)") }
        let keys = WebPushKeys(privateKey: privateKey, auth: auth)
        switch settings.contentEncoding {
        case .aes128gcm:
            return (try WebPush.openAES128GCM(body, keys: keys), body.count)
        case .aesgcm:
            let salt = try decode(settings.encoding, content.userInfo[settings.saltKey] as? String, settings.saltKey, length: 16, step: "payload")
            let senderKey = try decode(settings.encoding, content.userInfo[settings.senderKeyKey] as? String, settings.senderKeyKey, length: 65, step: "payload")
            let plaintext = try WebPush.openAESGCM(body, salt: salt, senderKey: senderKey, keys: keys)
            // They belong to the encrypted message, as its HTTP headers did.
            content.userInfo[settings.saltKey] = nil
            content.userInfo[settings.senderKeyKey] = nil
            return (plaintext, body.count)
        }
    }

    /// The key file as JSON, and its name for messages.
    private func readKeys() throws(DecryptFailure) -> (JSONValue, String) {
        guard let file = folders.projectFile(settings.keys) else {
            throw DecryptFailure("keys", "decrypt.keys \(settings.keys) lies outside the project; not read")
        }
        let data: [UInt8]
        do { data = try folders.project.read(file, limit: 1 << 20) } catch {
            throw DecryptFailure("keys", error.isMissing ? "no key file at \(file.path)" : "decrypt.keys \(settings.keys): \(error.why)")
        }
        do { return (try JSONParser.parse(data, file: file.path), file.lastPathComponent) } catch {
            throw DecryptFailure("keys", "\(error)")
        }
    }

    private func decode(_ encoding: BinaryText, _ text: String?, _ key: String, length: Int? = nil, step: String) throws(DecryptFailure) -> [UInt8] {
        guard let text else { throw DecryptFailure(step, "\(key) is missing or not text") }
        do { return try encoding.decode(text, key: key, length: length) } catch { throw DecryptFailure(step, error.message) }
    }

    /// The plaintext contract: a JSON object; each alert field takes the string at its key (or
    /// the key path `alertKeys` gives), and every other top-level key becomes a custom key in
    /// place of the encrypted one.
    private func apply(_ plaintext: [UInt8], to content: UNMutableNotificationContent) throws(DecryptFailure) {
        let json: JSONValue
        do { json = try JSONParser.parse(plaintext, file: "decrypted \(settings.payloadKey)") } catch {
            throw DecryptFailure("plaintext", "the plaintext is not JSON: \(error.message)")
        }
        guard case .object(let members) = json else { throw DecryptFailure("plaintext", "the plaintext is \(json.typeName), expected an object") }
        var used: Set<String> = []
        for field in ServiceSettings.Decrypt.alertFields {
            // A key path, so a plaintext that nests its alert (`notification.title`) maps too.
            let key = settings.alertKeys[field] ?? field
            guard case .string(let text)? = KeyPath(key).lookup(in: json).value as? JSONValue else { continue }
            switch field {
            case "title": content.title = text
            case "subtitle": content.subtitle = text
            default: content.body = text
            }
            used.insert(key)
        }
        var userInfo = content.userInfo
        userInfo[settings.payloadKey] = nil
        for (key, value) in members where !used.contains(key) { userInfo[key] = value.foundation }
        content.userInfo = userInfo
    }
}
