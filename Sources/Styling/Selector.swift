import Templating

/// A complex selector: compound selectors joined by descendant (space) or child (>) combinators.
/// Supported: `*`, type, `.class`, `#id`, and compounds of them (Selectors Level 3, §6).
public struct Selector: Sendable, Equatable {
    public struct Compound: Sendable, Equatable {
        public var tag: String?
        public var id: String?
        public var classes: [String] = []
        public init(tag: String? = nil, id: String? = nil, classes: [String] = []) { self.tag = tag; self.id = id; self.classes = classes }
        func matches(_ e: Subject) -> Bool {
            if let tag, tag != e.tag { return false }
            if let id, id != e.id { return false }
            return classes.allSatisfy(e.classes.contains)
        }
    }

    /// What selectors look at in an element, read from its attributes once: every rule of every
    /// sheet is matched against it and against its ancestors.
    public struct Subject: Sendable {
        public var tag: String
        public var id: String?
        public var classes: [String]
        public init(_ e: Element) { tag = e.tag; id = e.id; classes = e.classes }
    }
    public enum Combinator: Sendable, Equatable { case descendant, child }

    /// Rightmost last; `combinators[i]` joins `parts[i]` and `parts[i + 1]`.
    public var parts: [Compound]
    public var combinators: [Combinator]

    /// (ids, classes, types) as one comparable number (§16).
    public var specificity: Int {
        parts.reduce(0) { $0 + ($1.id == nil ? 0 : 10_000) + $1.classes.count * 100 + ($1.tag == nil ? 0 : 1) }
    }

    /// Does the selector match `element`, whose ancestors are `ancestors` (root first)?
    public func matches(_ element: Subject, ancestors: ArraySlice<Subject>) -> Bool {
        guard parts.last!.matches(element) else { return false }
        return matchRest(parts.count - 2, ancestors: ancestors)
    }

    private func matchRest(_ index: Int, ancestors: ArraySlice<Subject>) -> Bool {
        if index < 0 { return true }
        switch combinators[index] {
        case .child:
            guard let parent = ancestors.last, parts[index].matches(parent) else { return false }
            return matchRest(index - 1, ancestors: ancestors.dropLast())
        case .descendant:
            var rest = ancestors
            while let candidate = rest.popLast() {
                if parts[index].matches(candidate), matchRest(index - 1, ancestors: rest) { return true }
            }
            return false
        }
    }

    /// `a, b > c` — nil when any part uses syntax the engine does not support.
    public static func parseList(_ text: String) -> [Selector]? {
        var out: [Selector] = []
        for item in text.split(separator: ",") {
            guard let s = parse(String(item)) else { return nil }
            out.append(s)
        }
        return out.isEmpty ? nil : out
    }

    static func parse(_ text: String) -> Selector? {
        let spaced = text.replacing(">", with: " > ")
        var parts: [Compound] = [], combinators: [Combinator] = []
        var pendingChild = false
        for token in spaced.split(whereSeparator: \.isWhitespace) {
            if token == ">" { guard !parts.isEmpty, !pendingChild else { return nil }; pendingChild = true; continue }
            guard let compound = parseCompound(String(token)) else { return nil }
            if !parts.isEmpty { combinators.append(pendingChild ? .child : .descendant) }
            pendingChild = false
            parts.append(compound)
        }
        return parts.isEmpty || pendingChild ? nil : Selector(parts: parts, combinators: combinators)
    }

    static func parseCompound(_ token: String) -> Compound? {
        var c = Compound()
        var chars = Substring(token)
        func name() -> String {
            let n = chars.prefix { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
            chars = chars.dropFirst(n.count)
            return String(n)
        }
        if chars.first == "*" { chars = chars.dropFirst() }
        else if let f = chars.first, f.isLetter { c.tag = name().lowercased() }
        while let f = chars.first {
            chars = chars.dropFirst()
            let n = name()
            guard !n.isEmpty else { return nil }
            switch f {
            case ".": c.classes.append(n)
            case "#": c.id = n
            default: return nil
            }
        }
        return c
    }
}
