import Payload
import Formats
/// `Localizable.strings`: old-style property-list text, `"key" = "value";`, with comments and
/// escapes, in UTF-8 or UTF-16 (with a byte-order mark, as Xcode writes it).
public enum StringsFile {
    public struct ParseError: Error, CustomStringConvertible, Equatable {
        public var file: String, line: Int, message: String
        public var description: String { "\(file):\(line): \(message)" }
    }

    public static func parse(_ bytes: [UInt8], file: String) throws(ParseError) -> [String: String] {
        // A built app's tables are often property lists (Xcode writes binary ones): read them as such.
        if bytes.starts(with: Array("bplist00".utf8)) || bytes.starts(with: Array("<?xml".utf8)) {
            let value: PropertyListValue
            do { value = try PropertyList.read(bytes, file: file) } catch {
                throw ParseError(file: file, line: Int(error.position.split(separator: " ").last ?? "") ?? 0, message: error.message)
            }
            guard let table = value.dictionary else { throw ParseError(file: file, line: 1, message: "a property-list strings table must be a dictionary") }
            return Dictionary(table.compactMap { entry in entry.value.string.map { (entry.key, $0) } }) { $1 }
        }
        let text: String
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            let little = bytes[0] == 0xFF
            let units = stride(from: 2, to: bytes.count - 1, by: 2).map { i in
                little ? UInt16(bytes[i]) | UInt16(bytes[i + 1]) << 8 : UInt16(bytes[i]) << 8 | UInt16(bytes[i + 1])
            }
            text = String(decoding: units, as: UTF16.self)
        }
        else if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { text = String(decoding: bytes.dropFirst(3), as: UTF8.self) }
        else { text = String(decoding: bytes, as: UTF8.self) }
        var s = Scanner(chars: Array(text.unicodeScalars), file: file)
        var table: [String: String] = [:]
        while true {
            try s.skipSpaceAndComments()
            if s.atEnd { return table }
            let key = try s.string()
            try s.skipSpaceAndComments()
            if s.peek == ";" { s.i += 1; table[key] = key; continue } // "key"; means key = key
            try s.expect("=")
            try s.skipSpaceAndComments()
            let value = try s.string()
            try s.skipSpaceAndComments()
            try s.expect(";")
            table[key] = value
        }
    }

    struct Scanner {
        let chars: [Unicode.Scalar]
        let file: String
        var i = 0
        var atEnd: Bool { i >= chars.count }
        /// nil at the end: the scanner never reads past it, however the file is cut short.
        var peek: Unicode.Scalar? { i < chars.count ? chars[i] : nil }

        /// The line of position `at`, counted only when a message needs it (counting for every
        /// string made a large table quadratic).
        func line(at position: Int) -> Int { chars[0..<min(position, chars.count)].lazy.filter { $0 == "\n" }.count + 1 }

        func error(_ m: String) -> ParseError { ParseError(file: file, line: line(at: i), message: m) }

        mutating func skipSpaceAndComments() throws(ParseError) {
            while !atEnd {
                if peek!.properties.isWhitespace { i += 1 }
                else if peek == "/", i + 1 < chars.count, chars[i + 1] == "*" {
                    let start = i
                    i += 2
                    while !atEnd, !(peek == "*" && i + 1 < chars.count && chars[i + 1] == "/") { i += 1 }
                    guard !atEnd else { throw ParseError(file: file, line: line(at: start), message: "comment /* is never closed") }
                    i += 2
                } else if peek == "/", i + 1 < chars.count, chars[i + 1] == "/" {
                    while !atEnd, peek != "\n" { i += 1 }
                } else { return }
            }
        }

        mutating func expect(_ c: Unicode.Scalar) throws(ParseError) {
            guard let found = peek, found == c else { throw error("expected \(c)\(peek.map { ", found \($0)" } ?? " before the end of the file")") }
            i += 1
        }

        mutating func string() throws(ParseError) -> String {
            guard let first = peek else { throw error("expected a \"string\" before the end of the file") }
            if first != "\"" { // unquoted: letters, digits and _.$:/-
                var out = String.UnicodeScalarView()
                while let c = peek, c.properties.isAlphabetic || ("0"..."9").contains(c) || "_.$:/-".unicodeScalars.contains(c) {
                    out.append(c); i += 1
                }
                guard !out.isEmpty else { throw error("expected a \"string\", found \(first)") }
                return String(out)
            }
            let start = i
            i += 1
            var out = String.UnicodeScalarView()
            while let c = peek {
                i += 1
                if c == "\"" { return String(out) }
                if c != "\\" { out.append(c); continue }
                guard let e = peek else { break }
                i += 1
                switch e {
                case "n": out.append("\n")
                case "t": out.append("\t")
                case "r": out.append("\r")
                case "U", "u":
                    var hex = ""
                    while hex.count < 4, let h = peek, h.properties.isASCIIHexDigit { hex.unicodeScalars.append(h); i += 1 }
                    guard let v = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(v) else { throw error("\\U needs four hex digits") }
                    out.append(scalar)
                default: out.append(e)
                }
            }
            throw ParseError(file: file, line: line(at: start), message: "string is never closed (a \" is missing)")
        }
    }
}
