/// `Localizable.strings`: old-style property-list text, `"key" = "value";`, with comments and
/// escapes, in UTF-8 or UTF-16 (with a byte-order mark, as Xcode writes it).
public enum StringsFile {
    public struct ParseError: Error, CustomStringConvertible, Equatable {
        public var file: String, line: Int, message: String
        public var description: String { "\(file):\(line): \(message)" }
    }

    public static func parse(_ bytes: [UInt8], file: String) throws(ParseError) -> [String: String] {
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
        var peek: Unicode.Scalar { chars[i] }
        var line: Int { chars[0..<min(i, chars.count)].filter { $0 == "\n" }.count + 1 }

        func error(_ m: String) -> ParseError { ParseError(file: file, line: line, message: m) }

        mutating func skipSpaceAndComments() throws(ParseError) {
            while !atEnd {
                if peek.properties.isWhitespace { i += 1 }
                else if peek == "/", i + 1 < chars.count, chars[i + 1] == "*" {
                    let start = line
                    i += 2
                    while !atEnd, !(peek == "*" && i + 1 < chars.count && chars[i + 1] == "/") { i += 1 }
                    guard !atEnd else { throw ParseError(file: file, line: start, message: "comment /* is never closed") }
                    i += 2
                } else if peek == "/", i + 1 < chars.count, chars[i + 1] == "/" {
                    while !atEnd, peek != "\n" { i += 1 }
                } else { return }
            }
        }

        mutating func expect(_ c: Unicode.Scalar) throws(ParseError) {
            guard !atEnd, peek == c else { throw error("expected \(c)\(atEnd ? " before the end of the file" : ", found \(peek)")") }
            i += 1
        }

        mutating func string() throws(ParseError) -> String {
            guard !atEnd else { throw error("expected a \"string\"") }
            if peek != "\"" { // unquoted: letters, digits and _.$:/-
                var out = String.UnicodeScalarView()
                while !atEnd, peek.properties.isAlphabetic || ("0"..."9").contains(peek) || "_.$:/-".unicodeScalars.contains(peek) {
                    out.append(peek); i += 1
                }
                guard !out.isEmpty else { throw error("expected a \"string\", found \(peek)") }
                return String(out)
            }
            let start = line
            i += 1
            var out = String.UnicodeScalarView()
            while !atEnd {
                let c = peek
                i += 1
                if c == "\"" { return String(out) }
                if c != "\\" { out.append(c); continue }
                guard !atEnd else { break }
                let e = peek
                i += 1
                switch e {
                case "n": out.append("\n")
                case "t": out.append("\t")
                case "r": out.append("\r")
                case "U", "u":
                    var hex = ""
                    while hex.count < 4, !atEnd, peek.properties.isASCIIHexDigit { hex.unicodeScalars.append(peek); i += 1 }
                    guard let v = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(v) else { throw error("\\U needs four hex digits") }
                    out.append(scalar)
                default: out.append(e)
                }
            }
            throw ParseError(file: file, line: start, message: "string is never closed (a \" is missing)")
        }
    }
}
