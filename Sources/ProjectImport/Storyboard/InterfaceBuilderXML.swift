import CXML2
import Checked
import ConfinedFiles
import Foundation
import Payload
import Formats

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

    /// A number attribute, nil when absent or not a finite decimal, clamped to a length layout
    /// keeps (±`Double.maxLength`): the checked conversion every number the converter writes goes
    /// through. `InterfaceBuilderXML.read` has said which ones were out of range.
    func number(_ attribute: String) -> Double? { attributes[attribute].flatMap { Double(decimal: $0) }?.clampedLength }

    /// The attributes the converter reads as numbers: lengths, priorities, colour components.
    static let numberAttributes: Set<String> = [
        "constant", "priority", "x", "y", "width", "height", "top", "leading", "bottom", "trailing", "left", "right", "spacing",
        "pointSize", "alpha", "red", "green", "blue", "white", "verticalHuggingPriority", "horizontalHuggingPriority",
    ]

    /// Why the number attribute `name` is not one the converter can use, nil when it is.
    func numberProblem(_ name: String) -> String? {
        guard let text = attributes[name], Self.numberAttributes.contains(name) || (name == "value" && isNumberValue) else { return nil }
        let shown = "\(self.name) \(name)=\"\(text.prefix(40))\""
        guard let value = Double(decimal: text) else {
            let why = Double(text).map { $0.isNaN ? "not a number" : "beyond any length" } ?? "not a decimal number"
            return "\(shown) is \(why); read as if it were not there"
        }
        guard abs(value) <= .maxLength else { return "\(shown) is beyond ±\(Int(Double.maxLength)) pt; read as \(value < 0 ? "-" : "")\(Int(Double.maxLength))" }
        return nil
    }

    /// `<real key="value" value="8"/>`, or a number runtime attribute's own `value`.
    var isNumberValue: Bool { ["real", "integer", "number"].contains(name) || (name == "userDefinedRuntimeAttribute" && attributes["type"] == "number") }

    /// A `YES`/`NO` attribute.
    func flag(_ attribute: String) -> Bool { attributes[attribute] == "YES" }
}

/// Reads Interface Builder XML through libxml2 the safe way Payload's property-list reader does:
/// network off, entities never declared or substituted, and a budget for size, nesting and
/// elements, so a hostile file is a clear error naming the file and line, never a hang or a crash.
/// A number the converter cannot use (NaN, 1e400, -1e308) is a problem at its line.
enum InterfaceBuilderXML {
    /// A content extension's storyboard is a few KB and a whole app's rarely over 2 MB.
    static let maxBytes = 8 << 20
    static let maxElements = 200_000
    /// Real storyboards nest a few dozen elements; libxml2 itself stops at 256.
    static let maxDepth = 128

    static func read(_ file: URL, in repository: Repository, problems: inout [ConversionProblem]) throws(XcodeProject.ReadError) -> IBElement {
        let path = file.path
        func fail(_ line: Int, _ message: String) -> XcodeProject.ReadError { .init(description: "\(path):\(line): \(message)") }
        // The size first, so that a huge (or endless) file is never read into memory.
        let bytes: [UInt8]
        do { bytes = try repository.read(file, limit: maxBytes) } catch {
            switch error.reason {
            case .missing: throw fail(0, "no such file")
            case .notAFile: throw fail(0, "not a regular file")
            case .tooLarge(let size, _):
                throw fail(0, "\(megabytes(size)) is more than the \(megabytes(maxBytes)) an Interface Builder file is read up to; not converted (a content extension's storyboard is a few KB)")
            default: throw fail(0, error.why)
            }
        }
        let doc: UnsafeMutablePointer<xmlDoc>
        switch UntrustedXML.parse(bytes, file: path) {
        case .success(let d): doc = d
        case .failure(let f): throw fail(f.line, f.message + (f.message.hasPrefix("entity") ? " in an Interface Builder file" : "") + "; not converted")
        }
        defer { xmlFreeDoc(doc) }
        guard let root = xmlDocGetRootElement(doc) else { throw fail(1, "no root element") }
        var tree = InterfaceBuilderTree()
        do throws(InputBudget.Exceeded) {
            let document = try tree.copy(root)
            problems += tree.problems
            return document
        } catch {
            throw fail(tree.line, "\(error); not converted (a content extension's storyboard has a few dozen elements, nested a dozen deep)")
        }
    }

    static func megabytes(_ bytes: Int) -> String {
        let tenths = Int(saturating: Double(bytes) / Double(1 << 20) * 10, rounded: .toNearestOrAwayFromZero)
        return tenths % 10 == 0 || tenths >= 100 ? "\((tenths + 5) / 10) MB" : "\(tenths / 10).\(tenths % 10) MB"
    }
}

/// Copies libxml2's tree out into `IBElement`s under the budget, the line of the element last
/// met kept for the error.
struct InterfaceBuilderTree {
    var budget = InputBudget(maxDepth: InterfaceBuilderXML.maxDepth, maxSize: InterfaceBuilderXML.maxElements, unit: "elements")
    var line = 1
    var problems: [ConversionProblem] = []

    /// The element and what is inside it.
    mutating func copy(_ node: UnsafeMutablePointer<xmlNode>) throws(InputBudget.Exceeded) -> IBElement {
        let line = Int(xmlGetLineNo(node))
        self.line = line
        try budget.count()
        try budget.enter()
        defer { budget.leave() }
        var attributes: [String: String] = [:]
        var attribute = node.pointee.properties
        while let a = attribute {
            if let name = a.pointee.name, let value = xmlGetProp(node, name) {
                attributes[String(cString: name)] = String(cString: value)
                cxml_free(value)
            }
            attribute = a.pointee.next
        }
        var element = IBElement(name: node.pointee.name.map { String(cString: $0) } ?? "", attributes: attributes, line: line, children: [])
        for name in attributes.keys.sorted() { if let why = element.numberProblem(name) { problems.append(.init(line: line, message: why)) } }
        // A `<string key="text">` holds its text as content; keep it as an attribute.
        if element.name == "string", let text = xmlNodeGetContent(node) {
            element.attributes["content"] = String(cString: text)
            cxml_free(text)
        }
        var child = node.pointee.children
        while let c = child {
            if c.pointee.type == XML_ELEMENT_NODE { element.children.append(try copy(c)) }
            child = c.pointee.next
        }
        return element
    }
}
