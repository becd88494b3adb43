import CCrypto
import ConfinedFiles
import Foundation
import Payload
import ServiceStage
import Formats

/// Token authentication as APNs checks it: an ES256 JWT (`authorization: bearer …`) whose header
/// names the key (`kid`) and whose claims name the team (`iss`) and when it was made (`iat`),
/// signed by the key of the `AuthKey_KEYID.p8` a team downloads. APNs refuses a token older than
/// an hour (ExpiredProviderToken) and every other fault as InvalidProviderToken.
public final class ProviderToken: @unchecked Sendable {
    private let key: OpaquePointer
    public let keyID: String
    public let teamID: String

    public struct Failure: Error, CustomStringConvertible { public var description: String }

    /// The key ID comes from the file name, `AuthKey_KEYID.p8`, unless given.
    public init(keyFile: URL, teamID: String, keyID: String? = nil) throws(Failure) {
        // `--auth-key`: a file the person named.
        guard let pem = try? TrustedFiles.read(keyFile, limit: 64 << 10) else { throw Failure(description: "\(keyFile.path): cannot read the file") }
        let name = keyFile.deletingPathExtension().lastPathComponent
        guard let id = keyID ?? (name.hasPrefix("AuthKey_") ? String(name.dropFirst("AuthKey_".count)) : nil), !id.isEmpty else {
            throw Failure(description: "\(keyFile.path): the key ID is not in the name (AuthKey_KEYID.p8)")
        }
        let loaded: OpaquePointer? = pem.withUnsafeBytes { bytes in
            let bio = BIO_new_mem_buf(bytes.baseAddress, Int32(bytes.count))
            defer { BIO_free(bio) }
            return PEM_read_bio_PrivateKey(bio, nil, nil, nil)
        }
        guard let loaded, EVP_PKEY_get_base_id(loaded) == EVP_PKEY_EC, EVP_PKEY_get_bits(loaded) == 256 else {
            throw Failure(description: "\(keyFile.path): not a P-256 private key in PEM (an APNs .p8 key is one)")
        }
        key = loaded
        self.keyID = id
        self.teamID = teamID
    }

    deinit { EVP_PKEY_free(key) }

    public enum Verdict: Equatable, Sendable { case valid, invalid(String), expired }

    /// `header`: the authorization header's value; `now`: seconds since 1970.
    public func check(_ header: String?, now: Double = Date().timeIntervalSince1970) -> Verdict {
        guard let header, header.lowercased().hasPrefix("bearer ") else { return .invalid("no bearer token") }
        let parts = header.dropFirst("bearer ".count).trimmingCharacters(in: .whitespaces).split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3,
              let head = try? BinaryText.base64url.decode(String(parts[0]), key: "JWT header"),
              let body = try? BinaryText.base64url.decode(String(parts[1]), key: "JWT claims"),
              let signature = try? BinaryText.base64url.decode(String(parts[2]), key: "JWT signature", length: 64),
              let h = try? JSONParser.parse(head, file: "JWT header"), let c = try? JSONParser.parse(body, file: "JWT claims")
        else { return .invalid("not a JWT") }
        guard h["alg"]?.string == "ES256" else { return .invalid("alg is not ES256") }
        guard h["kid"]?.string == keyID else { return .invalid("kid is not \(keyID)") }
        guard c["iss"]?.string == teamID else { return .invalid("iss is not \(teamID)") }
        guard case .number(let iat)? = c["iat"], iat.isFinite else { return .invalid("no iat") }
        guard verify(Array((parts[0] + "." + parts[1]).utf8), signature: signature) else { return .invalid("bad signature") }
        if now - iat > 3600 { return .expired }
        if iat - now > 300 { return .invalid("iat is in the future") }
        return .valid
    }

    /// ES256: the 64 bytes are r and s; libcrypto verifies their DER form.
    private func verify(_ message: [UInt8], signature: [UInt8]) -> Bool {
        guard let sig = ECDSA_SIG_new() else { return false }
        defer { ECDSA_SIG_free(sig) }
        let r = BN_bin2bn(signature, 32, nil), s = signature.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress! + 32, 32, nil) }
        guard let r, let s, ECDSA_SIG_set0(sig, r, s) == 1 else { BN_free(r); BN_free(s); return false }
        var der: UnsafeMutablePointer<UInt8>?
        let length = i2d_ECDSA_SIG(sig, &der)
        guard length > 0, let der else { return false }
        defer { CRYPTO_free(der, #file, #line) }
        guard let ctx = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(ctx) }
        guard EVP_DigestVerifyInit(ctx, nil, EVP_sha256(), nil, key) == 1 else { return false }
        return EVP_DigestVerify(ctx, der, Int(length), message, message.count) == 1
    }
}
