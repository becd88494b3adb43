import Foundation
import Testing
import ServiceStage

/// The published examples, copied from the documents (RFC 8188 §3, RFC 8291 Appendix A,
/// draft-ietf-webpush-encryption-04 §5 and Appendix A, ZeroMQ RFC 32), decrypted exactly.
struct WebPushVectorTests {
    /// RFC 8291 Appendix A.
    enum RFC8291 {
        static let plaintext = "When I grow up, I want to be a watermelon"
        static let uaPrivate = fromBase64url("q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94")
        static let uaPublic = fromBase64url("BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4")
        static let asPrivate = fromBase64url("yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw")
        static let asPublic = fromBase64url("BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8")
        static let auth = fromBase64url("BTBZMqHH6r4Tts7J_aSIgg")
        static let salt = fromBase64url("DGv6ra1nlYgDCS1FRnbzlw")
        static let ecdhSecret = fromBase64url("kyrL1jIIOHEzg3sM2ZWRHDRB62YACZhhSlknJ672kSs")
        static let ikm = fromBase64url("S4lYMb_L0FxCeq0WhDx813KgSYqU26kOyzWUdsXYyrg")
        static let cek = fromBase64url("oIhVW04MRdy2XN9CiKLxTg")
        static let nonce = fromBase64url("4h_95klXJ5E_qnoN")
        static let body = fromBase64url("DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN")
    }

    /// draft-ietf-webpush-encryption-04 §5 and Appendix A ("aesgcm").
    enum Draft04 {
        static let plaintext = "I am the walrus"
        static let auth = fromBase64url("R29vIGdvbyBnJyBqb29iIQ")
        static let uaPrivate = fromBase64url("9FWl15_QUQAWDaD3k3l50ZBZQJ4au27F1V4F0uLSD_M")
        static let uaPublic = fromBase64url("BCEkBjzL8Z3C-oi2Q7oE5t2Np-p7osjGLg93qUP0wvqRT21EEWyf0cQDQcakQMqz4hQKYOQ3il2nNZct4HgAUQU")
        static let asPrivate = fromBase64url("nCScek-QpEjmOOlT-rQ38nZzvdPlqa00Zy0i6m2OJvY")
        static let asPublic = fromBase64url("BNoRDbb84JGm8g5Z5CFxurSqsXWJ11ItfXEWYVLE85Y7CYkDjXsIEc4aqxYaQ1G8BqkXCJ6DPpDrWtdWj_mugHU")
        static let salt = fromBase64url("lngarbyKfMoi9Z75xYXmkg")
        static let ecdhSecret = fromBase64url("RNjC-NVW4BGJbxWPW7G2mowsLeDa53LYKYm4--NOQ6Y")
        static let ikm = fromBase64url("EhpZec37Ptm4IRD5-jtZ0q6r1iK5vYmY1tZwtN8fbZY")
        static let body = fromBase64url("6nqAQUME8hNqw5J3kl8cpVVJylXKYqZOeseZG8UueKpA")
    }

    @Test func rfc8188FirstExampleOneRecord() throws {
        let body = try AES128GCMBody(fromBase64url("I1BsxtFttlv3u_Oo94xnmwAAEAAA-NAVub2qFgBEuQKRapoZu-IxkIva3MEB1PD-ly8Thjg"))
        #expect(body.recordSize == 4096 && body.keyID.isEmpty && body.salt == fromBase64url("I1BsxtFttlv3u_Oo94xnmw"))
        let ikm = fromBase64url("yqdlZ-tYemfogSmv7Ws5PQ")
        #expect(HKDF.sha256(salt: body.salt, ikm: ikm, info: Array("Content-Encoding: aes128gcm\0".utf8), length: 16) == fromBase64url("_wniytB-ofscZDh4tbSjHw"))
        #expect(HKDF.sha256(salt: body.salt, ikm: ikm, info: Array("Content-Encoding: nonce\0".utf8), length: 12) == fromBase64url("Bcs8gkIRKLI8GeI8"))
        #expect(try body.open(ikm: ikm) == Array("I am the walrus".utf8))
    }

    @Test func rfc8188SecondExampleTwoRecordsAndAKeyID() throws {
        let body = try AES128GCMBody(fromBase64url("uNCkWiNYzKTnBN9ji3-qWAAAABkCYTHOG8chz_gnvgOqdGYovxyjuqRyJFjEDyoF1Fvkj6hQPdPHI51OEUKEpgz3SsLWIqS_uA"))
        #expect(body.recordSize == 25 && body.keyID == Array("a1".utf8) && body.records.count == 50)
        #expect(try body.open(ikm: fromBase64url("BO3ZVPxUlnLORbVGMpbT1Q")) == Array("I am the walrus".utf8))
        #expect(throws: DecryptFailure.self) { try body.open(ikm: fromBase64url("yqdlZ-tYemfogSmv7Ws5PQ")) }
    }

    @Test func rfc8291AppendixA() throws {
        let ua = try P256PrivateKey(scalar: RFC8291.uaPrivate)
        #expect(ua.publicKey == RFC8291.uaPublic)
        #expect(try ua.sharedSecret(with: RFC8291.asPublic) == RFC8291.ecdhSecret)
        let info = Array("WebPush: info\0".utf8) + RFC8291.uaPublic + RFC8291.asPublic
        #expect(HKDF.sha256(salt: RFC8291.auth, ikm: RFC8291.ecdhSecret, info: info, length: 32) == RFC8291.ikm)
        #expect(HKDF.sha256(salt: RFC8291.salt, ikm: RFC8291.ikm, info: Array("Content-Encoding: aes128gcm\0".utf8), length: 16) == RFC8291.cek)
        #expect(HKDF.sha256(salt: RFC8291.salt, ikm: RFC8291.ikm, info: Array("Content-Encoding: nonce\0".utf8), length: 12) == RFC8291.nonce)
        let plaintext = try WebPush.openAES128GCM(RFC8291.body, keys: WebPushKeys(privateKey: ua, auth: RFC8291.auth))
        #expect(String(decoding: plaintext, as: UTF8.self) == RFC8291.plaintext)
    }

    @Test func draft04AesgcmExample() throws {
        let ua = try P256PrivateKey(scalar: Draft04.uaPrivate)
        #expect(ua.publicKey == Draft04.uaPublic)
        #expect(try ua.sharedSecret(with: Draft04.asPublic) == Draft04.ecdhSecret)
        #expect(HKDF.sha256(salt: Draft04.auth, ikm: Draft04.ecdhSecret, info: Array("Content-Encoding: auth\0".utf8), length: 32) == Draft04.ikm)
        let plaintext = try WebPush.openAESGCM(Draft04.body, salt: Draft04.salt, senderKey: Draft04.asPublic,
                                               keys: WebPushKeys(privateKey: ua, auth: Draft04.auth))
        #expect(String(decoding: plaintext, as: UTF8.self) == Draft04.plaintext)
    }

    /// The tests' own sender rebuilds both examples byte for byte, so what it makes is Web Push.
    @Test func theTestSenderRebuildsTheExamples() throws {
        let rfc = WebPushSender(key: try P256PrivateKey(scalar: RFC8291.asPrivate), salt: RFC8291.salt)
        #expect(try rfc.aes128gcm(RFC8291.plaintext, to: RFC8291.uaPublic, auth: RFC8291.auth) == RFC8291.body)
        let draft = WebPushSender(key: try P256PrivateKey(scalar: Draft04.asPrivate), salt: Draft04.salt)
        #expect(try draft.aesgcm(Draft04.plaintext, to: Draft04.uaPublic, auth: Draft04.auth) == Draft04.body)
    }

    @Test func z85AsRFC32AndTootRelayWriteIt() throws {
        // RFC 32's example.
        #expect(try BinaryText.z85.decode("HelloWorld", key: "k") == [0x86, 0x4F, 0xD2, 0x6F, 0xB5, 0x59, 0xF7, 0x5B])
        // A 65-byte key: sixteen groups, then one byte as two digits.
        #expect(try BinaryText.z85.decode(z85(RFC8291.asPublic), key: "k", length: 65) == RFC8291.asPublic)
        // A lone last digit, characters outside the alphabet, groups above 2^32 and above a byte.
        for bad in ["HelloW", "HelloWorl~", "Hell\"", "%%%%%", "%%"] {
            #expect(throws: BinaryText.Failure.self, "\(bad)") { try BinaryText.z85.decode(bad, key: "k") }
        }
    }

    @Test func base64urlIsStrict() throws {
        #expect(try BinaryText.base64url.decode("BTBZMqHH6r4Tts7J_aSIgg", key: "auth", length: 16) == RFC8291.auth)
        #expect(try BinaryText.base64url.decode("BTBZMqHH6r4Tts7J_aSIgg==", key: "auth") == RFC8291.auth)
        #expect(try BinaryText.base64.decode("BTBZMqHH6r4Tts7J/aSIgg==", key: "auth") == RFC8291.auth)
        let cases: [(BinaryText, String, String)] = [
            (.base64url, "BTBZMqHH6r4Tts7J_aSI", "auth is 15 bytes; expected 16"),
            (.base64url, "BTBZMqHH6r4Tts7J/aSIgg", "auth is not base64url text"),
            (.base64, "BTBZMqHH6r4Tts7J_aSIgg", "auth is not base64 text"),
            (.base64url, "BTBZMqHH6r4Tts7J_aSIgg=", "auth is not base64url text"),
            (.base64url, "BTBZM", "auth is not base64url text"),
        ]
        for (encoding, text, message) in cases {
            #expect { try encoding.decode(text, key: "auth", length: 16) } throws: { "\($0)" == message }
        }
    }

    @Test func aPointOffTheCurveIsRefused() throws {
        let ua = try P256PrivateKey(scalar: RFC8291.uaPrivate)
        var off = RFC8291.asPublic
        off[64] ^= 1
        #expect { try ua.sharedSecret(with: off) } throws: { "\($0)".contains("not on the curve") }
        #expect(throws: P256PrivateKey.Failure.self) { try P256PrivateKey(scalar: [UInt8](repeating: 0, count: 32)) }
        #expect(throws: P256PrivateKey.Failure.self) { try P256PrivateKey(scalar: [UInt8](repeating: 0xFF, count: 32)) }
    }
}
