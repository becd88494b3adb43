import Diagnostics

/// A template's HTML after parsing: plain values, no libxml2 pointers.
public struct Element: Sendable, Equatable {
    public var tag: String
    public var attributes: [Attribute]
    public var children: [HTMLNode]
    /// 1-based line in the template the element came from (0 = generated).
    public var line: Int
    /// The template file the element came from, where a page is put together from several.
    public var file: String?

    public struct Attribute: Sendable, Equatable {
        public var name: String
        public var value: String
        public init(_ name: String, _ value: String) { self.name = name; self.value = value }
    }

    public init(tag: String, attributes: [Attribute] = [], children: [HTMLNode] = [], line: Int = 0, file: String? = nil) {
        self.tag = tag; self.attributes = attributes; self.children = children; self.line = line; self.file = file
    }

    public subscript(attribute name: String) -> String? { attributes.first { $0.name == name }?.value }
    public var id: String? { self[attribute: "id"] }
    /// The class names: split on ASCII whitespace, as HTML does (a no-break space is part of a name).
    public var classes: [String] {
        guard let value = self[attribute: "class"] else { return [] }
        return value.utf8.split(whereSeparator: { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0C || $0 == 0x0D }).map { String(decoding: $0, as: UTF8.self) }
    }
}

extension Element {
    /// This tree with the children of the element whose id is `id` replaced; false when absent.
    public mutating func replaceChildren(ofId id: String, with children: [HTMLNode]) -> Bool {
        if self.id == id { self.children = children; return true }
        for i in self.children.indices {
            if case .element(var e) = self.children[i], e.replaceChildren(ofId: id, with: children) {
                self.children[i] = .element(e)
                return true
            }
        }
        return false
    }
}

public enum HTMLNode: Sendable, Equatable {
    case element(Element)
    case text(String)
}

/// A diagnostic about a template: which file, which line, what to do.
public struct TemplateWarning: Sendable, Equatable, Codable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var message: String
    /// Its kind; a template's own (`template`) unless said.
    public var code: Diagnostic.Code
    public init(file: String, line: Int, message: String, code: Diagnostic.Code = .template) {
        self.file = file; self.line = line; self.message = message; self.code = code
    }
    public var description: String { "\(file):\(line): \(message)" }
}

public struct HTMLDocument: Sendable {
    /// The template's file name, for messages.
    public var file: String
    /// The `<body>` (libxml2 adds html/body around a fragment).
    public var body: Element
    /// The text of every `<style>` element, in order, with the line it starts on.
    public var styleSheets: [(text: String, line: Int)]
    public var warnings: [TemplateWarning]

    public init(file: String, body: Element, styleSheets: [(text: String, line: Int)] = [], warnings: [TemplateWarning] = []) {
        self.file = file; self.body = body; self.styleSheets = styleSheets; self.warnings = warnings
    }
}
