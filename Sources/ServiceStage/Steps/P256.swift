internal import CCrypto

/// A P-256 private key for ECDH (SEC 1), from its 32-byte scalar, through libcrypto's
/// EVP_PKEY_fromdata (EC_KEY is deprecated in OpenSSL 3).
public final class P256PrivateKey: @unchecked Sendable {
    public enum Failure: Error, Equatable, CustomStringConvertible {
        case badScalar(String), badPublicKey(String), libcrypto(String)
        public var description: String {
            switch self {
            case .badScalar(let why): return "not a P-256 private key: \(why)"
            case .badPublicKey(let why): return "not a P-256 public key: \(why)"
            case .libcrypto(let call): return "libcrypto refused \(call)"
            }
        }
    }

    /// The X9.62 uncompressed point (0x04 ‖ x ‖ y, 65 bytes): what a subscription's `p256dh` holds.
    public let publicKey: [UInt8]
    // Immutable after init; libcrypto's EVP_PKEY reference is safe to read from any thread.
    private let key: OpaquePointer

    public init(scalar: [UInt8]) throws(Failure) {
        guard scalar.count == 32 else { throw .badScalar("\(scalar.count) bytes; expected 32") }
        guard let group = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1) else { throw .libcrypto("EC_GROUP_new_by_curve_name") }
        defer { EC_GROUP_free(group) }
        guard let d = BN_bin2bn(scalar, 32, nil) else { throw .libcrypto("BN_bin2bn") }
        defer { BN_clear_free(d) }
        guard BN_is_zero(d) == 0, BN_cmp(d, EC_GROUP_get0_order(group)) < 0 else {
            throw .badScalar("the scalar is 0 or not below the curve's order")
        }
        guard let point = EC_POINT_new(group) else { throw .libcrypto("EC_POINT_new") }
        defer { EC_POINT_free(point) }
        var publicKey = [UInt8](repeating: 0, count: 65)
        guard EC_POINT_mul(group, point, d, nil, nil, nil) == 1,
              EC_POINT_point2oct(group, point, POINT_CONVERSION_UNCOMPRESSED, &publicKey, 65, nil) == 65 else {
            throw .libcrypto("EC_POINT_mul")
        }
        guard let key = ccrypto_p256_key(publicKey, 65, d) else { throw .libcrypto("EVP_PKEY_fromdata") }
        self.publicKey = publicKey
        self.key = key
    }

    deinit { EVP_PKEY_free(key) }

    /// The ECDH shared secret (the x coordinate, 32 bytes) with a peer's uncompressed point;
    /// libcrypto checks that the point lies on the curve.
    public func sharedSecret(with peer: [UInt8]) throws(Failure) -> [UInt8] {
        guard peer.count == 65, peer[0] == 4 else {
            throw .badPublicKey("\(peer.count) bytes starting \(peer.first.map { String($0) } ?? "with nothing"); expected 65 starting 4 (uncompressed)")
        }
        guard let peerKey = ccrypto_p256_key(peer, 65, nil) else { throw .badPublicKey("the point is not on the curve") }
        defer { EVP_PKEY_free(peerKey) }
        guard let ctx = EVP_PKEY_CTX_new(key, nil) else { throw .libcrypto("EVP_PKEY_CTX_new") }
        defer { EVP_PKEY_CTX_free(ctx) }
        var secret = [UInt8](repeating: 0, count: 32)
        var length = 32
        guard EVP_PKEY_derive_init(ctx) == 1, EVP_PKEY_derive_set_peer(ctx, peerKey) == 1,
              EVP_PKEY_derive(ctx, &secret, &length) == 1, length == 32 else { throw .libcrypto("EVP_PKEY_derive") }
        return secret
    }
}
