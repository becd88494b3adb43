import Foundation
import Testing
import ServiceStage

/// AES-256-GCM boxes sealed by the tests with libcrypto, opened by the decrypt step.
struct DecryptTests {
    let key = (0..<32).map { UInt8($0 * 7 & 255) }
    let project = ScratchProject()
    var settings = ServiceSettings()

    init() throws {
        settings.decrypt = ServiceSettings.Decrypt()
        try project.write("app-group/keys.json", #"{"k1": "\#(Data(key).base64EncodedString())", "other": "\#(Data(repeating: 9, count: 32).base64EncodedString())"}"#)
    }

    func payload(box: [UInt8], keyId: String = "k1") -> String {
        #"{"aps": {"alert": {"title": "Encrypted message", "body": "Open the app"}, "mutable-content": 1}, "encrypted": "\#(Data(box).base64EncodedString())", "key-id": "\#(keyId)"}"#
    }

    func sealed(_ json: String) throws -> [UInt8] {
        try AESGCM.seal(Array(json.utf8), key: key, nonce: Array(repeating: 3, count: 12))
    }

    @Test func roundTrip() throws {
        let box = try sealed(#"{"title": "Marta", "body": "See you at 7 🌅", "sender-id": "u42"}"#)
        #expect(try AESGCM.open(box, key: key) == Array(#"{"title": "Marta", "body": "See you at 7 🌅", "sender-id": "u42"}"#.utf8))
        let note = try project.run(payload(box: box), settings: settings)
        #expect(note.title == "Marta" && note.body == "See you at 7 🌅" && note.trace.level == .full)
        #expect(note.userInfo.contains { $0.key == "sender-id" && $0.value == .string("u42") })
        #expect(!note.userInfo.contains { $0.key == "encrypted" })
        #expect(note.trace.steps.first { $0.step == "decrypt" }?.outcome == "decrypted")
    }

    @Test func failuresShowTheOriginalContent() throws {
        let box = try sealed(#"{"title": "Secret"}"#)
        var flipped = box
        flipped[flipped.count - 1] ^= 1
        var flippedCiphertext = box
        flippedCiphertext[14] ^= 0x80
        let cases: [(String, [UInt8], String, String)] = [
            ("wrong key", box, "other", "authentication failed"),
            ("flipped tag", flipped, "k1", "authentication failed"),
            ("flipped ciphertext", flippedCiphertext, "k1", "authentication failed"),
            ("truncated", Array(box.prefix(20)), "k1", "at least 28"),
            ("unknown key id", box, "nope", "no base64 key \"nope\""),
            ("not JSON", try AESGCM.seal(Array("hello".utf8), key: key, nonce: Array(repeating: 1, count: 12)), "k1", "not JSON"),
        ]
        for (name, bytes, keyId, words) in cases {
            let note = try project.run(payload(box: bytes, keyId: keyId), settings: settings)
            #expect(note.title == "Encrypted message" && note.body == "Open the app", "\(name)")
            #expect(note.trace.level == .original, "\(name): \(note.trace.level)")
            let step = try #require(note.trace.steps.first { $0.step == "decrypt" })
            #expect(step.outcome == "failed" && step.message.contains(words), "\(name): \(step.message)")
        }
        let garbage = #"{"aps": {"alert": "x", "mutable-content": 1}, "encrypted": "%%% not base64 %%%"}"#
        #expect(try project.run(garbage, settings: settings).trace.level == .original)
    }

    @Test func missingKeyFileIsAFailureNotACrash() throws {
        let empty = ScratchProject()
        let note = try empty.run(payload(box: try sealed("{}")), settings: settings)
        #expect(note.trace.level == .original && note.trace.steps.contains { $0.message.contains("no key file") })
    }
}
