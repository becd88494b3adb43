internal import CCrypto

/// libcrypto, the thin wrapper: AES-256-GCM in CryptoKit's combined layout
/// (12-byte nonce ‖ ciphertext ‖ 16-byte tag) and SHA-256.
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

    public static func open(_ box: [UInt8], key: [UInt8]) throws(Failure) -> [UInt8] {
        guard key.count == 32 else { throw .badKey(key.count) }
        guard box.count >= 28 else { throw .tooShort(box.count) }
        let nonce = Array(box[0..<12]), tag = Array(box[(box.count - 16)...]), ciphertext = Array(box[12..<(box.count - 16)])
        guard let ctx = EVP_CIPHER_CTX_new() else { throw .authenticationFailed }
        defer { EVP_CIPHER_CTX_free(ctx) }
        var out = [UInt8](repeating: 0, count: ciphertext.count + 16)
        var length: Int32 = 0, final: Int32 = 0
        var tagCopy = tag
        let ok = EVP_DecryptInit_ex(ctx, EVP_aes_256_gcm(), nil, nil, nil) == 1
            && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_IVLEN, 12, nil) == 1
            && EVP_DecryptInit_ex(ctx, nil, nil, key, nonce) == 1
            && (ciphertext.isEmpty || EVP_DecryptUpdate(ctx, &out, &length, ciphertext, Int32(ciphertext.count)) == 1)
            && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_TAG, 16, &tagCopy) == 1
            && out.withUnsafeMutableBufferPointer({ EVP_DecryptFinal_ex(ctx, $0.baseAddress! + Int(length), &final) }) == 1
        guard ok else { throw .authenticationFailed }
        return Array(out.prefix(Int(length + final)))
    }

    /// Seals `plaintext` (for tests and tools that make example payloads).
    public static func seal(_ plaintext: [UInt8], key: [UInt8], nonce: [UInt8]) throws(Failure) -> [UInt8] {
        guard key.count == 32 else { throw .badKey(key.count) }
        precondition(nonce.count == 12, "GCM nonces are 12 bytes")
        guard let ctx = EVP_CIPHER_CTX_new() else { throw .authenticationFailed }
        defer { EVP_CIPHER_CTX_free(ctx) }
        var out = [UInt8](repeating: 0, count: plaintext.count + 16)
        var tag = [UInt8](repeating: 0, count: 16)
        var length: Int32 = 0, final: Int32 = 0
        let ok = EVP_EncryptInit_ex(ctx, EVP_aes_256_gcm(), nil, nil, nil) == 1
            && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_IVLEN, 12, nil) == 1
            && EVP_EncryptInit_ex(ctx, nil, nil, key, nonce) == 1
            && (plaintext.isEmpty || EVP_EncryptUpdate(ctx, &out, &length, plaintext, Int32(plaintext.count)) == 1)
            && out.withUnsafeMutableBufferPointer({ EVP_EncryptFinal_ex(ctx, $0.baseAddress! + Int(length), &final) }) == 1
            && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, 16, &tag) == 1
        guard ok else { throw .authenticationFailed }
        return nonce + out.prefix(Int(length + final)) + tag
    }
}

public enum SHA256 {
    public static func hex(_ bytes: [UInt8]) -> String {
        var digest = [UInt8](repeating: 0, count: 32)
        _ = bytes.withUnsafeBufferPointer { CCrypto.SHA256($0.baseAddress, $0.count, &digest) }
        return digest.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }
}
