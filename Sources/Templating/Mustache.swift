import Checked
import Foundation
/// Mustache (https://mustache.github.io/mustache.5.html): interpolation, sections, inverted
/// sections, comments, partials with standalone indentation, and set delimiters.
public struct MustacheTemplate: Sendable {
    public let name: String
    let nodes: [Node]
    /// Names the template tests with a section or inverted section: it expects them to be absent
    /// at times, so their absence is not reported.
    let sectionNames: Set<String>

    indirect enum Node: Sendable {
        case text(String)
        case variable(String, escaped: Bool)
        case section(String, inverted: Bool, [Node])
        case partial(String, indent: String)
    }

    /// Parses `source`; `name` (a file name) is used in error messages.
    public init(_ source: String, name: String = "template") throws(MustacheError) {
        self.name = name
        var parser = MustacheParser(source: Array(source.unicodeScalars), name: name)
        nodes = try parser.parse()
        var names: Set<String> = [], pending = nodes[...]
        var stack: [ArraySlice<Node>] = []
        while true {
            guard let node = pending.popFirst() else { guard let next = stack.popLast() else { break }; pending = next; continue }
            if case .section(let n, _, let children) = node { names.insert(n); stack.append(pending); pending = children[...] }
        }
        sectionNames = names
    }

    /// Renders with `data`; `partials` finds a partial's source by name (nil = empty).
    /// `missing` is told each `{{name}}` the data has no key for (drawn empty). `cache` keeps
    /// partials parsed across renders (the system chrome's, drawn for every mock-up).
    /// `html: false` for a template that makes plain text (a title, a setting): nothing is
    /// escaped. `localize` gives the app's string for a key, for the `prefix:` and `suffix:` filters.
    public func render(_ data: TemplateValue, partials: @escaping (String) -> String? = { _ in nil },
                       missing: ((String) -> Void)? = nil, cache: MustachePartialCache? = nil,
                       html: Bool = true, localize: @escaping (String) -> String? = { _ in nil }) throws(MustacheError) -> String {
        var out = ""
        var renderer = MustacheRenderer(partials: partials, templateName: name, cache: cache)
        renderer.html = html
        renderer.localize = localize
        let guarded = sectionNames
        renderer.missing = missing.map { report in { name in if !guarded.contains(name) { report(name) } } }
        try renderer.render(nodes, stack: [data], into: &out, depth: 0)
        return out
    }
}

public struct MustacheError: Error, CustomStringConvertible, Equatable {
    public let file: String
    public let line: Int
    public let column: Int
    public let message: String
    public var description: String { "\(file):\(line):\(column): \(message)" }
    public init(file: String, line: Int, column: Int, message: String) {
        self.file = file; self.line = line; self.column = column; self.message = message
    }
}

struct MustacheParser {
    let source: [Unicode.Scalar]
    let name: String
    var position = 0
    var open: [Unicode.Scalar] = ["{", "{"]
    var close: [Unicode.Scalar] = ["}", "}"]

    init(source: [Unicode.Scalar], name: String) { self.source = source; self.name = name }

    mutating func parse() throws(MustacheError) -> [MustacheTemplate.Node] {
        // Each open section keeps its name, where it started and the nodes gathered so far.
        var stack: [(name: String, inverted: Bool, at: Int, nodes: [MustacheTemplate.Node])] = [("", false, 0, [])]
        var text = ""
        func flush() { if !text.isEmpty { stack[stack.count - 1].nodes.append(.text(text)); text = "" } }

        while position < source.count {
            guard matches(open, at: position) else { text.unicodeScalars.append(source[position]); position += 1; continue }
            let tagStart = position
            var p = position + open.count
            var kind: Unicode.Scalar = " "
            if p < source.count, "#^/!>&{=".unicodeScalars.contains(source[p]) { kind = source[p]; p += 1 }
            let closing: [Unicode.Scalar] = kind == "{" ? ["}"] + close : kind == "=" ? ["="] + close : close
            guard let end = find(closing, from: p) else { throw error("unclosed tag", at: tagStart) }
            let content = String(String.UnicodeScalarView(source[p..<end])).trimmed
            let tagEnd = end + closing.count

            // A standalone tag (alone on its line but for whitespace) takes its whole line with it.
            var indent = ""
            var next = tagEnd
            if "#^/!>=".unicodeScalars.contains(kind), let line = standaloneLine(tagStart: tagStart, tagEnd: tagEnd) {
                indent = String(String.UnicodeScalarView(source[line.start..<tagStart]))
                text.unicodeScalars.removeLast(tagStart - line.start)
                next = line.end
            }
            flush()
            position = next
            switch kind {
            case "!": break
            case "=":
                let parts = content.split(whereSeparator: { $0 == " " || $0 == "\t" })
                guard parts.count == 2 else { throw error("set-delimiter tag needs two delimiters, like {{=<% %>=}}", at: tagStart) }
                open = Array(parts[0].unicodeScalars); close = Array(parts[1].unicodeScalars)
            case "#", "^":
                guard stack.count <= MustacheRenderer.maxDepth else {
                    throw error("sections nest deeper than \(MustacheRenderer.maxDepth) levels", at: tagStart)
                }
                stack.append((content, kind == "^", tagStart, []))
            case "/":
                guard stack.count > 1, let section = stack.popLast(), section.name == content else {
                    throw error(stack.count > 1 ? "{{/\(content)}} closes {{#\(stack.last!.name)}}" : "{{/\(content)}} closes no section", at: tagStart)
                }
                stack[stack.count - 1].nodes.append(.section(section.name, inverted: section.inverted, section.nodes))
            case ">": stack[stack.count - 1].nodes.append(.partial(content, indent: indent))
            case "&", "{": stack[stack.count - 1].nodes.append(.variable(content, escaped: false))
            default: stack[stack.count - 1].nodes.append(.variable(content, escaped: true))
            }
        }
        flush()
        if stack.count > 1 { throw error("{{#\(stack.last!.name)}} is never closed", at: stack.last!.at) }
        return stack[0].nodes
    }

    /// The line's bounds when only whitespace surrounds the tag on it (end is past the newline).
    func standaloneLine(tagStart: Int, tagEnd: Int) -> (start: Int, end: Int)? {
        var start = tagStart
        while start > 0, source[start - 1] == " " || source[start - 1] == "\t" { start -= 1 }
        guard start == 0 || source[start - 1] == "\n" else { return nil }
        var end = tagEnd
        while end < source.count, source[end] == " " || source[end] == "\t" { end += 1 }
        if end == source.count { return (start, end) }
        if source[end] == "\n" { return (start, end + 1) }
        if source[end] == "\r", end + 1 < source.count, source[end + 1] == "\n" { return (start, end + 2) }
        return nil
    }

    func matches(_ pattern: [Unicode.Scalar], at i: Int) -> Bool {
        i + pattern.count <= source.count && source[i..<(i + pattern.count)].elementsEqual(pattern)
    }

    func find(_ pattern: [Unicode.Scalar], from i: Int) -> Int? {
        var j = i
        while j + pattern.count <= source.count { if matches(pattern, at: j) { return j }; j += 1 }
        return nil
    }

    func error(_ message: String, at offset: Int) -> MustacheError {
        var line = 1, column = 1
        for s in source[0..<min(offset, source.count)] { if s == "\n" { line += 1; column = 1 } else { column += 1 } }
        return MustacheError(file: name, line: line, column: column, message: message)
    }
}

/// Partials parsed once for many renders, by name, indentation and text: the 256 used last.
public final class MustachePartialCache: @unchecked Sendable {
    private let lock = NSLock()
    private var parsed = BoundedCache<String, [MustacheTemplate.Node]>(budget: 256)
    public init() {}

    func nodes(_ key: String, parse: () throws(MustacheError) -> [MustacheTemplate.Node]) throws(MustacheError) -> [MustacheTemplate.Node] {
        if let known = lock.withLock({ parsed.value(key) }) { return known }
        let nodes = try parse()
        lock.withLock { parsed.insert(nodes, for: key, cost: 1) }
        return nodes
    }
}

struct MustacheRenderer {
    let partials: (String) -> String?
    let templateName: String
    var cache: MustachePartialCache?
    /// Whether `{{name}}` is HTML-escaped (a page), or not (plain text).
    var html = true
    var localize: (String) -> String? = { _ in nil }
    /// Sections and partials nest at most this deep.
    static let maxDepth = 64
    /// What one render may do: tags visited and characters written. A template whose loops
    /// multiply (a section in a section in a section…) stops here with an error.
    static let maxSteps = 100_000, maxOutput = 1 << 20
    var steps = 0
    var missing: ((String) -> Void)?
    /// Partials parsed once per render, by name and indentation.
    var parsedPartials: [String: [MustacheTemplate.Node]] = [:]

    /// `report`: tell `missing` when a key on the way is absent (not there at all, not null).
    func lookup(_ name: String, _ stack: [TemplateValue], report: Bool = false) -> TemplateValue {
        if name == "." { return stack.last ?? .null }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard var value = stack.reversed().lazy.compactMap({ $0[parts[0]] }).first else {
            if report { missing?(name) }
            return .null
        }
        for part in parts.dropFirst() {
            guard let next = value[part] else { if report { missing?(name) }; return .null }
            value = next
        }
        return value
    }

    mutating func render(_ nodes: [MustacheTemplate.Node], stack: [TemplateValue], into out: inout String, depth: Int) throws(MustacheError) {
        for node in nodes {
            steps += 1
            guard steps <= Self.maxSteps, out.utf8.count <= Self.maxOutput else {
                throw MustacheError(file: templateName, line: 0, column: 0,
                                    message: "the template expands past \(Self.maxSteps) tags or \(Self.maxOutput >> 20) MB of output (sections inside sections over long lists?); not drawn")
            }
            switch node {
            case .text(let text): out += text
            case .variable(let name, let escaped):
                let text = lookup(name, stack, report: true).text
                out += escaped && html ? escapeHTML(text) : text
            case .section(let name, let inverted, let children):
                let value = lookup(name, stack)
                guard depth < Self.maxDepth else {
                    throw MustacheError(file: templateName, line: 0, column: 0, message: "sections and partials nest deeper than \(Self.maxDepth) levels")
                }
                if !inverted, case .null = value, let filter = TextFilter(name) {
                    // A text transform: its content rendered as text, transformed, escaped again for a page.
                    var inner = "", text = self
                    text.html = false
                    try text.render(children, stack: stack, into: &inner, depth: depth + 1)
                    steps = text.steps
                    let made = filter.apply(inner, localize: localize)
                    out += html ? escapeHTML(made) : made
                } else if inverted {
                    if value.isFalsey { try render(children, stack: stack, into: &out, depth: depth + 1) }
                } else if case .list(let items) = value {
                    for item in items { try render(children, stack: stack + [item], into: &out, depth: depth + 1) }
                } else if !value.isFalsey {
                    try render(children, stack: stack + [value], into: &out, depth: depth + 1)
                }
            case .partial(let name, let indent):
                guard let source = partials(name) else { continue }
                guard depth < Self.maxDepth else {
                    throw MustacheError(file: templateName, line: 0, column: 0, message: "partials nest deeper than \(Self.maxDepth) levels (a partial that includes itself?)")
                }
                let key = name + "\u{0}" + indent + "\u{0}" + contentKey(source)
                if parsedPartials[key] == nil {
                    let parse = { () throws(MustacheError) in try MustacheTemplate(indent.isEmpty ? source : Self.indented(source, by: indent), name: name).nodes }
                    if let cache { parsedPartials[key] = try cache.nodes(key, parse: parse) } else { parsedPartials[key] = try parse() }
                }
                try render(parsedPartials[key]!, stack: stack, into: &out, depth: depth + 1)
            }
        }
    }

    /// A standalone partial's lines all take the tag's indentation.
    static func indented(_ source: String, by indent: String) -> String {
        var out = indent
        let scalars = Array(source.unicodeScalars)
        for (i, s) in scalars.enumerated() {
            out.unicodeScalars.append(s)
            if s == "\n" && i + 1 < scalars.count { out += indent }
        }
        return out
    }
}

/// Escapes text for HTML element content and quoted attribute values.
public func escapeHTML(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for c in text.unicodeScalars {
        switch c {
        case "&": out += "&amp;"
        case "<": out += "&lt;"
        case ">": out += "&gt;"
        case "\"": out += "&quot;"
        case "'": out += "&#39;"
        default: out.unicodeScalars.append(c)
        }
    }
    return out
}

extension StringProtocol {
    /// Without leading and trailing white space.
    public var trimmed: String {
        var s = Substring(self)
        while let f = s.first, f.isWhitespace { s.removeFirst() }
        while let l = s.last, l.isWhitespace { s.removeLast() }
        return String(s)
    }
}
