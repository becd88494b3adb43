/// A Swift file's bytes with what the parse-only AST leaves out: where each identifier is (its
/// expressions carry no source range, so a call's position is found as the next occurrence of
/// its name inside the declaration or statement that holds it) and the text of enum raw values.
/// Comments and string literals are skipped, so a name inside them is not taken for code.
struct SwiftSourceText {
    let bytes: [UInt8]
    let file: String
    private(set) var identifiers: [String: [Int]] = [:]
    private let lines: SourceBytes.Lines

    init(_ bytes: [UInt8], file: String) {
        self.bytes = bytes
        self.file = file
        lines = SourceBytes.Lines(bytes)
        var i = 0
        scan(&i, until: nil)
    }

    func site(_ offset: Int) -> CodeSite { lines.site(offset, file: file) }

    /// The value of the string literal starting at `offset` (`"REPLY"`, `#"a\b"#`); nil when
    /// none starts there or it has an interpolation.
    func stringLiteral(at offset: Int) -> String? {
        var i = offset, hashes = 0
        while i < bytes.count, bytes[i] == UInt8(ascii: "#") { hashes += 1; i += 1 }
        guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { return nil }
        let multiline = i + 2 < bytes.count && bytes[i + 1] == UInt8(ascii: "\"") && bytes[i + 2] == UInt8(ascii: "\"")
        guard !multiline else { return nil }
        i += 1
        var out: [UInt8] = []
        while i < bytes.count, bytes[i] != 0x0A {
            if bytes[i] == UInt8(ascii: "\""), closes(at: i + 1, hashes: hashes) { return String(decoding: out, as: UTF8.self) }
            if bytes[i] == UInt8(ascii: "\\"), closes(at: i + 1, hashes: hashes, mark: UInt8(ascii: "#")) {
                i += 1 + hashes
                guard i < bytes.count else { return nil }
                switch bytes[i] {
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "0"): out.append(0)
                case UInt8(ascii: "("): return nil
                case UInt8(ascii: "u"):
                    guard let close = bytes[i...].firstIndex(of: UInt8(ascii: "}")), i + 2 < close,
                          let v = UInt32(String(decoding: bytes[(i + 2)..<close], as: UTF8.self), radix: 16), let scalar = Unicode.Scalar(v) else { return nil }
                    out.append(contentsOf: Array(String(Character(scalar)).utf8))
                    i = close
                default: out.append(bytes[i])
                }
                i += 1
                continue
            }
            out.append(bytes[i])
            i += 1
        }
        return nil
    }

    /// Whether `hashes` copies of `mark` follow at `i` (a raw string's closing `"##`, or its `\#`).
    private func closes(at i: Int, hashes: Int, mark: UInt8 = UInt8(ascii: "#")) -> Bool {
        guard i + hashes <= bytes.count else { return false }
        return (0..<hashes).allSatisfy { bytes[i + $0] == mark }
    }

    /// Indexes identifiers from `i` to the end, or to the `)` that closes an interpolation.
    private mutating func scan(_ i: inout Int, until close: UInt8?) {
        var depth = 0
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "/"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "/") {
                while i < bytes.count, bytes[i] != 0x0A { i += 1 }
            } else if b == UInt8(ascii: "/"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "*") {
                var nesting = 0
                while i + 1 < bytes.count {
                    if bytes[i] == UInt8(ascii: "/"), bytes[i + 1] == UInt8(ascii: "*") { nesting += 1; i += 2; continue }
                    if bytes[i] == UInt8(ascii: "*"), bytes[i + 1] == UInt8(ascii: "/") { nesting -= 1; i += 2; if nesting == 0 { break }; continue }
                    i += 1
                }
            } else if b == UInt8(ascii: "\"") || (b == UInt8(ascii: "#") && i + 1 < bytes.count && (bytes[i + 1] == UInt8(ascii: "\"") || bytes[i + 1] == UInt8(ascii: "#"))) {
                skipString(&i)
            } else if b == UInt8(ascii: "`") {
                let start = i + 1
                i += 1
                while i < bytes.count, bytes[i] != UInt8(ascii: "`"), bytes[i] != 0x0A { i += 1 }
                identifiers[String(decoding: bytes[start..<min(i, bytes.count)], as: UTF8.self), default: []].append(start - 1)
                i += 1
            } else if SourceBytes.startsIdentifier(b) {
                let start = i
                while i < bytes.count, SourceBytes.continuesIdentifier(bytes[i]) { i += 1 }
                identifiers[String(decoding: bytes[start..<i], as: UTF8.self), default: []].append(start)
            } else if b >= 0x30 && b <= 0x39 {
                while i < bytes.count, SourceBytes.continuesIdentifier(bytes[i]) || bytes[i] == UInt8(ascii: ".") { i += 1 }
            } else {
                if let close {
                    if b == UInt8(ascii: "(") { depth += 1 }
                    if b == close { if depth == 0 { i += 1; return }; depth -= 1 }
                }
                i += 1
            }
        }
    }

    /// Skips a string literal (plain, raw or multiline), indexing the code of its interpolations.
    private mutating func skipString(_ i: inout Int) {
        var hashes = 0
        while i < bytes.count, bytes[i] == UInt8(ascii: "#") { hashes += 1; i += 1 }
        guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { return }
        let multiline = i + 2 < bytes.count && bytes[i + 1] == UInt8(ascii: "\"") && bytes[i + 2] == UInt8(ascii: "\"")
        i += multiline ? 3 : 1
        while i < bytes.count {
            let b = bytes[i]
            if b == 0x0A, !multiline { return }
            if b == UInt8(ascii: "\\"), closes(at: i + 1, hashes: hashes) {
                i += 1 + hashes
                if i < bytes.count, bytes[i] == UInt8(ascii: "(") { i += 1; scan(&i, until: UInt8(ascii: ")")) } else { i += 1 }
                continue
            }
            if b == UInt8(ascii: "\"") {
                if multiline {
                    if i + 2 < bytes.count, bytes[i + 1] == UInt8(ascii: "\""), bytes[i + 2] == UInt8(ascii: "\""), closes(at: i + 3, hashes: hashes) { i += 3 + hashes; return }
                } else if closes(at: i + 1, hashes: hashes) {
                    i += 1 + hashes
                    return
                }
            }
            i += 1
        }
    }
}
