import Checked
import CXML2
import Foundation
import Payload

/// One element of an Interface Builder document (a storyboard or a XIB), copied out of libxml2
/// into plain values: its name, attributes, the line it starts on and its child elements.
struct IBElement: Sendable {
    var name: String
    var attributes: [String: String]
    var line: Int
    var children: [IBElement]

    subscript(_ attribute: String) -> String? { attributes[attribute] }

    /// The first child named `name` (with `key="…"` when given).
    func child(_ name: String, key: String? = nil) -> IBElement? {
        children.first { $0.name == name && (key == nil || $0["key"] == key) }
    }

    /// The first child with `key="…"`, whatever its name.
    func child(key: String) -> IBElement? { children.first { $0["key"] == key } }

    func children(_ name: String) -> [IBElement] { children.filter { $0.name == name } }

    /// A number attribute, nil when absent or not a finite decimal.
    func number(_ attribute: String) -> Double? { attributes[attribute].flatMap { Double(decimal: $0) } }

    /// A `YES`/`NO` attribute.
    func flag(_ attribute: String) -> Bool { attributes[attribute] == "YES" }
}

/// Reads Interface Builder XML through libxml2 the safe way Payload's property-list reader does:
/// network off, entities never declared or substituted, and a budget for size and elements, so a
/// hostile file is a clear error naming the file and line, never a hang or a crash.
enum InterfaceBuilderXML {
    /// A content extension's storyboard is a few KB and a whole app's rarely over 2 MB.
    static let maxBytes = 8 << 20
    static let maxElements = 200_000

    static func read(_ file: URL) throws(XcodeProject.ReadError) -> IBElement {
        let path = file.path
        func fail(_ line: Int, _ message: String) -> XcodeProject.ReadError { .init(description: "\(path):\(line): \(message)") }
        // The size first, so that a huge (or endless) file is never read into memory.
        guard let info = try? FileManager.default.attributesOfItem(atPath: path) else { throw fail(0, "no such file") }
        guard info[.type] as? FileAttributeType == .typeRegular else { throw fail(0, "not a regular file") }
        let size = (info[.size] as? NSNumber)?.intValue ?? 0
        guard size <= maxBytes else {
            throw fail(0, "\(megabytes(size)) is more than the \(megabytes(maxBytes)) an Interface Builder file is read up to; not converted (a content extension's storyboard is a few KB)")
        }
        guard let data = FileManager.default.contents(atPath: path) else { throw fail(0, "could not be read") }
        let bytes = [UInt8](data)
        let doc: UnsafeMutablePointer<xmlDoc>
        switch UntrustedXML.parse(bytes, file: path) {
        case .success(let d): doc = d
        case .failure(let f): throw fail(f.line, f.message + (f.message.hasPrefix("entity") ? " in an Interface Builder file" : "") + "; not converted")
        }
        defer { xmlFreeDoc(doc) }
        guard let root = xmlDocGetRootElement(doc) else { throw fail(1, "no root element") }
        var count = 0
        guard let tree = copy(root, count: &count) else {
            throw fail(1, "more than \(maxElements) elements; not converted (a content extension's storyboard has a few dozen)")
        }
        return tree
    }

    /// The element and what is inside it; nil past the element budget.
    static func copy(_ node: UnsafeMutablePointer<xmlNode>, count: inout Int) -> IBElement? {
        count += 1
        guard count <= maxElements else { return nil }
        var attributes: [String: String] = [:]
        var attribute = node.pointee.properties
        while let a = attribute {
            if let name = a.pointee.name, let value = xmlGetProp(node, name) {
                attributes[String(cString: name)] = String(cString: value)
                cxml_free(value)
            }
            attribute = a.pointee.next
        }
        var element = IBElement(name: node.pointee.name.map { String(cString: $0) } ?? "", attributes: attributes,
                                line: Int(xmlGetLineNo(node)), children: [])
        // A `<string key="text">` holds its text as content; keep it as an attribute.
        if element.name == "string", let text = xmlNodeGetContent(node) {
            element.attributes["content"] = String(cString: text)
            cxml_free(text)
        }
        var child = node.pointee.children
        while let c = child {
            if c.pointee.type == XML_ELEMENT_NODE {
                guard let copied = copy(c, count: &count) else { return nil }
                element.children.append(copied)
            }
            child = c.pointee.next
        }
        return element
    }

    static func megabytes(_ bytes: Int) -> String {
        let tenths = Int(saturating: Double(bytes) / Double(1 << 20) * 10, rounded: .toNearestOrAwayFromZero)
        return tenths % 10 == 0 || tenths >= 100 ? "\((tenths + 5) / 10) MB" : "\(tenths / 10).\(tenths % 10) MB"
    }
}
