/// A short key for a long text (a template, a style sheet): its length and FNV-1a over its UTF-8
/// bytes. A `String` holding the text itself would be hashed through Unicode normalization on
/// every lookup once it has one character outside ASCII (an em dash in a comment will do).
public func contentKey(_ text: String) -> String {
    var copy = text
    return copy.withUTF8 { bytes in
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return "\(bytes.count):\(String(hash, radix: 36))"
    }
}
