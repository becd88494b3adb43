internal import CCrypto

/// libcrypto, the thin wrapper: AES-GCM (AES-256 in CryptoKit's combined layout, 12-byte
/// nonce ‖ ciphertext ‖ 16-byte tag, and AES-128 or AES-256 with the nonce apart), HKDF-SHA-256
/// and SHA-256.
public enum AESGCM {
    public enum Failure: Error, Equatable, CustomStringConvertible {
        case badKey(Int), tooShort(Int), authenticationFailed
        public var description: String {
            switch self {
            case .badKey(let n): return "the key is \(n) bytes; AES-256 needs 32"
            case .tooShort(let n): return "the box is \(n) bytes; a sealed box is at least 28 (nonce 12 + tag 16)"
            case .authenticationFailed: return "authentication failed: wrong key, or the box was changed"
            }
        }
    }

    /// Opens CryptoKit's combined layout with a 32-byte key.
    public static func open(_ box: [UInt8], key: [UInt8]) throws(Failure) -> [UInt8] {
        guard key.count == 32 else { throw .badKey(key.count) }
        guard box.count >= 28 else { throw .tooShort(box.count) }
        return try decrypt(Array(box[12...]), key: key, nonce: Array(box[0..<12]))
    }

    /// Seals `plaintext` in the combined layout (for tests and tools that make example payloads).
    public static func seal(_ plaintext: [UInt8], key: [UInt8], nonce: [UInt8]) throws(Failure) -> [UInt8] {
        guard key.count == 32 else { throw .badKey(key.count) }
        return nonce + (try encrypt(plaintext, key: key, nonce: nonce))
    }

    /// Decrypts ciphertext ‖ 16-byte tag with a 16-byte (AES-128) or 32-byte (AES-256) key and a
    /// 12-byte nonce.
    public static func decrypt(_ sealed: [UInt8], key: [UInt8], nonce: [UInt8]) throws(Failure) -> [UInt8] {
        guard let cipher = cipher(key) else { throw .badKey(key.count) }
        guard sealed.count >= 16 else { throw .authenticationFailed }
        precondition(nonce.count == 12, "GCM nonces are 12 bytes")
        var tag = Array(sealed.suffix(16))
        let ciphertext = Array(sealed.dropLast(16))
        guard let ctx = EVP_CIPHER_CTX_new() else { throw .authenticationFailed }
        defer { EVP_CIPHER_CTX_free(ctx) }
        var out = [UInt8](repeating: 0, count: ciphertext.count + 16)
        var length: Int32 = 0, final: Int32 = 0
        let ok = EVP_DecryptInit_ex(ctx, cipher, nil, nil, nil) == 1
            && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_IVLEN, 12, nil) == 1
            && EVP_DecryptInit_ex(ctx, nil, nil, key, nonce) == 1
            && (ciphertext.isEmpty || EVP_DecryptUpdate(ctx, &out, &length, ciphertext, Int32(ciphertext.count)) == 1)
            && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_TAG, 16, &tag) == 1
            && out.withUnsafeMutableBufferPointer({ EVP_DecryptFinal_ex(ctx, $0.baseAddress! + Int(length), &final) }) == 1
        guard ok else { throw .authenticationFailed }
        return Array(out.prefix(Int(length + final)))
    }

    /// Encrypts to ciphertext ‖ 16-byte tag (for tests and tools that make example payloads).
    public static func encrypt(_ plaintext: [UInt8], key: [UInt8], nonce: [UInt8]) throws(Failure) -> [UInt8] {
        guard let cipher = cipher(key) else { throw .badKey(key.count) }
        precondition(nonce.count == 12, "GCM nonces are 12 bytes")
        guard let ctx = EVP_CIPHER_CTX_new() else { throw .authenticationFailed }
        defer { EVP_CIPHER_CTX_free(ctx) }
        var out = [UInt8](repeating: 0, count: plaintext.count + 16)
        var tag = [UInt8](repeating: 0, count: 16)
        var length: Int32 = 0, final: Int32 = 0
        let ok = EVP_EncryptInit_ex(ctx, cipher, nil, nil, nil) == 1
            && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_IVLEN, 12, nil) == 1
            && EVP_EncryptInit_ex(ctx, nil, nil, key, nonce) == 1
            && (plaintext.isEmpty || EVP_EncryptUpdate(ctx, &out, &length, plaintext, Int32(plaintext.count)) == 1)
            && out.withUnsafeMutableBufferPointer({ EVP_EncryptFinal_ex(ctx, $0.baseAddress! + Int(length), &final) }) == 1
            && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, 16, &tag) == 1
        guard ok else { throw .authenticationFailed }
        return out.prefix(Int(length + final)) + tag
    }

    private static func cipher(_ key: [UInt8]) -> OpaquePointer? {
        switch key.count {
        case 16: return EVP_aes_128_gcm()
        case 32: return EVP_aes_256_gcm()
        default: return nil
        }
    }
}

/// RFC 5869's HKDF with SHA-256, extract then expand.
public enum HKDF {
    /// `length` bytes of output keying material; nil only if libcrypto refuses (a length over
    /// 255 × 32).
    public static func sha256(salt: [UInt8], ikm: [UInt8], info: [UInt8], length: Int) -> [UInt8]? {
        guard let ctx = EVP_PKEY_CTX_new_id(EVP_PKEY_HKDF, nil) else { return nil }
        defer { EVP_PKEY_CTX_free(ctx) }
        var out = [UInt8](repeating: 0, count: length)
        var outLength = length
        let ok = EVP_PKEY_derive_init(ctx) == 1
            && EVP_PKEY_CTX_set_hkdf_md(ctx, EVP_sha256()) == 1
            && EVP_PKEY_CTX_set1_hkdf_salt(ctx, salt, Int32(salt.count)) == 1
            && EVP_PKEY_CTX_set1_hkdf_key(ctx, ikm, Int32(ikm.count)) == 1
            && EVP_PKEY_CTX_add1_hkdf_info(ctx, info, Int32(info.count)) == 1
            && EVP_PKEY_derive(ctx, &out, &outLength) == 1
        return ok && outLength == length ? out : nil
    }
}

public enum SHA256 {
    public static func hex(_ bytes: [UInt8]) -> String {
        var digest = [UInt8](repeating: 0, count: 32)
        _ = bytes.withUnsafeBufferPointer { CCrypto.SHA256($0.baseAddress, $0.count, &digest) }
        return digest.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }
}
