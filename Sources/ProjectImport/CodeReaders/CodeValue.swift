/// Where something is in an app's source: its file (relative to the import's root) and a 1-based
/// line and column (columns count UTF-8 bytes, as swiftc's and clang's diagnostics do).
struct CodeSite: Sendable, Hashable, CustomStringConvertible {
    var file: String
    var line: Int
    var column: Int
    var description: String { "\(file):\(line):\(column)" }
}

/// An expression of the app's code, Swift and Objective-C alike, as far as the importer follows
/// it: both readers build these, and one resolver follows names through them.
indirect enum CodeValue: Sendable {
    /// A string literal (`"REPLY"`, `@"REPLY"`), or adjacent Objective-C literals joined.
    case text(String)
    case number(Int)
    case null
    /// A name, looked up from `scope` (the enclosing types, functions and closures, outermost first).
    case name(String, scope: [String])
    /// `base.member`; an Objective-C `[base selector]` without arguments reads the same way.
    case member(CodeValue, String)
    /// Swift's `.foreground`, `.init` (the type comes from the context).
    case implicitMember(String)
    case call(CodeCall)
    /// An array or set literal, `@[…]`, `[NSSet setWithObjects:…, nil]`.
    case array([CodeValue])
    case subscripted(CodeValue, key: CodeValue)
    /// An operator between operands: `+` (strings), `|` (Objective-C options), `??`.
    case binary(String, [CodeValue])
    /// A closure: what its `return`s give (a closure called at once stands for its result).
    case closure(results: [CodeValue])
    /// Something the importer does not follow, described for the problem it may cause.
    case opaque(String)

    /// `a.b.c` as `["a", "b", "c"]` when the value is names and members only.
    var namePath: (path: [String], scope: [String])? {
        switch self {
        case .name(let n, let scope): return ([n], scope)
        case .member(let base, let m): return base.namePath.map { ($0.path + [m], $0.scope) }
        default: return nil
        }
    }

    /// Whether `word` is one of the names or members the value is built of (`content.userInfo`).
    func uses(_ word: String) -> Bool {
        switch self {
        case .name(let n, _): return n == word
        case .member(let base, let m): return m == word || base.uses(word)
        case .call(let c): return c.callee.uses(word) || c.arguments.contains { $0.uses(word) }
        case .subscripted(let base, let key): return base.uses(word) || key.uses(word)
        case .array(let items), .binary(_, let items), .closure(let items): return items.contains { $0.uses(word) }
        case .text, .number, .null, .implicitMember, .opaque: return false
        }
    }

    /// The value as the source might spell it, short, for problems.
    var sketch: String {
        let s = rendered
        return s.count <= 70 ? s : String(s.prefix(67)) + "…"
    }

    /// The value as the source might spell it.
    var rendered: String {
        switch self {
        case .text(let s): return "\"\(s)\""
        case .number(let n): return String(n)
        case .null: return "nil"
        case .name(let n, _): return n
        case .member(let base, let m): return "\(base.rendered).\(m)"
        case .implicitMember(let m): return ".\(m)"
        case .call(let c):
            let args = zip(c.labels, c.arguments).map { $0.isEmpty ? $1.rendered : "\($0): \($1.rendered)" }
            return "\(c.callee.rendered)(\(args.joined(separator: ", ")))"
        case .array(let items): return "[" + items.map(\.rendered).joined(separator: ", ") + "]"
        case .subscripted(let base, let key): return "\(base.rendered)[\(key.rendered)]"
        // Text joined with values reads as the interpolation it usually was: "SNOOZE_\(minutes)".
        case .binary("+", let operands) where operands.contains(where: { if case .text = $0 { return true }; return false }):
            return "\"" + operands.map { if case .text(let t) = $0 { return t }; return "\\(" + $0.rendered + ")" }.joined() + "\""
        case .binary(let op, let operands): return operands.map(\.rendered).joined(separator: " \(op) ")
        case .closure: return "{ … }"
        case .opaque(let what): return what
        }
    }
}

/// A call: a function, an initializer (`UNNotificationAction(identifier:title:options:)`) or an
/// Objective-C message send normalized to the same labels (`[UNNotificationAction
/// actionWithIdentifier:title:options:]` reads as `UNNotificationAction(identifier:title:options:)`).
struct CodeCall: Sendable {
    var callee: CodeValue
    /// One per argument; "" for an unlabeled one.
    var labels: [String]
    var arguments: [CodeValue]
    var site: CodeSite

    subscript(label: String) -> CodeValue? {
        labels.firstIndex(of: label).map { arguments[$0] }
    }

    /// The callee's last name: `UNNotificationCategory`, `setNotificationCategories` (of whatever
    /// receiver), `NSLocalizedString`.
    var name: String? {
        switch callee {
        case .name(let n, _), .member(_, let n), .implicitMember(let n): return n
        default: return nil
        }
    }
}
