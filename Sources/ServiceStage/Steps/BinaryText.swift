/// Bytes written as text in a payload or a key file: base64 (RFC 4648 §4), base64url (§5, as
/// Web Push writes keys and bodies) or Z85 (ZeroMQ's RFC 32, as fediverse relays write them).
/// One strict decoder for all of them: a character outside the alphabet, a length no encoder
/// makes, or a byte count other than the one expected is an error that names the key.
public enum BinaryText: String, Sendable, CaseIterable {
    case base64, base64url, z85

    public struct Failure: Error, Equatable, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// The bytes of `text`, the value of `key`; `length`, when given, is the byte count required.
    public func decode(_ text: String, key: String, length: Int? = nil) throws(Failure) -> [UInt8] {
        let bytes: [UInt8]?
        switch self {
        case .base64: bytes = Self.base64(Array(text.utf8), table: Self.base64Table)
        case .base64url: bytes = Self.base64(Array(text.utf8), table: Self.base64urlTable)
        case .z85: bytes = Self.z85(Array(text.utf8))
        }
        guard let bytes else { throw Failure(message: "\(key) is not \(rawValue) text") }
        if let length, bytes.count != length {
            throw Failure(message: "\(key) is \(bytes.count) bytes; expected \(length)")
        }
        return bytes
    }

    private static let base64Table = table("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
    private static let base64urlTable = table("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    private static let z85Table = table("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#")

    /// Each byte's digit value, -1 outside the alphabet.
    private static func table(_ alphabet: String) -> [Int8] {
        var table = [Int8](repeating: -1, count: 256)
        for (i, c) in alphabet.utf8.enumerated() { table[Int(c)] = Int8(i) }
        return table
    }

    /// Padding is optional but, when present, must make the length a multiple of 4.
    private static func base64(_ text: [UInt8], table: [Int8]) -> [UInt8]? {
        var digits = text[...]
        let padding = digits.reversed().prefix { $0 == UInt8(ascii: "=") }.count
        digits = digits.dropLast(padding)
        guard padding == 0 || (padding <= 2 && text.count % 4 == 0), digits.count % 4 != 1 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(digits.count * 3 / 4)
        var accumulator: UInt32 = 0, bits = 0
        for c in digits {
            let v = table[Int(c)]
            guard v >= 0 else { return nil }
            accumulator = accumulator << 6 | UInt32(v)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        return out
    }

    /// Groups of five digits carry four bytes, big-endian (RFC 32). A shorter last group of
    /// n + 1 digits carries n bytes as one big-endian number: toot-relay's form for bodies and
    /// keys whose length is not a multiple of 4, which RFC 32 itself does not allow.
    private static func z85(_ text: [UInt8]) -> [UInt8]? {
        guard text.count % 5 != 1 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(text.count * 4 / 5)
        var start = 0
        while start < text.count {
            let group = text[start..<min(start + 5, text.count)]
            var value: UInt64 = 0
            for c in group {
                let v = z85Table[Int(c)]
                guard v >= 0 else { return nil }
                value = value * 85 + UInt64(v)
            }
            let byteCount = group.count - 1
            guard value >> (8 * UInt64(byteCount)) == 0 else { return nil }
            for i in (0..<byteCount).reversed() { out.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(i)))) }
            start += 5
        }
        return out
    }
}
