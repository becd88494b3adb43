/// A push subscription's secrets, as the user agent (here: the app) keeps them.
public struct WebPushKeys: Sendable {
    public let privateKey: P256PrivateKey
    /// The 16-byte authentication secret.
    public let auth: [UInt8]
    public init(privateKey: P256PrivateKey, auth: [UInt8]) { self.privateKey = privateKey; self.auth = auth }
}

/// Web Push message decryption as the receiving user agent does it: ECDH on P-256 with the
/// sender's one-time key, mixed with the auth secret by HKDF-SHA-256, then AES-128-GCM.
public enum WebPush {
    /// RFC 8291: an "aes128gcm" body whose key id is the sender's public key (§3.4, §4).
    public static func openAES128GCM(_ body: [UInt8], keys: WebPushKeys) throws(DecryptFailure) -> [UInt8] {
        let parsed = try AES128GCMBody(body)
        guard parsed.keyID.count == 65 else {
            throw DecryptFailure("header", "the key id is \(parsed.keyID.count) bytes; Web Push puts the sender's 65-byte public key there")
        }
        let secret = try sharedSecret(keys, parsed.keyID)
        let info = Array("WebPush: info\0".utf8) + keys.privateKey.publicKey + parsed.keyID
        return try parsed.open(ikm: try hkdf(salt: keys.auth, ikm: secret, info: info, length: 32))
    }

    /// draft-ietf-webpush-encryption-04: an "aesgcm" record whose salt (the Encryption header's
    /// `salt`) and sender key (the Crypto-Key header's `dh`) came apart from it.
    public static func openAESGCM(_ record: [UInt8], salt: [UInt8], senderKey: [UInt8], keys: WebPushKeys) throws(DecryptFailure) -> [UInt8] {
        guard salt.count == 16 else { throw DecryptFailure("salt", "\(salt.count) bytes; expected 16") }
        let secret = try sharedSecret(keys, senderKey)
        let ikm = try hkdf(salt: keys.auth, ikm: secret, info: "Content-Encoding: auth\0", length: 32)
        // §3.3's context: a label, then each public key after its length as a 2-byte integer.
        let receiverKey = keys.privateKey.publicKey
        let context = Array("P-256\0".utf8) + [0, UInt8(receiverKey.count)] + receiverKey + [0, UInt8(senderKey.count)] + senderKey
        let key = try hkdf(salt: salt, ikm: ikm, info: Array("Content-Encoding: aesgcm\0".utf8) + context, length: 16)
        let nonce = try hkdf(salt: salt, ikm: ikm, info: Array("Content-Encoding: nonce\0".utf8) + context, length: 12)
        return try AESGCMRecord.open(record, key: key, nonce: nonce)
    }

    private static func sharedSecret(_ keys: WebPushKeys, _ senderKey: [UInt8]) throws(DecryptFailure) -> [UInt8] {
        guard keys.auth.count == 16 else { throw DecryptFailure("keys", "the auth secret is \(keys.auth.count) bytes; expected 16") }
        do { return try keys.privateKey.sharedSecret(with: senderKey) } catch {
            throw DecryptFailure("ECDH", "the sender's key: \(error)")
        }
    }
}
