import Foundation
import ServiceStage

/// The application server's side of Web Push, for messages the decrypt step must open or
/// refuse (a chosen delimiter, record size or salt). Its key schedule is written from RFC 8291
/// §3.4 and draft-ietf-webpush-encryption-04 §3 over the module's primitives, which the RFC
/// vectors pin; `WebPushVectorTests` checks it rebuilds both documents' examples byte for byte.
struct WebPushSender {
    let key: P256PrivateKey
    var salt: [UInt8]

    /// An "aes128gcm" body whose records seal exactly `records` (data ‖ delimiter ‖ zeros, as
    /// given); the header says `headerRecordSize` when given, else `recordSize`.
    func aes128gcm(records: [[UInt8]], recordSize: Int = 4096, headerRecordSize: Int? = nil, to receiver: [UInt8], auth: [UInt8]) throws -> [UInt8] {
        let secret = try key.sharedSecret(with: receiver)
        let ikm = HKDF.sha256(salt: auth, ikm: secret, info: Array("WebPush: info\0".utf8) + receiver + key.publicKey, length: 32)!
        let cek = HKDF.sha256(salt: salt, ikm: ikm, info: Array("Content-Encoding: aes128gcm\0".utf8), length: 16)!
        let nonce = HKDF.sha256(salt: salt, ikm: ikm, info: Array("Content-Encoding: nonce\0".utf8), length: 12)!
        let rs = headerRecordSize ?? recordSize
        var body = salt + [UInt8(rs >> 24 & 255), UInt8(rs >> 16 & 255), UInt8(rs >> 8 & 255), UInt8(rs & 255), 65] + key.publicKey
        for (sequence, record) in records.enumerated() {
            var recordNonce = nonce
            recordNonce[11] ^= UInt8(sequence)
            let sealed = try AESGCM.encrypt(record, key: cek, nonce: recordNonce)
            precondition(sequence == records.count - 1 || sealed.count == recordSize, "only the last record may be short")
            body += sealed
        }
        return body
    }

    /// The usual message: one record, `plaintext` ‖ 2.
    func aes128gcm(_ plaintext: String, to receiver: [UInt8], auth: [UInt8]) throws -> [UInt8] {
        try aes128gcm(records: [Array(plaintext.utf8) + [2]], to: receiver, auth: auth)
    }

    /// An "aesgcm" record: `plaintext` after a 2-byte padding length of zero.
    func aesgcm(_ plaintext: String, to receiver: [UInt8], auth: [UInt8]) throws -> [UInt8] {
        try aesgcm(padded: [0, 0] + Array(plaintext.utf8), to: receiver, auth: auth)
    }

    /// An "aesgcm" record sealing `padded` as given (padding length ‖ zeros ‖ data).
    func aesgcm(padded: [UInt8], to receiver: [UInt8], auth: [UInt8]) throws -> [UInt8] {
        let secret = try key.sharedSecret(with: receiver)
        let ikm = HKDF.sha256(salt: auth, ikm: secret, info: Array("Content-Encoding: auth\0".utf8), length: 32)!
        let context = Array("P-256\0".utf8) + [0, 65] + receiver + [0, 65] + key.publicKey
        let cek = HKDF.sha256(salt: salt, ikm: ikm, info: Array("Content-Encoding: aesgcm\0".utf8) + context, length: 16)!
        let nonce = HKDF.sha256(salt: salt, ikm: ikm, info: Array("Content-Encoding: nonce\0".utf8) + context, length: 12)!
        return try AESGCM.encrypt(padded, key: cek, nonce: nonce)
    }
}

/// base64url without padding, as Web Push writes it.
func base64url(_ bytes: some Sequence<UInt8>) -> String {
    Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        .replacingOccurrences(of: "=", with: "")
}

func fromBase64url(_ text: String) -> [UInt8] {
    var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
    return [UInt8](Data(base64Encoded: base64)!)
}

/// Z85 as toot-relay writes it: RFC 32's groups, and a last short group of n bytes as n + 1 digits.
func z85(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#")
    var out = ""
    for start in stride(from: 0, to: bytes.count, by: 4) {
        let group = bytes[start..<min(start + 4, bytes.count)]
        var value = group.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        var chars: [Character] = []
        for _ in 0...group.count { chars.append(digits[Int(value % 85)]); value /= 85 }
        out += String(chars.reversed())
    }
    return out
}
