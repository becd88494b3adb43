/// A value of a Tuist manifest as far as its syntax says it, without running it: literals, the
/// ProjectDescription calls that build the project (`Target(…)`, `.target(…)`, `.settings(…)`,
/// `.extendingDefault(with:)`, kept by name and labels), enum cases (`.app`), and what could not
/// be followed, with why and where.
indirect enum TuistValue: Sendable {
    case text(String)
    case integer(Int)
    case real(Double)
    case bool(Bool)
    case null
    case array([TuistValue])
    case dictionary([(key: String, value: TuistValue)])
    /// A call the manifest's helpers do not define: a ProjectDescription initializer or static
    /// function (`Target.target(…)` and `.target(…)` are both `target`), or a struct's initializer.
    case call(TuistCall)
    /// `.app`, `.iOS`, `Product.app`: a case of a ProjectDescription enum.
    case member(String)
    /// Something the reader does not follow, and where.
    case unknown(String, at: CodeSite)

    var text: String? { if case .text(let s) = self { return s }; return nil }
    var array: [TuistValue]? { if case .array(let items) = self { return items }; return nil }
    var dictionary: [(key: String, value: TuistValue)]? { if case .dictionary(let pairs) = self { return pairs }; return nil }
    var call: TuistCall? { if case .call(let c) = self { return c }; return nil }

    /// Why the value is not known, with its place: `Project.swift:12:9: …`.
    var unknownReason: String? { if case .unknown(let why, let site) = self { return "\(site): \(why)" }; return nil }

    /// The value as the manifest might spell it, short, for problems.
    var sketch: String {
        switch self {
        case .text(let s): return "\"\(s)\""
        case .integer(let n): return String(n)
        case .real(let d): return String(d)
        case .bool(let b): return String(b)
        case .null: return "nil"
        case .array(let items): return "[" + items.prefix(3).map(\.sketch).joined(separator: ", ") + (items.count > 3 ? ", …]" : "]")
        case .dictionary(let pairs): return pairs.isEmpty ? "[:]" : "[\"\(pairs[0].key)\": …]"
        case .call(let c): return ".\(c.name)(" + c.labels.map { $0.isEmpty ? "_" : $0 + ":" }.joined() + ")"
        case .member(let m): return "." + m
        case .unknown(let why, _): return why
        }
    }
}

/// A ProjectDescription call: its name, its arguments by label ("" for an unlabeled one), where.
struct TuistCall: Sendable {
    var name: String
    var labels: [String]
    var arguments: [TuistValue]
    var site: CodeSite

    subscript(label: String) -> TuistValue? { labels.firstIndex(of: label).map { arguments[$0] } }
}
