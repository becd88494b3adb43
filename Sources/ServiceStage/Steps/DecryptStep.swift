import Foundation
import Payload

/// Opens an AES-256-GCM box (CryptoKit's combined layout, base64 in a payload key) with a key
/// from the app group; the plaintext JSON's title, subtitle and body replace the alert's and its
/// other keys become custom keys. Any failure means: show the original content.
struct DecryptStep {
    let settings: ServiceSettings.Decrypt
    let projectFolder: URL

    enum Result { case decrypted(bytes: Int), notEncrypted, failed(String) }

    func run(_ content: UNMutableNotificationContent) -> Result {
        guard let boxText = content.userInfo[settings.payloadKey] else { return .notEncrypted }
        guard let base64 = boxText as? String, let box = Data(base64Encoded: base64, options: .ignoreUnknownCharacters) else {
            return .failed("\(settings.payloadKey) is not base64 text")
        }
        let keyId = content.userInfoString(settings.keyIdKey) ?? "default"
        guard let keysFile = ServiceSettings.projectFile(settings.keys, in: projectFolder) else {
            return .failed("decrypt.keys \(settings.keys) lies outside the project; not read")
        }
        guard let keysData = FileManager.default.contents(atPath: keysFile.path) else { return .failed("no key file at \(keysFile.path)") }
        let keys: JSONValue
        do { keys = try JSONParser.parse([UInt8](keysData), file: keysFile.path) } catch { return .failed("\(error)") }
        guard let keyText = keys[keyId]?.string, let key = Data(base64Encoded: keyText) else {
            return .failed("\(keysFile.lastPathComponent) has no base64 key \"\(keyId)\"")
        }
        let plaintext: [UInt8]
        do { plaintext = try AESGCM.open([UInt8](box), key: [UInt8](key)) } catch { return .failed("\(error)") }
        let json: JSONValue
        do { json = try JSONParser.parse(plaintext, file: "decrypted \(settings.payloadKey)") } catch {
            return .failed("the plaintext is not JSON: \(error.message)")
        }
        guard case .object(let members) = json else { return .failed("the plaintext is \(json.typeName), expected an object") }
        var userInfo = content.userInfo
        userInfo[settings.payloadKey] = nil
        for (key, value) in members {
            switch (key, value) {
            case ("title", .string(let s)): content.title = s
            case ("subtitle", .string(let s)): content.subtitle = s
            case ("body", .string(let s)): content.body = s
            default: userInfo[key] = value.foundation
            }
        }
        content.userInfo = userInfo
        return .decrypted(bytes: box.count)
    }
}
