/// Why a decryption stopped: the step that failed and what it found ("record 2 of 2: …").
public struct DecryptFailure: Error, Equatable, CustomStringConvertible {
    public var step: String
    public var reason: String
    public init(_ step: String, _ reason: String) { self.step = step; self.reason = reason }
    public var description: String { "\(step): \(reason)" }
}

/// RFC 8188's "aes128gcm" content coding: a header (salt 16 ‖ record size, uint32 ‖ key id
/// length 1 ‖ key id), then records of `recordSize` bytes (the last may be shorter), each the
/// AES-128-GCM sealing of data ‖ delimiter (1, or 2 in the last record) ‖ zeros.
public struct AES128GCMBody: Sendable {
    public let salt: [UInt8]
    public let recordSize: Int
    public let keyID: [UInt8]
    public let records: [UInt8]

    public init(_ body: [UInt8]) throws(DecryptFailure) {
        guard body.count >= 21 else { throw DecryptFailure("header", "the body is \(body.count) bytes, shorter than the 21-byte header") }
        salt = Array(body[0..<16])
        recordSize = body[16..<20].reduce(0) { $0 << 8 | Int($1) }
        let keyIDEnd = 21 + Int(body[20])
        guard body.count >= keyIDEnd else {
            throw DecryptFailure("header", "the key id is \(body[20]) bytes, but the body ends \(body.count - 21) bytes into it")
        }
        // RFC 8188 §2: smaller record sizes are invalid (a tag, a delimiter and one byte).
        guard recordSize >= 18 else { throw DecryptFailure("header", "the record size is \(recordSize); the least RFC 8188 allows is 18") }
        keyID = Array(body[21..<keyIDEnd])
        records = Array(body[keyIDEnd...])
        guard !records.isEmpty else { throw DecryptFailure("header", "no records follow the header") }
    }

    /// The plaintext, with `ikm` the input keying material (RFC 8188 §2.2 and §2.3).
    public func open(ikm: [UInt8]) throws(DecryptFailure) -> [UInt8] {
        let key = try hkdf(salt: salt, ikm: ikm, info: "Content-Encoding: aes128gcm\0", length: 16)
        let baseNonce = try hkdf(salt: salt, ikm: ikm, info: "Content-Encoding: nonce\0", length: 12)
        let count = (records.count + recordSize - 1) / recordSize
        var plaintext: [UInt8] = []
        for sequence in 0..<count {
            let step = "record \(sequence + 1) of \(count)"
            let start = sequence * recordSize, end = min(start + recordSize, records.count), isLast = sequence == count - 1
            guard end - start >= 17 else { throw DecryptFailure(step, "\(end - start) bytes; a record is at least 17 (a delimiter and the 16-byte tag)") }
            let padded: [UInt8]
            do { padded = try AESGCM.decrypt(Array(records[start..<end]), key: key, nonce: Self.nonce(baseNonce, sequence)) } catch {
                throw DecryptFailure(step, "authentication failed: the keys do not match, or the record size or the body was changed")
            }
            guard let delimiter = padded.lastIndex(where: { $0 != 0 }) else { throw DecryptFailure(step, "no padding delimiter, only zeros") }
            switch (padded[delimiter], isLast) {
            case (2, true), (1, false): break
            case (1, true): throw DecryptFailure(step, "truncated: the last record's padding delimiter is 1, which says more records follow")
            case (2, false): throw DecryptFailure(step, "padding delimiter 2 marks the last record, but \(records.count - end) bytes follow it")
            case (let other, _): throw DecryptFailure(step, "padding delimiter \(other); expected \(isLast ? 2 : 1)")
            }
            plaintext += padded[..<delimiter]
        }
        return plaintext
    }

    /// The base nonce XOR the record's sequence number as a 96-bit big-endian integer.
    static func nonce(_ base: [UInt8], _ sequence: Int) -> [UInt8] {
        var nonce = base
        for i in 0..<8 { nonce[11 - i] ^= UInt8(truncatingIfNeeded: UInt64(sequence) >> (8 * UInt64(i))) }
        return nonce
    }
}

/// The older "aesgcm" coding (draft-ietf-httpbis-encryption-encoding-03, as
/// draft-ietf-webpush-encryption-04 uses it): one record, AES-128-GCM sealing a 2-byte padding
/// length ‖ that many zeros ‖ the data. The salt and record size travel apart, in HTTP headers.
public enum AESGCMRecord {
    public static func open(_ record: [UInt8], key: [UInt8], nonce: [UInt8]) throws(DecryptFailure) -> [UInt8] {
        let padded: [UInt8]
        do { padded = try AESGCM.decrypt(record, key: key, nonce: nonce) } catch {
            throw DecryptFailure("record", "authentication failed: the keys do not match, or the salt, the sender's key or the body was changed")
        }
        guard padded.count >= 2 else { throw DecryptFailure("padding", "the record holds \(padded.count) bytes, less than its 2-byte padding length") }
        let padding = Int(padded[0]) << 8 | Int(padded[1])
        guard 2 + padding <= padded.count else { throw DecryptFailure("padding", "\(padding) bytes of padding in a record of \(padded.count)") }
        guard padded[2..<(2 + padding)].allSatisfy({ $0 == 0 }) else { throw DecryptFailure("padding", "the padding is not all zeros") }
        return Array(padded[(2 + padding)...])
    }
}

/// HKDF-SHA-256 as a decryption step: libcrypto refusing is a failure like any other.
func hkdf(salt: [UInt8], ikm: [UInt8], info: String, length: Int) throws(DecryptFailure) -> [UInt8] {
    try hkdf(salt: salt, ikm: ikm, info: Array(info.utf8), length: length)
}

func hkdf(salt: [UInt8], ikm: [UInt8], info: [UInt8], length: Int) throws(DecryptFailure) -> [UInt8] {
    guard let out = HKDF.sha256(salt: salt, ikm: ikm, info: info, length: length) else { throw DecryptFailure("HKDF", "libcrypto refused to derive \(length) bytes") }
    return out
}
