import CXML2
import Foundation

/// The one way an input's XML is parsed (property lists, storyboards): libxml2 from memory with
/// the network off and entities never substituted, an entity declaration refused outright (the
/// one XML feature these files never need and an attacker always wants), and a failure that
/// says the line.
public enum UntrustedXML {
    public struct Failure: Error, Sendable {
        public var line: Int
        public var message: String
    }

    /// The parsed document, which the caller frees with `xmlFreeDoc`.
    public static func parse(_ bytes: [UInt8], file: String) -> Result<UnsafeMutablePointer<xmlDoc>, Failure> {
        if let at = find(Array("<!ENTITY".utf8), in: bytes) {
            return .failure(Failure(line: line(at, in: bytes), message: "entity declarations are not allowed"))
        }
        guard let ctxt = xmlNewParserCtxt() else { return .failure(Failure(line: 0, message: "out of memory")) }
        defer { xmlFreeParserCtxt(ctxt) }
        // No XML_PARSE_NOENT, no DTD loading, no XML_PARSE_HUGE: libxml2 keeps its own limits
        // (256 levels of nesting, 10 MB per text node).
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue)
        let doc = bytes.withUnsafeBufferPointer { raw in
            raw.baseAddress.flatMap { base in
                base.withMemoryRebound(to: CChar.self, capacity: raw.count) { xmlCtxtReadMemory(ctxt, $0, Int32(clamping: raw.count), file, nil, options) }
            }
        }
        guard let doc else {
            let last = xmlCtxtGetLastError(UnsafeMutableRawPointer(ctxt))
            let message = last?.pointee.message.map { String(cString: $0) }?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "empty or not XML"
            let at = last.map { Int($0.pointee.line) } ?? 1
            let hint = at >= line(bytes.count, in: bytes) ? " (the file ends early: cut short?)" : ""
            return .failure(Failure(line: at, message: "not well-formed XML: \(message)\(hint)"))
        }
        return .success(doc)
    }

    static func find(_ needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        for i in 0...(bytes.count - needle.count) where bytes[i] == needle[0] && bytes[i..<(i + needle.count)].elementsEqual(needle) { return i }
        return nil
    }

    /// The 1-based line of a byte offset.
    public static func line(_ offset: Int, in bytes: [UInt8]) -> Int { 1 + bytes.prefix(offset).reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) } }
}
