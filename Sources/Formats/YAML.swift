import CYAML
import Checked
import ConfinedFiles
import Foundation

/// A YAML value as read, with the file, line and column it begins at: the YAML 1.1 an XcodeGen
/// spec is written in — mappings with scalar keys, sequences, and scalars kept as their text —
/// with anchors and aliases resolved and `<<` merge keys applied.
public struct YAMLNode: Sendable {
    public enum Value: Sendable {
        /// The text, and whether it was written plain (unquoted, untagged): only a plain `NO`
        /// is a boolean, only a plain `~` is null.
        case scalar(String, plain: Bool)
        case sequence([YAMLNode])
        case mapping([(key: String, value: YAMLNode)])
    }

    public var value: Value
    public var file: String
    public var line: Int
    public var column: Int

    public init(value: Value, file: String, line: Int, column: Int) {
        self.value = value; self.file = file; self.line = line; self.column = column
    }

    /// `file:line`, for messages.
    public var location: String { "\(file):\(line)" }

    public var isNull: Bool {
        guard case .scalar(let text, true) = value else { return false }
        switch text {
        case "", "~", "null", "Null", "NULL": return true
        default: return false
        }
    }
    /// A scalar's text (nil for null, a list or a mapping).
    public var string: String? {
        if case .scalar(let text, _) = value, !isNull { return text }
        return nil
    }
    /// A plain scalar YAML 1.1 reads as a boolean (`true`, `yes`, `on`, `NO`, …).
    public var bool: Bool? {
        guard case .scalar(let text, true) = value else { return nil }
        switch text {
        case "true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON": return true
        case "false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF": return false
        default: return nil
        }
    }
    public var sequence: [YAMLNode]? { if case .sequence(let items) = value { return items }; return nil }
    public var mapping: [(key: String, value: YAMLNode)]? { if case .mapping(let pairs) = value { return pairs }; return nil }
    public subscript(key: String) -> YAMLNode? { mapping?.first { $0.key == key }?.value }

    /// What the value is, for a message that says what was expected instead.
    public var kind: String {
        switch value {
        case .scalar: isNull ? "nothing" : "the scalar \"\(string!.prefix(40))\""
        case .sequence: "a list"
        case .mapping: "a mapping"
        }
    }
}

public struct YAMLError: Error, CustomStringConvertible, Equatable {
    public var file: String
    public var line: Int
    public var column: Int
    public var message: String
    public var description: String { "\(file):\(line):\(column): \(message)" }
}

/// Reads YAML with libyaml's event parser into `YAMLNode`s. A hostile file is an error naming
/// the file, line and column, never a crash or a hang: nesting is limited, a file's size is
/// limited, and aliases may not expand to more values than `maxValues` (a "billion laughs").
public enum YAMLReader {
    public static let maxDepth = 64
    public static let maxBytes = 4 << 20
    public static let maxValues = 500_000

    /// The file's one document; nil when it has none (an empty file, or only comments).
    public static func read(_ file: URL, in repository: Repository) throws(YAMLError) -> YAMLNode? {
        let data: [UInt8]
        do { data = try repository.read(file, limit: maxBytes) } catch {
            if case .tooLarge(let size, _) = error.reason {
                throw YAMLError(file: file.path, line: 1, column: 1, message: "\(size) bytes, more than the \(maxBytes >> 20) MB a spec may have")
            }
            throw YAMLError(file: file.path, line: 1, column: 1, message: error.isMissing ? "cannot be read (no such file?)" : "cannot be read: \(error.why)")
        }
        return try parse(data, file: file.path)
    }

    public static func parse(_ bytes: [UInt8], file: String) throws(YAMLError) -> YAMLNode? {
        guard bytes.count <= maxBytes else {
            throw YAMLError(file: file, line: 1, column: 1, message: "\(bytes.count) bytes, more than the \(maxBytes >> 20) MB a spec may have")
        }
        guard !bytes.isEmpty else { return nil }
        // On the heap, so that libyaml's parser stays at one address from start to end.
        let parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
        defer { parser.deallocate() }
        guard yaml_parser_initialize(parser) == 1 else { throw YAMLError(file: file, line: 1, column: 1, message: "libyaml could not start (out of memory)") }
        defer { yaml_parser_delete(parser) }
        var builder = YAMLBuilder(file: file)
        let outcome: Result<YAMLNode?, YAMLError> = bytes.withUnsafeBufferPointer { buffer in
            yaml_parser_set_input_string(parser, buffer.baseAddress, buffer.count)
            while true {
                var event = yaml_event_t()
                guard yaml_parser_parse(parser, &event) == 1 else { return .failure(parserError(parser.pointee, bytes: bytes, file: file)) }
                defer { yaml_event_delete(&event) }
                do throws(YAMLError) {
                    if try builder.take(event) { return .success(builder.root) }
                } catch { return .failure(error) }
            }
        }
        return try outcome.get()
    }

    /// libyaml's own words, at its mark (a reader error, such as bad UTF-8, has only an offset).
    static func parserError(_ parser: yaml_parser_t, bytes: [UInt8], file: String) -> YAMLError {
        let problem = parser.problem.map { String(cString: $0) } ?? "not YAML"
        let context = parser.context.map { String(cString: $0) + ", " } ?? ""
        if parser.error == YAML_READER_ERROR {
            let offset = min(parser.problem_offset, bytes.count)
            let line = bytes[..<offset].filter { $0 == 10 }.count + 1
            let column = offset - (bytes[..<offset].lastIndex(of: 10).map { $0 + 1 } ?? 0) + 1
            return YAMLError(file: file, line: line, column: column, message: problem)
        }
        let mark = parser.problem_mark
        return YAMLError(file: file, line: Int(mark.line) + 1, column: Int(mark.column) + 1, message: context + problem)
    }
}

/// Builds nodes from libyaml's events: a stack of the collections still open.
struct YAMLBuilder {
    let file: String
    var root: YAMLNode?
    var documents = 0
    /// Collections open (depth) and values made so far, each alias counting every value it
    /// stands for (size).
    var budget = InputBudget(maxDepth: YAMLReader.maxDepth, maxSize: YAMLReader.maxValues,
                             unit: "values once aliases are expanded (aliases of aliases, a \"billion laughs\"?)")
    var anchors: [String: (node: YAMLNode, size: Int)] = [:]
    var open: [OpenCollection] = []

    struct OpenCollection {
        var node: YAMLNode
        var anchor: String?
        var size = 1
        var items: [YAMLNode] = []
        var pairs: [(key: String, value: YAMLNode)] = []
        var lines: [String: Int] = [:]
        var key: YAMLNode?
        /// What `<<` merge keys bring, under the mapping's own keys.
        var merged: [(key: String, value: YAMLNode)] = []
        var mergedKeys: Set<String> = []
        var isMapping: Bool { if case .mapping = node.value { return true }; return false }
    }

    init(file: String) { self.file = file }

    func error(_ mark: yaml_mark_t, _ message: String) -> YAMLError {
        YAMLError(file: file, line: Int(mark.line) + 1, column: Int(mark.column) + 1, message: message)
    }

    static func text(_ bytes: UnsafeMutablePointer<yaml_char_t>?, _ count: Int) -> String {
        guard let bytes else { return "" }
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    static func text(_ bytes: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        bytes.map { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) }
    }

    /// Takes one event; true at the stream's end.
    mutating func take(_ event: yaml_event_t) throws(YAMLError) -> Bool {
        let mark = event.start_mark
        let file = self.file
        let node = { (value: YAMLNode.Value) in YAMLNode(value: value, file: file, line: Int(mark.line) + 1, column: Int(mark.column) + 1) }
        switch event.type {
        case YAML_STREAM_END_EVENT:
            return true
        case YAML_DOCUMENT_START_EVENT:
            documents += 1
            if documents > 1 { throw error(mark, "a second document begins here; a spec is one document") }
        case YAML_SCALAR_EVENT:
            let s = event.data.scalar
            let plain = s.style == YAML_PLAIN_SCALAR_STYLE && s.plain_implicit != 0
            try add(node(.scalar(Self.text(s.value, s.length), plain: plain)), size: 1, anchor: Self.text(s.anchor), mark: mark)
        case YAML_ALIAS_EVENT:
            let name = Self.text(event.data.alias.anchor) ?? ""
            guard var target = anchors[name] else { throw error(mark, "the alias *\(name) names no anchor (&\(name)) before it") }
            target.node.line = Int(mark.line) + 1
            target.node.column = Int(mark.column) + 1
            try add(target.node, size: target.size, anchor: nil, mark: mark)
        case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
            do { try budget.enter() } catch { throw self.error(mark, error.description) }
            let isMapping = event.type == YAML_MAPPING_START_EVENT
            let anchor = isMapping ? Self.text(event.data.mapping_start.anchor) : Self.text(event.data.sequence_start.anchor)
            open.append(OpenCollection(node: node(isMapping ? .mapping([]) : .sequence([])), anchor: anchor))
            try count(1, mark)
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
            var done = open.removeLast()
            budget.leave()
            if done.isMapping {
                done.node.value = .mapping(done.pairs + done.merged.filter { done.lines[$0.key] == nil })
            } else {
                done.node.value = .sequence(done.items)
            }
            try add(done.node, size: done.size, anchor: done.anchor, mark: mark, counted: true)
        default:
            break
        }
        return false
    }

    mutating func count(_ n: Int, _ mark: yaml_mark_t) throws(YAMLError) {
        do { try budget.count(n) } catch { throw self.error(mark, error.description) }
    }

    /// A finished value into the collection open around it (or as the document's root).
    mutating func add(_ value: YAMLNode, size: Int, anchor: String?, mark: yaml_mark_t, counted: Bool = false) throws(YAMLError) {
        if !counted { try count(size, mark) }
        if let anchor { anchors[anchor] = (value, size) }
        guard !open.isEmpty else { root = value; return }
        open[open.count - 1].size += size
        guard open[open.count - 1].isMapping else { open[open.count - 1].items.append(value); return }
        guard let key = open[open.count - 1].key else {
            guard case .scalar = value.value else {
                throw YAMLError(file: file, line: value.line, column: value.column, message: "a mapping's key is \(value.kind); only a scalar can be a key")
            }
            open[open.count - 1].key = value
            return
        }
        open[open.count - 1].key = nil
        let name = key.string ?? ""
        if case .scalar("<<", true) = key.value {
            // YAML 1.1's merge key: the mapping (or each of a list of mappings) under this one's own keys.
            let sources = value.sequence ?? [value]
            for source in sources {
                guard let pairs = source.mapping else { throw error(mark, "<< merges mappings, not \(source.kind)") }
                for pair in pairs where open[open.count - 1].mergedKeys.insert(pair.key).inserted { open[open.count - 1].merged.append(pair) }
            }
            return
        }
        if let first = open[open.count - 1].lines[name] {
            throw error(mark, "the key \"\(name)\" appears twice in one mapping (lines \(first) and \(key.line))")
        }
        open[open.count - 1].lines[name] = key.line
        open[open.count - 1].pairs.append((name, value))
    }
}
