import Checked
import Foundation
import CXML2

/// Reads Apple property lists, XML and binary, into a `PropertyListValue` — our own reader, so that an error says
/// where it is (a line of XML, a byte offset of binary) and a hostile file has a budget: a binary
/// plist's objects may reference each other, and expanding shared references naively turns a
/// few hundred bytes into gigabytes.
public enum PropertyList {
    /// Values the expanded tree may hold, however the file shares them.
    public static let maxValues = 100_000
    public static let maxDepth = 64

    /// The budget every property-list reader (XML, binary, OpenStep) counts with.
    static var budget: InputBudget { InputBudget(maxDepth: maxDepth, maxSize: maxValues, unit: "values") }

    public struct ParseError: Error, CustomStringConvertible, Equatable {
        public var file: String
        /// "line 12" or "byte 4096".
        public var position: String
        public var message: String
        public var description: String { "\(file): \(position): \(message)" }
        public init(file: String, position: String, message: String) { self.file = file; self.position = position; self.message = message }
    }

    /// Any of the three forms, told apart by their first bytes: binary (`bplist00`), XML (`<?xml`,
    /// `<!DOCTYPE`, `<plist`), else the old-style OpenStep text of `project.pbxproj`.
    public static func read(_ bytes: [UInt8], file: String) throws(ParseError) -> PropertyListValue {
        if bytes.starts(with: Array("bplist00".utf8)) {
            var reader = BinaryReader(bytes: bytes, file: file)
            return try reader.read()
        }
        let start = bytes.prefix(4096).firstIndex { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) } ?? bytes.count
        if start < bytes.count, bytes[start] == 0x3C, start + 1 < bytes.count, [0x3F, 0x21, 0x70].contains(bytes[start + 1]) {
            return try XMLReader.read(bytes, file: file)
        }
        var reader = OpenStepReader(bytes: bytes, file: file)
        return try reader.read()
    }
}

/// `bplist00`: a trailer, an offset table and objects that refer to each other by number.
private struct BinaryReader {
    let bytes: [UInt8]
    let file: String
    var offsets: [Int] = []
    var refSize = 1
    var budget = PropertyList.budget

    init(bytes: [UInt8], file: String) { self.bytes = bytes; self.file = file }

    func fail(_ at: Int, _ message: String) -> PropertyList.ParseError {
        .init(file: file, position: "byte \(at)", message: message)
    }

    /// A big-endian unsigned integer of `size` bytes at `at`.
    func integer(at: Int, size: Int) throws(PropertyList.ParseError) -> Int {
        guard size >= 1, size <= 8, at >= 0, at + size <= bytes.count else { throw fail(at, "the file ends inside a number") }
        var v: UInt64 = 0
        for b in bytes[at..<at + size] { v = v << 8 | UInt64(b) }
        guard v <= UInt64(Int.max) else { throw fail(at, "a number is out of range") }
        return Int(v)
    }

    mutating func read() throws(PropertyList.ParseError) -> PropertyListValue {
        let t = bytes.count - 32
        guard t >= 8 else { throw fail(bytes.count, "too short for a binary property list (no trailer)") }
        let offsetSize = Int(bytes[t + 6])
        refSize = Int(bytes[t + 7])
        let count = try integer(at: t + 8, size: 8), top = try integer(at: t + 16, size: 8), table = try integer(at: t + 24, size: 8)
        guard (1...8).contains(offsetSize), (1...8).contains(refSize) else { throw fail(t + 6, "the trailer's integer sizes are not 1 to 8 bytes") }
        guard count >= 1, count <= bytes.count, top < count, table >= 8, table <= t, count <= (t - table) / offsetSize else {
            throw fail(t, "the trailer's object count, top object or offset table does not fit the file")
        }
        offsets = []
        offsets.reserveCapacity(count)
        for i in 0..<count { offsets.append(try integer(at: table + i * offsetSize, size: offsetSize)) }
        var path: Set<Int> = []
        return try object(top, path: &path)
    }

    /// The length of an object whose marker's low nibble is `nibble`: the nibble, or the integer after it.
    func length(_ nibble: Int, at: Int) throws(PropertyList.ParseError) -> (count: Int, start: Int) {
        guard nibble == 0xF else { return (nibble, at + 1) }
        guard at + 1 < bytes.count, bytes[at + 1] >> 4 == 0x1 else { throw fail(at + 1, "expected an integer length") }
        let size = 1 << Int(bytes[at + 1] & 0xF)
        return (try integer(at: at + 2, size: size), at + 2 + size)
    }

    mutating func object(_ ref: Int, path: inout Set<Int>) throws(PropertyList.ParseError) -> PropertyListValue {
        guard ref >= 0, ref < offsets.count else { throw fail(bytes.count - 32, "object \(ref) does not exist") }
        let at = offsets[ref]
        guard at >= 8, at < bytes.count else { throw fail(at, "object \(ref) lies outside the file") }
        do { try budget.count() } catch { throw fail(at, "expands to \(error) (objects shared over and over); not read") }
        let marker = bytes[at], nibble = Int(marker & 0xF)
        switch marker >> 4 {
        case 0x0:
            switch marker {
            case 0x08: return .bool(false)
            case 0x09: return .bool(true)
            default: throw fail(at, "null and fill objects are not property-list values")
            }
        case 0x1:
            let size = 1 << nibble
            guard size <= 8 else { throw fail(at, "integers over 64 bits are not read") }
            guard at + 1 + size <= bytes.count else { throw fail(at, "the file ends inside a number") }
            var v: UInt64 = 0
            for b in bytes[(at + 1)..<(at + 1 + size)] { v = v << 8 | UInt64(b) }
            return .integer(size == 8 ? Int(Int64(bitPattern: v)) : Int(v))
        case 0x2, 0x3:
            let size = marker == 0x33 ? 8 : 1 << nibble
            guard size == 4 || size == 8, at + 1 + size <= bytes.count else { throw fail(at, "a real number must be 4 or 8 bytes inside the file") }
            var v: UInt64 = 0
            for b in bytes[(at + 1)..<(at + 1 + size)] { v = v << 8 | UInt64(b) }
            let d = size == 4 ? Double(Float(bitPattern: UInt32(v))) : Double(bitPattern: v)
            guard d.isFinite else { throw fail(at, "a real number or date is not finite") }
            return marker == 0x33 ? .date(Date(timeIntervalSinceReferenceDate: d)) : .real(d)
        case 0x4, 0x5, 0x6:
            let (count, start) = try length(nibble, at: at)
            let size = marker >> 4 == 0x6 ? 2 : 1
            guard count <= (bytes.count - start) / size else { throw fail(at, "the file ends inside a string or data object") }
            let body = bytes[start..<(start + count * size)]
            switch marker >> 4 {
            case 0x4: return .data(Data(body))
            case 0x5: return .string(String(decoding: body, as: UTF8.self))
            default: return .string(String(decoding: stride(from: start, to: start + count * 2, by: 2).map { UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]) }, as: UTF16.self))
            }
        case 0xA, 0xC, 0xD:
            let (count, start) = try length(nibble, at: at)
            let refs = marker >> 4 == 0xD ? count * 2 : count
            guard count <= bytes.count, refs <= (bytes.count - start) / refSize else { throw fail(at, "the file ends inside a collection") }
            guard path.insert(ref).inserted else { throw fail(at, "object \(ref) contains itself") }
            defer { path.remove(ref) }
            do { try budget.enter() } catch { throw fail(at, error.description) }
            defer { budget.leave() }
            var items: [Int] = []
            for i in 0..<refs { items.append(try integer(at: start + i * refSize, size: refSize)) }
            if marker >> 4 != 0xD {
                var out: [PropertyListValue] = []
                for item in items { out.append(try object(item, path: &path)) }
                return .array(out)
            }
            var out = PropertyListDictionary()
            for i in 0..<count {
                guard let key = try object(items[i], path: &path).string else { throw fail(at, "a dictionary key is not a string") }
                out[key] = try object(items[count + i], path: &path)
            }
            return .dictionary(out)
        default: throw fail(at, String(format: "unknown object type 0x%02x", marker))
        }
    }
}

/// XML property lists through libxml2 (network off, entities never substituted), with the line of
/// each problem. Not Foundation's XMLParser: it traps on some malformed names.
private struct XMLReader {
    let file: String
    var budget = PropertyList.budget

    func fail(_ line: Int, _ message: String) -> PropertyList.ParseError { .init(file: file, position: "line \(line)", message: message) }

    static func read(_ bytes: [UInt8], file: String) throws(PropertyList.ParseError) -> PropertyListValue {
        let doc: UnsafeMutablePointer<xmlDoc>
        switch UntrustedXML.parse(bytes, file: file) {
        case .success(let d): doc = d
        case .failure(let f): throw PropertyList.ParseError(file: file, position: "line \(f.line)", message: f.message)
        }
        defer { xmlFreeDoc(doc) }
        guard let root = xmlDocGetRootElement(doc), name(root) == "plist" else {
            throw PropertyList.ParseError(file: file, position: "line 1", message: "the root element is not <plist>")
        }
        var reader = XMLReader(file: file)
        let items = elements(root)
        guard items.count == 1 else { throw reader.fail(line(root), "a <plist> holds exactly one value, not \(items.count)") }
        return try reader.value(items[0])
    }

    static func name(_ n: UnsafeMutablePointer<xmlNode>) -> String { n.pointee.name.map { String(cString: $0) } ?? "" }
    static func line(_ n: UnsafeMutablePointer<xmlNode>) -> Int { Int(xmlGetLineNo(n)) }
    static func text(_ n: UnsafeMutablePointer<xmlNode>) -> String {
        guard let c = xmlNodeGetContent(n) else { return "" }
        defer { cxml_free(c) }
        return String(cString: c)
    }
    static func elements(_ n: UnsafeMutablePointer<xmlNode>) -> [UnsafeMutablePointer<xmlNode>] {
        var out: [UnsafeMutablePointer<xmlNode>] = []
        var child = n.pointee.children
        while let c = child {
            if c.pointee.type == XML_ELEMENT_NODE { out.append(c) }
            child = c.pointee.next
        }
        return out
    }

    mutating func value(_ n: UnsafeMutablePointer<xmlNode>) throws(PropertyList.ParseError) -> PropertyListValue {
        let at = Self.line(n)
        do { try budget.count(); try budget.enter() } catch { throw fail(at, error.description) }
        defer { budget.leave() }
        let text = { Self.text(n) }
        switch Self.name(n) {
        case "dict":
            let items = Self.elements(n)
            guard items.count % 2 == 0 else { throw fail(at, "a <dict> needs a value after every <key>") }
            var out = PropertyListDictionary()
            for i in stride(from: 0, to: items.count, by: 2) {
                guard Self.name(items[i]) == "key" else { throw fail(Self.line(items[i]), "expected <key>, found <\(Self.name(items[i]))>") }
                out[Self.text(items[i])] = try value(items[i + 1])
            }
            return .dictionary(out)
        case "array":
            var out: [PropertyListValue] = []
            for item in Self.elements(n) { out.append(try value(item)) }
            return .array(out)
        case "string": return .string(text())
        case "date":
            let written = text().trimmingCharacters(in: .whitespacesAndNewlines)
            guard let date = ISO8601DateFormatter().date(from: written) else { throw fail(at, "<date>\(written.prefix(40))</date> is not an ISO 8601 date (2026-01-31T12:00:00Z)") }
            return .date(date)
        case "integer":
            guard let v = Int(text().trimmingCharacters(in: .whitespacesAndNewlines)) else { throw fail(at, "<integer>\(text().prefix(40))</integer> is not a whole number") }
            return .integer(v)
        case "real":
            guard let v = Double(decimal: text().trimmingCharacters(in: .whitespacesAndNewlines)) else { throw fail(at, "<real>\(text().prefix(40))</real> is not a finite number") }
            return .real(v)
        case "true": return .bool(true)
        case "false": return .bool(false)
        case "data":
            guard let d = Data(base64Encoded: text(), options: .ignoreUnknownCharacters) else { throw fail(at, "<data> is not base64") }
            return .data(d)
        case let other: throw fail(at, "<\(other.prefix(40))> is not a property-list element")
        }
    }
}
