import Foundation

/// An Objective-C file's tokens, and the string constants its `#define`s give.
///
/// Hand-written because no parser we can call reads an app's Objective-C without the iOS SDK:
/// clang (in the Swift toolchain) stops at `#import <UserNotifications/…>`, and with the imports
/// removed its AST drops every declaration whose type it does not know (`UNNotificationAction
/// *a = …` is an error, not a node). Its `-dump-raw-tokens` only lexes, which this does in-process:
/// comments, string and character literals, identifiers, numbers, punctuation, directives. Every
/// `#if` branch is kept (the reader takes the first definition of a name).
struct ObjCTokenizer {
    struct Token: Sendable {
        enum Kind: Sendable { case identifier, number, string, objcString, punctuation, atKeyword }
        var kind: Kind
        /// The identifier, the punctuation (`@[` is one), a literal's decoded value, `@implementation`.
        var text: String
        var offset: Int
    }

    private(set) var tokens: [Token] = []
    /// `#define NAME @"…"` (or a plain `"…"`, or another name): name → value.
    private(set) var defines: [(name: String, value: CodeValue)] = []
    private let bytes: [UInt8]
    private let lines: SourceBytes.Lines

    static let punctuators = ["...", "->", "==", "!=", "<=", ">=", "&&", "||", "<<", ">>", "++", "--", "+=", "-=", "|=", "&=", "*=", "/=", "@[", "@{", "@("]

    /// `directives`: false for a `#define`'s body, which is tokens only (a body that is itself
    /// `#define …`, 50,000 times over, would recurse as deep).
    init(_ bytes: [UInt8], directives: Bool = true) {
        self.bytes = bytes
        lines = SourceBytes.Lines(bytes)
        var i = 0, atLineStart = directives
        while i < bytes.count {
            let b = bytes[i]
            if b == 0x0A { atLineStart = directives; i += 1; continue }
            if b == 0x20 || b == 0x09 || b == 0x0D || b == 0x0C { i += 1; continue }
            if b == UInt8(ascii: "#"), atLineStart { directive(&i); continue }
            atLineStart = false
            if b == UInt8(ascii: "/"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "/") {
                while i < bytes.count, bytes[i] != 0x0A { i += 1 }
            } else if b == UInt8(ascii: "/"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "*") {
                i += 2
                while i + 1 < bytes.count, !(bytes[i] == UInt8(ascii: "*") && bytes[i + 1] == UInt8(ascii: "/")) { i += 1 }
                i = min(i + 2, bytes.count)
            } else if b == UInt8(ascii: "@"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "\"") {
                let start = i
                i += 1
                tokens.append(Token(kind: .objcString, text: quoted(&i), offset: start))
            } else if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") {
                let start = i
                let value = quoted(&i)
                tokens.append(Token(kind: b == UInt8(ascii: "\"") ? .string : .number, text: value, offset: start))
            } else if b == UInt8(ascii: "@"), i + 1 < bytes.count, SourceBytes.startsIdentifier(bytes[i + 1]) {
                let start = i
                i += 1
                while i < bytes.count, SourceBytes.continuesIdentifier(bytes[i]) { i += 1 }
                tokens.append(Token(kind: .atKeyword, text: String(decoding: bytes[start..<i], as: UTF8.self), offset: start))
            } else if SourceBytes.startsIdentifier(b) {
                let start = i
                while i < bytes.count, SourceBytes.continuesIdentifier(bytes[i]) { i += 1 }
                tokens.append(Token(kind: .identifier, text: String(decoding: bytes[start..<i], as: UTF8.self), offset: start))
            } else if b >= 0x30 && b <= 0x39 {
                let start = i
                while i < bytes.count, SourceBytes.continuesIdentifier(bytes[i]) || bytes[i] == UInt8(ascii: ".") { i += 1 }
                tokens.append(Token(kind: .number, text: String(decoding: bytes[start..<i], as: UTF8.self), offset: start))
            } else {
                let rest = bytes[i..<min(i + 3, bytes.count)]
                let p = Self.punctuators.first { rest.starts(with: $0.utf8) } ?? String(decoding: [b], as: UTF8.self)
                tokens.append(Token(kind: .punctuation, text: p, offset: i))
                i += p.utf8.count
            }
        }
    }

    func site(_ offset: Int, file: String) -> CodeSite { lines.site(offset, file: file) }

    /// A `#` line (continued by `\`); a `#define` of one literal or name is kept.
    private mutating func directive(_ i: inout Int) {
        let start = i
        while i < bytes.count, bytes[i] != 0x0A || (i > start && bytes[i - 1] == UInt8(ascii: "\\")) { i += 1 }
        let line = String(decoding: bytes[start..<i], as: UTF8.self).replacingOccurrences(of: "\\\n", with: " ")
        let words = line.dropFirst().split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
        guard words.count == 3, words[0] == "define", !words[1].contains("(") else { return }
        var body = ObjCTokenizer(Array(words[2].utf8), directives: false).tokens.filter { $0.text != "(" && $0.text != ")" }
        if body.count >= 2, body.allSatisfy({ $0.kind == .objcString || $0.kind == .string }) { body = [Token(kind: .objcString, text: body.map(\.text).joined(), offset: 0)] }
        guard body.count == 1 else { return }
        switch body[0].kind {
        case .objcString, .string: defines.append((String(words[1]), .text(body[0].text)))
        case .identifier: defines.append((String(words[1]), .name(body[0].text, scope: [])))
        default: break
        }
    }

    /// A `"…"` or `'…'` literal's value; `i` is at the quote and ends past the closing one.
    private func quoted(_ i: inout Int) -> String {
        let quote = bytes[i]
        i += 1
        var out: [UInt8] = []
        while i < bytes.count, bytes[i] != quote, bytes[i] != 0x0A {
            if bytes[i] == UInt8(ascii: "\\"), i + 1 < bytes.count {
                i += 1
                switch bytes[i] {
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "0"): out.append(0)
                case UInt8(ascii: "u"):
                    if i + 4 < bytes.count, let v = UInt32(String(decoding: bytes[(i + 1)...(i + 4)], as: UTF8.self), radix: 16), let s = Unicode.Scalar(v) {
                        out.append(contentsOf: Array(String(Character(s)).utf8))
                        i += 4
                    }
                default: out.append(bytes[i])
                }
                i += 1
                continue
            }
            out.append(bytes[i])
            i += 1
        }
        i = min(i + 1, bytes.count)
        return String(decoding: out, as: UTF8.self)
    }
}
