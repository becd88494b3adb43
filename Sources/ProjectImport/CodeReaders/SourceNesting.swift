/// How deep a source file nests — brackets, braces, parentheses and string interpolations —
/// found in one pass with a stack of its own, before any reader that recurses sees the file: a
/// file nested deeper than `maxDepth` is refused with its file and line, as is Swift nesting
/// square brackets deeper than `maxSquareBrackets`. Real code nests a dozen levels; 100,000
/// interpolations overflowed a reader's stack (issue 34). swiftc's parser takes time that doubles
/// with each `[` nested (measured with 6.3: 20 levels 0.3 s, 24 2 s, 28 20 s, 1,000 for ever),
/// while real code nests arrays and subscripts a handful deep.
public enum SourceNesting {
    public static let maxDepth = 256
    public static let maxSquareBrackets = 16

    /// Where the file first goes too deep (a 1-based line) and how, or nil.
    static func tooDeep(_ bytes: [UInt8], swift: Bool = true) -> (line: Int, what: String)? {
        enum Context { case code, interpolation, string(hashes: Int, multiline: Bool) }
        var stack: [Context] = [.code]
        var squares: [Int] = []  // stack depths at which a `[` is open
        var line = 1
        var i = 0
        func at(_ j: Int, _ c: Character) -> Bool { j < bytes.count && bytes[j] == c.asciiValue! }
        func hashes(_ j: Int, _ n: Int) -> Bool { j + n <= bytes.count && (0..<n).allSatisfy { bytes[j + $0] == 0x23 } }
        while i < bytes.count {
            let b = bytes[i]
            if b == 0x0A { line += 1 }
            switch stack[stack.count - 1] {
            case .string(let n, let multiline):
                if b == 0x0A, !multiline { stack.removeLast(); i += 1; continue }
                if b == 0x5C, hashes(i + 1, n) {  // \ then the raw string's hashes: an escape or an interpolation
                    i += 1 + n
                    if at(i, "(") { stack.append(.interpolation) }
                    i += 1
                    continue
                }
                if b == 0x22 {
                    let quotes = multiline ? 3 : 1
                    if (0..<quotes).allSatisfy({ at(i + $0, "\"") }), hashes(i + quotes, n) {
                        stack.removeLast()
                        i += quotes + n
                        continue
                    }
                }
                i += 1
            case .code, .interpolation:
                if b == 0x2F, at(i + 1, "/") {
                    while i < bytes.count, bytes[i] != 0x0A { i += 1 }
                    continue
                }
                if b == 0x2F, at(i + 1, "*") {
                    i += 2
                    while i + 1 < bytes.count, !(bytes[i] == 0x2A && bytes[i + 1] == 0x2F) { if bytes[i] == 0x0A { line += 1 }; i += 1 }
                    i += 2
                    continue
                }
                if b == 0x23 || b == 0x22 {
                    var n = 0
                    while at(i + n, "#") { n += 1 }
                    guard at(i + n, "\"") else { i += max(1, n); continue }
                    let multiline = at(i + n + 1, "\"") && at(i + n + 2, "\"")
                    stack.append(.string(hashes: n, multiline: multiline))
                    i += n + (multiline ? 3 : 1)
                } else if b == 0x28 || b == 0x5B || b == 0x7B {
                    if b == 0x5B { squares.append(stack.count) }
                    stack.append(.code)
                    i += 1
                    if swift, squares.count > maxSquareBrackets { return (line, "square brackets nested deeper than \(maxSquareBrackets) levels (swiftc's parser takes time that doubles with each)") }
                } else if b == 0x29 || b == 0x5D || b == 0x7D {
                    if stack.count > 1 { stack.removeLast() }
                    while let last = squares.last, last >= stack.count { squares.removeLast() }
                    i += 1
                } else {
                    i += 1
                }
            }
            if stack.count > maxDepth { return (line, "nested deeper than \(maxDepth) levels (brackets or string interpolations)") }
        }
        return nil
    }
}
