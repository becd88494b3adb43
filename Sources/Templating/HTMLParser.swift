import CXML2

/// libxml2's HTML parser, the thin wrapper: network off, errors collected, tree copied to values.
public enum HTMLParser {
    /// Largest template accepted, in bytes.
    public static let maxSize = 2 << 20
    /// Elements nest at most this deep; deeper content is dropped with a warning (styling and
    /// layout recurse once per level, and no notification view needs more).
    public static let maxDepth = 64

    public static func parse(_ html: String, file: String) throws(TemplateError) -> HTMLDocument {
        let bytes = Array(html.utf8)
        guard bytes.count <= maxSize else {
            throw TemplateError(file: file, line: 0, message: "template is \(bytes.count) bytes, over the \(maxSize)-byte limit")
        }
        let options = Int32(HTML_PARSE_NONET.rawValue | HTML_PARSE_NOERROR.rawValue | HTML_PARSE_NOWARNING.rawValue
                            | HTML_PARSE_NOIMPLIED.rawValue | HTML_PARSE_COMPACT.rawValue)
        guard let ctxt = htmlNewParserCtxt() else { throw TemplateError(file: file, line: 0, message: "out of memory") }
        defer { htmlFreeParserCtxt(ctxt) }
        // Wrapping in <body> keeps libxml2 from moving leading <style> elements into a <head>.
        let wrapped = "<!DOCTYPE html><html><body>" + html + "</body></html>"
        let doc = wrapped.withCString { htmlCtxtReadMemory(ctxt, $0, Int32(wrapped.utf8.count), file, "UTF-8", options) }
        guard let doc else { throw TemplateError(file: file, line: 0, message: "not parseable as HTML") }
        defer { xmlFreeDoc(doc) }

        var warnings: [TemplateWarning] = []
        if let last = xmlCtxtGetLastError(UnsafeMutableRawPointer(ctxt)), last.pointee.level.rawValue >= XML_ERR_ERROR.rawValue {
            let message = last.pointee.message.map { String(cString: $0) }?.trimmed ?? "HTML error"
            // libxml2's parser knows HTML 4: HTML5 and SVG elements are "invalid" to it but fine here.
            if !(message.hasPrefix("Tag ") && message.hasSuffix(" invalid")) {
                warnings.append(TemplateWarning(file: file, line: Int(last.pointee.line), message: "HTML: \(message)"))
            }
        }
        var sheets: [(String, Int)] = []
        var body = Element(tag: "body")
        var node = xmlDocGetRootElement(doc)?.pointee.children
        while let n = node {
            if n.pointee.type == XML_ELEMENT_NODE, name(n) == "body" { body = convert(n, file: file, sheets: &sheets, warnings: &warnings) }
            node = n.pointee.next
        }
        return HTMLDocument(file: file, body: body, styleSheets: sheets, warnings: warnings)
    }

    private static func name(_ n: UnsafeMutablePointer<xmlNode>) -> String {
        n.pointee.name.map { String(cString: $0) }?.lowercased() ?? ""
    }

    /// Iterative copy: a hostile template nests thousands of elements deep.
    private static func convert(_ root: UnsafeMutablePointer<xmlNode>, file: String, sheets: inout [(String, Int)],
                                warnings: inout [TemplateWarning]) -> Element {
        func shallow(_ n: UnsafeMutablePointer<xmlNode>) -> Element {
            var attributes: [Element.Attribute] = []
            var a = n.pointee.properties
            while let attr = a {
                let key = attr.pointee.name.map { String(cString: $0) }?.lowercased() ?? ""
                var value = ""
                if let v = xmlNodeListGetString(n.pointee.doc, attr.pointee.children, 1) {
                    value = String(cString: v)
                    cxml_free(v)
                }
                attributes.append(.init(key, value))
                a = attr.pointee.next
            }
            return Element(tag: name(n), attributes: attributes, line: Int(xmlGetLineNo(n)), file: file)
        }
        // Depth-first with an explicit stack of (element, next child to visit).
        var stack: [(Element, UnsafeMutablePointer<xmlNode>?)] = [(shallow(root), root.pointee.children)]
        while true {
            guard let child = stack[stack.count - 1].1 else {
                let done = stack.removeLast().0
                if stack.isEmpty { return done }
                stack[stack.count - 1].0.children.append(.element(done))
                continue
            }
            stack[stack.count - 1].1 = child.pointee.next
            switch child.pointee.type {
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                if let content = child.pointee.content { stack[stack.count - 1].0.children.append(.text(String(cString: content))) }
            case XML_ELEMENT_NODE:
                if name(child) == "style" {
                    let text = child.pointee.children.flatMap { $0.pointee.content }.map { String(cString: $0) } ?? ""
                    sheets.append((text, Int(xmlGetLineNo(child))))
                } else if stack.count < maxDepth {
                    stack.append((shallow(child), child.pointee.children))
                } else if !warnings.contains(where: { $0.message.hasPrefix("elements nest deeper") }) {
                    warnings.append(TemplateWarning(file: file, line: Int(xmlGetLineNo(child)),
                                                    message: "elements nest deeper than \(maxDepth) levels here; what is inside is not drawn"))
                }
            default: break
            }
        }
    }
}

public struct TemplateError: Error, CustomStringConvertible, Equatable {
    public var file: String
    public var line: Int
    public var message: String
    public init(file: String, line: Int, message: String) { self.file = file; self.line = line; self.message = message }
    public var description: String { line > 0 ? "\(file):\(line): \(message)" : "\(file): \(message)" }
}
