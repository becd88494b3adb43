import Checked
import Foundation

/// The old-style (OpenStep) property list Xcode writes `project.pbxproj` in: `{ key = value; }`,
/// `( a, b, )`, strings bare or quoted, `<0fab>` data, `/* … */` and `//` comments. Read into the
/// same `PropertyListValue` as the XML and binary forms, with every error at a line and column.
/// (Foundation reads the format on Linux too, but says only "line 4", and has no depth budget.)
struct OpenStepReader {
    let bytes: [UInt8]
    let file: String
    var i = 0, line = 1, lineStart = 0
    /// Depth only: a value here is never shared, so the file's size bounds how many there are.
    var budget = InputBudget(maxDepth: PropertyList.maxDepth, maxSize: .max)

    init(bytes: [UInt8], file: String) {
        self.bytes = bytes
        self.file = file
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 } // a UTF-8 byte-order mark
    }

    mutating func read() throws(PropertyList.ParseError) -> PropertyListValue {
        let value = try readValue()
        skipSpace()
        guard i == bytes.count else { throw fail("unexpected \(describe(bytes[i])) after the property list's end") }
        return value
    }

    func fail(_ message: String) -> PropertyList.ParseError {
        PropertyList.ParseError(file: file, position: "line \(line), column \(i - lineStart + 1)", message: message)
    }

    func describe(_ b: UInt8) -> String { b >= 0x21 && b < 0x7F ? "'\(Character(UnicodeScalar(b)))'" : String(format: "byte 0x%02X", b) }

    mutating func skipSpace() {
        while i < bytes.count {
            let b = bytes[i]
            if b == 0x0A { i += 1; line += 1; lineStart = i }
            else if b == 0x20 || b == 0x09 || b == 0x0D { i += 1 }
            else if b == 0x2F, i + 1 < bytes.count, bytes[i + 1] == 0x2F { // a // comment
                while i < bytes.count, bytes[i] != 0x0A { i += 1 }
            } else if b == 0x2F, i + 1 < bytes.count, bytes[i + 1] == 0x2A { // a /* */ comment
                i += 2
                while i < bytes.count, !(bytes[i] == 0x2A && i + 1 < bytes.count && bytes[i + 1] == 0x2F) {
                    if bytes[i] == 0x0A { line += 1; lineStart = i + 1 }
                    i += 1
                }
                i = min(i + 2, bytes.count)
            } else { return }
        }
    }

    mutating func readValue() throws(PropertyList.ParseError) -> PropertyListValue {
        skipSpace()
        guard i < bytes.count else { throw fail("the file ends where a value should be (cut short?)") }
        switch bytes[i] {
        case 0x7B: return try nested { (r: inout OpenStepReader) throws(PropertyList.ParseError) in .dictionary(try r.readDictionary()) }
        case 0x28: return try nested { (r: inout OpenStepReader) throws(PropertyList.ParseError) in .array(try r.readArray()) }
        case 0x3C: return .data(try readData())
        case 0x22, 0x27: return .string(try readQuoted())
        default:
            guard let word = readBare() else { throw fail("unexpected \(describe(bytes[i])); expected a value") }
            return .string(word)
        }
    }

    mutating func nested(_ body: (inout OpenStepReader) throws(PropertyList.ParseError) -> PropertyListValue) throws(PropertyList.ParseError) -> PropertyListValue {
        do { try budget.enter() } catch { throw fail(error.description) }
        defer { budget.leave() }
        return try body(&self)
    }

    mutating func readDictionary() throws(PropertyList.ParseError) -> PropertyListDictionary {
        i += 1 // {
        var out = PropertyListDictionary()
        while true {
            skipSpace()
            guard i < bytes.count else { throw fail("the file ends inside a dictionary: no closing '}' (cut short?)") }
            if bytes[i] == 0x7D { i += 1; return out }
            let keyAt = (line, i - lineStart + 1)
            guard let key = try readValue().string else { throw fail("a dictionary key must be a string") }
            skipSpace()
            guard i < bytes.count, bytes[i] == 0x3D else { throw fail(i < bytes.count ? "expected '=' after the key \"\(key.prefix(40))\", found \(describe(bytes[i]))" : "the file ends after the key \"\(key.prefix(40))\" (cut short?)") }
            i += 1
            let value = try readValue()
            skipSpace()
            guard i < bytes.count, bytes[i] == 0x3B else { throw fail(i < bytes.count ? "expected ';' after the value of \"\(key.prefix(40))\", found \(describe(bytes[i]))" : "the file ends after the value of \"\(key.prefix(40))\" (cut short?)") }
            i += 1
            if out[key] != nil {
                throw PropertyList.ParseError(file: file, position: "line \(keyAt.0), column \(keyAt.1)", message: "the key \"\(key.prefix(40))\" appears twice in one dictionary")
            }
            out[key] = value
        }
    }

    mutating func readArray() throws(PropertyList.ParseError) -> [PropertyListValue] {
        i += 1 // (
        var out: [PropertyListValue] = []
        while true {
            skipSpace()
            guard i < bytes.count else { throw fail("the file ends inside an array: no closing ')' (cut short?)") }
            if bytes[i] == 0x29 { i += 1; return out }
            out.append(try readValue())
            skipSpace()
            guard i < bytes.count else { throw fail("the file ends inside an array: no closing ')' (cut short?)") }
            if bytes[i] == 0x2C { i += 1 } else if bytes[i] != 0x29 { throw fail("expected ',' or ')' in an array, found \(describe(bytes[i]))") }
        }
    }

    /// The characters a bare word may hold, as Xcode writes them (identifiers, paths, numbers).
    static func isBare(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F || b == 0x24 || b == 0x2E
            || b == 0x2F || b == 0x3A || b == 0x2D || b == 0x2B
    }

    mutating func readBare() -> String? {
        let start = i
        while i < bytes.count, Self.isBare(bytes[i]) {
            // A comment may follow a word with no space between: "abc/*x*/".
            if bytes[i] == 0x2F, i + 1 < bytes.count, bytes[i + 1] == 0x2A || bytes[i + 1] == 0x2F { break }
            i += 1
        }
        return i > start ? String(decoding: bytes[start..<i], as: UTF8.self) : nil
    }

    mutating func readQuoted() throws(PropertyList.ParseError) -> String {
        let quote = bytes[i]
        i += 1
        var out: [UInt8] = []
        while true {
            guard i < bytes.count else { throw fail("the file ends inside a quoted string (cut short?)") }
            let b = bytes[i]
            if b == quote { i += 1; return String(decoding: out, as: UTF8.self) }
            if b == 0x0A { line += 1; lineStart = i + 1 }
            guard b == 0x5C else { out.append(b); i += 1; continue }
            i += 1
            guard i < bytes.count else { throw fail("the file ends inside a quoted string (cut short?)") }
            let e = bytes[i]
            i += 1
            switch e {
            case 0x6E: out.append(0x0A)       // \n
            case 0x74: out.append(0x09)       // \t
            case 0x72: out.append(0x0D)       // \r
            case 0x61: out.append(0x07)       // \a
            case 0x62: out.append(0x08)       // \b
            case 0x66: out.append(0x0C)       // \f
            case 0x76: out.append(0x0B)       // \v
            case 0x55:                        // \U0041: four hex digits
                guard i + 4 <= bytes.count, let v = UInt32(String(decoding: bytes[i..<(i + 4)], as: UTF8.self), radix: 16),
                      let scalar = UnicodeScalar(v) else { throw fail("\\U needs four hexadecimal digits of a character") }
                out += Array(String(Character(scalar)).utf8)
                i += 4
            case 0x30...0x37:                 // \101: up to three octal digits
                var v = UInt32(e - 0x30), n = 1
                while n < 3, i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x37 { v = v * 8 + UInt32(bytes[i] - 0x30); i += 1; n += 1 }
                guard v < 256 else { throw fail("an octal escape beyond \\377") }
                out.append(UInt8(v))
            default: out.append(e)           // \" \\ \' and any other character as itself
            }
        }
    }

    mutating func readData() throws(PropertyList.ParseError) -> Data {
        i += 1 // <
        var out: [UInt8] = [], high: UInt8?
        while true {
            skipSpace()
            guard i < bytes.count else { throw fail("the file ends inside <data> (cut short?)") }
            let b = bytes[i]
            if b == 0x3E {
                guard high == nil else { throw fail("<data> has an odd number of hexadecimal digits") }
                i += 1
                return Data(out)
            }
            guard let v = UInt8(String(UnicodeScalar(b)), radix: 16) else { throw fail("\(describe(b)) in <data>, which holds hexadecimal digits only") }
            if let h = high { out.append(h << 4 | v); high = nil } else { high = v }
            i += 1
        }
    }
}
