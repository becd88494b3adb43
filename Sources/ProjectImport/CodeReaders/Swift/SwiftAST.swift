import Checked

/// One node of the AST `swiftc -dump-parse -dump-ast-format json` prints: its `_kind`, the few
/// scalar fields the reader uses, its byte range in the source when it has one (declarations and
/// statements do; expressions do not), and its child nodes in the order printed, which is source order.
struct SwiftASTNode: Sendable {
    var kind: String
    var scalars: [String: String] = [:]
    /// Arrays of strings: a declaration name's argument labels.
    var stringLists: [String: [String]] = [:]
    /// Byte offsets of the first and the last token.
    var range: (start: Int, end: Int)?
    var children: [(field: String, node: SwiftASTNode)] = []

    subscript(scalar: String) -> String? { scalars[scalar] }
    func child(_ field: String) -> SwiftASTNode? { children.first { $0.field == field }?.node }
    func children(_ field: String) -> [SwiftASTNode] { children.filter { $0.field == field }.map(\.node) }

    /// A declaration's name: `reply`, or `f(_:with:)` for a function (`decl_name`'s base and labels).
    var declName: String? {
        guard let name = child("name"), let base = name.child("base_name")?["name"] else { return nil }
        guard kind == "func_decl" else { return base }
        return base + "(" + (name.stringLists["args"] ?? []).map { ($0.isEmpty ? "_" : $0) + ":" }.joined() + ")"
    }
}

/// Reads the dump's JSON keeping object members in order (Foundation's parser does not, and
/// Payload's stops at 64 levels, which an AST passes). Only the scalars the reader uses are kept,
/// and `processed_init` (a second copy of every initializer) is skipped.
struct SwiftASTJSON {
    struct Failure: Error { var message: String }

    static let keptScalars: Set<String> = ["name", "apiName", "decl", "filename", "field", "value", "label", "labels", "extended_type", "static", "implicit", "kind", "single_expression", "get", "start", "end", "negative"]
    static let skippedFields: Set<String> = ["processed_init", "decl_context", "type", "function_ref", "compiler_version"]
    static let maxDepth = 500
    /// Objects read, of every kind (a big app's dump has a few hundred thousand).
    static let maxObjects = 10_000_000

    private let bytes: [UInt8]
    private var i = 0
    private var budget = InputBudget(maxDepth: maxDepth, maxSize: maxObjects, unit: "objects")

    static let fileStart = Array(#"{"_kind":"source_file","filename":""#.utf8)

    /// Each file's `source_file` node, by the file name swiftc was given. The dumps follow one
    /// another; each is read on its own, so a dump swiftc got wrong costs only its own file.
    static func parse(_ bytes: [UInt8]) -> [(file: String, node: SwiftASTNode?, failure: String?)] {
        var starts: [Int] = []
        var i = 0
        while i + fileStart.count <= bytes.count {
            if bytes[i] == fileStart[0], bytes[i..<(i + fileStart.count)].elementsEqual(fileStart) { starts.append(i); i += fileStart.count } else { i += 1 }
        }
        var files: [(file: String, node: SwiftASTNode?, failure: String?)] = []
        for (k, start) in starts.enumerated() {
            let end = k + 1 < starts.count ? starts[k + 1] : bytes.count
            let name = String(decoding: bytes[(start + fileStart.count)..<end].prefix { $0 != UInt8(ascii: "\"") }, as: UTF8.self)
            var reader = SwiftASTJSON(bytes: Array(bytes[start..<end]))
            let node: SwiftASTNode
            do throws(Failure) { node = try reader.object() } catch { files.append((name, nil, error.message)); continue }
            files.append((name, node, nil))
        }
        return files
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private var peek: UInt8? { i < bytes.count ? bytes[i] : nil }

    private mutating func space() {
        while let c = peek, c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 { i += 1 }
    }

    private mutating func expect(_ c: Character) throws(Failure) {
        space()
        guard peek == c.asciiValue else { throw Failure(message: "expected '\(c)' at byte \(i) of the AST dump") }
        i += 1
    }

    /// One level deeper, and one object more, within the budget.
    private mutating func enter() throws(Failure) {
        do throws(InputBudget.Exceeded) { try budget.count(); try budget.enter() } catch { throw Failure(message: "the AST is \(error) (at byte \(i) of the dump)") }
    }

    private mutating func object() throws(Failure) -> SwiftASTNode {
        try enter()
        defer { budget.leave() }
        try expect("{")
        var node = SwiftASTNode(kind: "")
        space()
        if peek == UInt8(ascii: "}") { i += 1; return node }
        while true {
            space()
            let key = try string()
            try expect(":")
            space()
            if Self.skippedFields.contains(key) { try skipValue() } else { try member(key, of: &node) }
            space()
            if peek == UInt8(ascii: ",") { i += 1; continue }
            // swiftc 6.3 leaves some objects open (a typealias of an attributed type: the members
            // after it come out with the key ""); the array's `]` closes it, so the rest is read.
            if peek == UInt8(ascii: "]") { return node }
            try expect("}")
            return node
        }
    }

    private mutating func member(_ key: String, of node: inout SwiftASTNode) throws(Failure) {
        switch peek {
        case UInt8(ascii: "{"):
            let child = try object()
            if key == "range", let s = child["start"].flatMap({ Int($0) }), let e = child["end"].flatMap({ Int($0) }) { node.range = (s, e) } else { node.children.append((key, child)) }
        case UInt8(ascii: "["):
            i += 1
            var strings: [String] = []
            while true {
                space()
                switch peek {
                case UInt8(ascii: "]"): i += 1
                case UInt8(ascii: "}"): break // an object left open inside (see `object`) ends here
                case nil: throw Failure(message: "the AST dump ends inside an array")
                case UInt8(ascii: "{"): node.children.append((key, try object())); continue
                case UInt8(ascii: "\""): strings.append(try string()); continue
                case UInt8(ascii: ","): i += 1; continue
                default: try skipValue(); continue
                }
                break
            }
            if !strings.isEmpty { node.stringLists[key] = strings }
        case UInt8(ascii: "\""):
            let value = try string()
            if key == "_kind" { node.kind = value } else if Self.keptScalars.contains(key) { node.scalars[key] = value }
        default:
            let start = i
            while let c = peek, c != UInt8(ascii: ","), c != UInt8(ascii: "}"), c != UInt8(ascii: "]"), c > 0x20 { i += 1 }
            guard i > start else { throw Failure(message: "expected a value at byte \(i) of the AST dump") }
            if Self.keptScalars.contains(key) { node.scalars[key] = String(decoding: bytes[start..<i], as: UTF8.self) }
        }
    }

    private mutating func skipValue() throws(Failure) {
        try enter()
        defer { budget.leave() }
        space()
        switch peek {
        case UInt8(ascii: "\""): _ = try string()
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            let close = peek == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
            i += 1
            while true {
                space()
                guard let c = peek else { throw Failure(message: "the AST dump ends inside a value") }
                if c == UInt8(ascii: "}") || c == UInt8(ascii: "]") { if c == close { i += 1 }; return }
                if c == UInt8(ascii: ",") || c == UInt8(ascii: ":") { i += 1; continue }
                try skipValue()
            }
        default:
            let start = i
            while let c = peek, c != UInt8(ascii: ","), c != UInt8(ascii: "}"), c != UInt8(ascii: "]"), c > 0x20 { i += 1 }
            guard i > start else { throw Failure(message: "unexpected '\(Character(Unicode.Scalar(peek ?? 0x20)))' at byte \(i) of the AST dump") }
        }
    }

    private mutating func string() throws(Failure) -> String {
        guard peek == UInt8(ascii: "\"") else { throw Failure(message: "expected a string at byte \(i) of the AST dump") }
        i += 1
        var out: [UInt8] = []
        while let c = peek {
            i += 1
            if c == UInt8(ascii: "\"") { return String(decoding: out, as: UTF8.self) }
            guard c == UInt8(ascii: "\\"), let e = peek else { out.append(c); continue }
            i += 1
            switch e {
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "u"):
                var unit = try hex4()
                if (0xD800..<0xDC00).contains(unit), peek == UInt8(ascii: "\\"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "u") {
                    i += 2
                    let low = try hex4()
                    unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                }
                out.append(contentsOf: Array(String(Unicode.Scalar(unit).map(Character.init) ?? "\u{FFFD}").utf8))
            default: out.append(e)
            }
        }
        throw Failure(message: "the AST dump ends inside a string")
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
        guard i + 4 <= bytes.count, let v = UInt32(String(decoding: bytes[i..<i + 4], as: UTF8.self), radix: 16) else {
            throw Failure(message: "a bad \\u escape at byte \(i) of the AST dump")
        }
        i += 4
        return v
    }
}
