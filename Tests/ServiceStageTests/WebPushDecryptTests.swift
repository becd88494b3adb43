import Foundation
import Payload
import Testing
import ServiceStage
import Formats

/// `"decrypt": {"scheme": "webpush", …}` through the service stage: messages the tests' sender
/// makes (checked against the RFC in `WebPushVectorTests`) replace the alert; every way one can
/// be wrong shows the original content, with a warning naming the step that failed.
struct WebPushDecryptTests {
    typealias RFC8291 = WebPushVectorTests.RFC8291
    typealias Draft04 = WebPushVectorTests.Draft04
    let project = ScratchProject()
    let sender: WebPushSender
    let goodKeys = #"{"privateKey": "\#(base64url(RFC8291.uaPrivate))", "auth": "\#(base64url(RFC8291.auth))"}"#

    init() throws {
        sender = WebPushSender(key: try P256PrivateKey(scalar: RFC8291.asPrivate), salt: RFC8291.salt)
    }

    static func settings(_ encoding: ServiceSettings.Decrypt.ContentEncoding = .aes128gcm) -> ServiceSettings.Decrypt {
        var d = ServiceSettings.Decrypt(scheme: .webpush)
        d.payloadKey = "p"
        d.contentEncoding = encoding
        if encoding == .aesgcm { d.encoding = .z85 }
        return d
    }

    /// Runs a payload whose alert is the placeholder a relay sends, plus `fields`.
    func run(_ fields: [String: String], settings decrypt: ServiceSettings.Decrypt = WebPushDecryptTests.settings(), keys: String? = nil) throws -> DeliveredNotification {
        try project.write("app-group/webpush.json", keys ?? goodKeys)
        var settings = ServiceSettings()
        settings.decrypt = decrypt
        let custom = String(decoding: try JSONSerialization.data(withJSONObject: fields, options: .sortedKeys), as: UTF8.self).dropFirst().dropLast()
        return try project.run(#"{"aps": {"alert": {"title": "Encrypted message", "body": "Open the app"}, "mutable-content": 1}, \#(custom)}"#, settings: settings)
    }

    func message(_ plaintext: String) throws -> String {
        base64url(try sender.aes128gcm(plaintext, to: RFC8291.uaPublic, auth: RFC8291.auth))
    }

    @Test func anAes128gcmMessageReplacesTheAlert() throws {
        let body = try sender.aes128gcm(#"{"title": "Marta", "body": "See you at 7 🌅", "thread": "t1", "unread": 3}"#, to: RFC8291.uaPublic, auth: RFC8291.auth)
        let note = try run(["p": base64url(body), "relay": "r1"])
        #expect(note.title == "Marta" && note.body == "See you at 7 🌅" && note.trace.level == .full, "\(note.trace.steps)")
        #expect(note.userInfo.contains { $0.key == "thread" && $0.value == .string("t1") })
        #expect(note.userInfo.contains { $0.key == "unread" && $0.value == .number(3) })
        #expect(note.userInfo.contains { $0.key == "relay" } && !note.userInfo.contains { $0.key == "p" })
        let step = try #require(note.trace.steps.first { $0.step == "decrypt" })
        #expect(step.outcome == "decrypted" && step.bytes == body.count)
    }

    @Test func alertKeysNameThePlaintextsKeys() throws {
        var settings = Self.settings()
        settings.alertKeys = ["title": "heading", "body": "message"]
        let note = try run(["p": try message(#"{"heading": "Tide", "message": "High water 14:02", "title": "kept"}"#)], settings: settings)
        #expect(note.title == "Tide" && note.body == "High water 14:02", "\(note.trace.steps)")
        #expect(note.userInfo.contains { $0.key == "title" && $0.value == .string("kept") })
        // A key path reaches a nested alert.
        settings.alertKeys = ["title": "notification.title", "body": "notification.lines.0"]
        let nested = try run(["p": try message(#"{"notification": {"title": "Tide", "lines": ["High water 14:02"]}}"#)], settings: settings)
        #expect(nested.title == "Tide" && nested.body == "High water 14:02", "\(nested.trace.steps)")
    }

    @Test func anAesgcmMessageInZ85() throws {
        let record = try sender.aesgcm(#"{"title": "Jonas", "subtitle": "Crew", "body": "Reefing now"}"#, to: RFC8291.uaPublic, auth: RFC8291.auth)
        let note = try run(["p": z85(record), "s": z85(RFC8291.salt), "k": z85(sender.key.publicKey)], settings: Self.settings(.aesgcm))
        #expect(note.title == "Jonas" && note.subtitle == "Crew" && note.body == "Reefing now", "\(note.trace.steps)")
        #expect(!note.userInfo.contains { ["p", "s", "k"].contains($0.key) })
    }

    /// The draft's own example, its fields in z85: it opens, and its plaintext is no JSON object.
    @Test func theDraftExampleOpensAsFarAsItsPlaintext() throws {
        let keys = #"{"privateKey": "\#(base64url(Draft04.uaPrivate))", "auth": "\#(base64url(Draft04.auth))"}"#
        let note = try run(["p": z85(Draft04.body), "s": z85(Draft04.salt), "k": z85(Draft04.asPublic)], settings: Self.settings(.aesgcm), keys: keys)
        #expect(note.trace.steps.first { $0.step == "decrypt" }?.message.hasPrefix("plaintext: the plaintext is not JSON") == true, "\(note.trace.steps)")
    }

    @Test func eachFailureShowsTheOriginalContentWithItsWarning() throws {
        let json = #"{"title": "Secret", "body": "Never shown"}"#
        let body = try sender.aes128gcm(json, to: RFC8291.uaPublic, auth: RFC8291.auth)
        // Two records of 40 bytes' worth (24 bytes of data and delimiter each, then the tag).
        let halves = [Array(json.utf8.prefix(23)) + [1], Array(json.utf8.dropFirst(23)) + [2]]
        let twoRecords = try sender.aes128gcm(records: halves, recordSize: 40, to: RFC8291.uaPublic, auth: RFC8291.auth)
        func records(_ r: [[UInt8]], recordSize: Int = 4096, headerRecordSize: Int? = nil) throws -> String {
            base64url(try sender.aes128gcm(records: r, recordSize: recordSize, headerRecordSize: headerRecordSize, to: RFC8291.uaPublic, auth: RFC8291.auth))
        }
        var offCurve = body
        offCurve[85] ^= 1
        let otherKeys = #"{"privateKey": "\#(base64url(Draft04.uaPrivate))", "auth": "\#(base64url(RFC8291.auth))"}"#
        let otherAuth = #"{"privateKey": "\#(base64url(RFC8291.uaPrivate))", "auth": "\#(base64url(Draft04.auth))"}"#
        let order = "FFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551"
        let orderBytes = stride(from: 0, to: 64, by: 2).map { UInt8(order.dropFirst($0).prefix(2), radix: 16)! }
        let record = try sender.aesgcm(json, to: RFC8291.uaPublic, auth: RFC8291.auth)
        let aesgcm = ["p": z85(record), "s": z85(RFC8291.salt), "k": z85(sender.key.publicKey)]
        func with(_ key: String, _ value: String?) -> [String: String] { var f = aesgcm; f[key] = value; return f }

        let cases: [(String, [String: String], ServiceSettings.Decrypt, String?, String)] = [
            ("wrong private key", ["p": base64url(body)], Self.settings(), otherKeys, "record 1 of 1: authentication failed"),
            ("wrong auth secret", ["p": base64url(body)], Self.settings(), otherAuth, "record 1 of 1: authentication failed"),
            ("truncated record", ["p": base64url(body.dropLast(5))], Self.settings(), nil, "record 1 of 1: authentication failed"),
            ("truncated header", ["p": base64url(body.prefix(60))], Self.settings(), nil, "header: the key id is 65 bytes, but the body ends 39 bytes into it"),
            ("last record missing", ["p": base64url(twoRecords.prefix(86 + 40))], Self.settings(), nil,
             "record 1 of 1: truncated: the last record's padding delimiter is 1, which says more records follow"),
            ("a stray tail", ["p": base64url(body + [1, 2, 3])], Self.settings(), nil, "record 1 of 1: authentication failed"),
            ("short last record", ["p": base64url(twoRecords.prefix(86 + 40) + [1, 2, 3])], Self.settings(), nil, "record 2 of 2: 3 bytes; a record is at least 17"),
            ("bad padding delimiter", ["p": try records([Array(json.utf8) + [3, 0, 0]])], Self.settings(), nil, "record 1 of 1: padding delimiter 3; expected 2"),
            ("only padding", ["p": try records([[0, 0, 0]])], Self.settings(), nil, "record 1 of 1: no padding delimiter, only zeros"),
            ("last-record delimiter too early", ["p": try records([Array(json.utf8.prefix(23)) + [2], Array(json.utf8.dropFirst(23)) + [2]], recordSize: 40)], Self.settings(), nil,
             "record 1 of 2: padding delimiter 2 marks the last record, but"),
            ("record size below 18", ["p": try records([Array(json.utf8) + [2]], headerRecordSize: 17)], Self.settings(), nil,
             "header: the record size is 17; the least RFC 8188 allows is 18"),
            ("record size too small", ["p": try records([Array(json.utf8) + [2]], headerRecordSize: 40)], Self.settings(), nil, "record 1 of 2: authentication failed"),
            ("record size too large", ["p": try records(halves, recordSize: 40, headerRecordSize: 4096)], Self.settings(), nil, "record 1 of 1: authentication failed"),
            ("sender key off the curve", ["p": base64url(offCurve)], Self.settings(), nil, "ECDH: the sender's key: not a P-256 public key: the point is not on the curve"),
            ("no sender key", ["p": "I1BsxtFttlv3u_Oo94xnmwAAEAAA-NAVub2qFgBEuQKRapoZu-IxkIva3MEB1PD-ly8Thjg"], Self.settings(), nil,
             "header: the key id is 0 bytes; Web Push puts the sender's 65-byte public key there"),
            ("not base64url", ["p": "%%%"], Self.settings(), nil, "payload: p is not base64url text"),
            ("plaintext not JSON", ["p": base64url(RFC8291.body)], Self.settings(), nil, "plaintext: the plaintext is not JSON"),
            ("short private key", ["p": base64url(body)], Self.settings(), #"{"privateKey": "\#(base64url(Array(RFC8291.uaPrivate.dropLast())))", "auth": "\#(base64url(RFC8291.auth))"}"#,
             "keys: webpush.json privateKey is 31 bytes; expected 32"),
            ("no auth secret", ["p": base64url(body)], Self.settings(), #"{"privateKey": "\#(base64url(RFC8291.uaPrivate))"}"#, "keys: webpush.json auth is missing or not text"),
            ("private key not below the order", ["p": base64url(body)], Self.settings(), #"{"privateKey": "\#(base64url(orderBytes))", "auth": "\#(base64url(RFC8291.auth))"}"#,
             "keys: webpush.json privateKey is not a P-256 private key"),
            ("key file not JSON", ["p": base64url(body)], Self.settings(), "{", "keys: "),
            ("aesgcm wrong auth secret", aesgcm, Self.settings(.aesgcm), otherAuth, "record: authentication failed"),
            ("aesgcm no salt", with("s", nil), Self.settings(.aesgcm), nil, "payload: s is missing or not text"),
            ("aesgcm short salt", with("s", z85(Array(RFC8291.salt.dropLast()))), Self.settings(.aesgcm), nil, "payload: s is 15 bytes; expected 16"),
            ("aesgcm sender key not z85", with("k", "~~~~~"), Self.settings(.aesgcm), nil, "payload: k is not z85 text"),
            ("aesgcm too much padding", with("p", z85(try sender.aesgcm(padded: [0, 200, 0, 0], to: RFC8291.uaPublic, auth: RFC8291.auth))), Self.settings(.aesgcm), nil,
             "padding: 200 bytes of padding in a record of 4"),
            ("aesgcm padding not zeros", with("p", z85(try sender.aesgcm(padded: [0, 2, 0, 7, 65], to: RFC8291.uaPublic, auth: RFC8291.auth))), Self.settings(.aesgcm), nil,
             "padding: the padding is not all zeros"),
        ]
        for (name, fields, settings, keys, words) in cases {
            let note = try run(fields, settings: settings, keys: keys)
            #expect(note.title == "Encrypted message" && note.body == "Open the app", "\(name)")
            #expect(note.trace.level == .original, "\(name): \(note.trace.level)")
            let step = try #require(note.trace.steps.first { $0.step == "decrypt" }, "\(name)")
            #expect(step.outcome == "failed" && step.message.hasPrefix(words), "\(name): \(step.message)")
            #expect(note.trace.fallbacks.map(\.message).contains { $0.hasPrefix("service stage, decrypt: failed: \(words)") }, "\(name): \(note.trace.fallbacks)")
        }
    }

    @Test func settingsAreReadAndCheckedByKey() throws {
        func read(_ decrypt: String) throws(SettingsError) -> ServiceSettings.Decrypt? {
            let json = try! JSONParser.parse(Array(#"{"decrypt": \#(decrypt)}"#.utf8), file: "pushpreview.json")
            return try ServiceSettings(settings: json, file: "pushpreview.json").decrypt
        }
        let full = try #require(try read(#"{"scheme": "webpush", "payloadKey": "p", "keys": "app-group/push.json", "contentEncoding": "aesgcm", "saltKey": "salt", "senderKeyKey": "dh", "encoding": "z85", "alertKeys": {"body": "message"}}"#))
        #expect(full.scheme == .webpush && full.payloadKey == "p" && full.keys == "app-group/push.json" && full.contentEncoding == .aesgcm)
        #expect(full.saltKey == "salt" && full.senderKeyKey == "dh" && full.encoding == .z85 && full.alertKeys == ["body": "message"])
        let webpush = try #require(try read(#"{"scheme": "webpush"}"#))
        #expect(webpush.keys == "app-group/webpush.json" && webpush.contentEncoding == .aes128gcm && webpush.encoding == .base64url)
        let box = try #require(try read("{}"))
        #expect(box.scheme == .aes256gcm && box.keys == "app-group/keys.json" && box.keyIdKey == "key-id")

        let bad: [(String, String)] = [
            (#"{"scheme": "rsa"}"#, #"decrypt.scheme: expected "aes256gcm" or "webpush", got "rsa""#),
            (#"{"scheme": "webpush", "encoding": "hex"}"#, #"decrypt.encoding: expected "base64" or "base64url" or "z85", got "hex""#),
            (#"{"scheme": "webpush", "contentEncoding": 7}"#, "decrypt.contentEncoding: expected string, got number"),
            (#"{"alertKeys": {"titel": "t"}}"#, "decrypt.alertKeys.titel: unknown field; expected title, subtitle, body"),
            (#"{"alertKeys": ["title"]}"#, "decrypt.alertKeys: expected an object, got array"),
            (#"{"sheme": "webpush"}"#, "decrypt.sheme: unknown key; expected scheme, payloadKey"),
            (#"{"scheme": "webpush", "saltKey": "s"}"#, #"decrypt.saltKey: read only with "scheme": "webpush" and "contentEncoding": "aesgcm""#),
            (#"{"scheme": "webpush", "keyIdKey": "kid"}"#, #"decrypt.keyIdKey: read only with "scheme": "aes256gcm""#),
            (#"{"contentEncoding": "aesgcm"}"#, #"decrypt.contentEncoding: read only with "scheme": "webpush""#),
        ]
        for (decrypt, message) in bad {
            #expect { try read(decrypt) } throws: { "\($0)".hasPrefix("pushpreview.json: \(message)") }
        }
    }
}
