import Checked

/// One track of `grid-template-columns`/`-rows` or `grid-auto-*` (CSS Grid 1 §7.2).
public indirect enum GridTrack: Sendable, Equatable {
    case length(Length)
    case fr(Double)
    case auto, minContent, maxContent
    case minmax(GridTrack, GridTrack)

    /// The sizing function's minimum and maximum (§7.2.3: `1fr` is `minmax(auto, 1fr)`).
    public var minimum: GridTrack {
        switch self {
        case .minmax(let a, _): return a
        case .fr: return .auto
        default: return self
        }
    }
    public var maximum: GridTrack {
        if case .minmax(_, let b) = self { return b }
        return self
    }
}

/// Where an item starts or ends on one axis (§8.3): auto, a line number (negative counts from
/// the end), a span, or a named area's edge.
public enum GridLine: Sendable, Equatable {
    case auto
    case line(Int)
    case span(Int)
    case area(String)
}

extension GridLine {
    var isArea: Bool { if case .area = self { true } else { false } }
}

/// A grid container's template and an item's placement, as the cascade computed them.
public struct GridStyle: Sendable, Equatable {
    public var columns: [GridTrack] = []
    public var rows: [GridTrack] = []
    public var autoColumns = GridTrack.auto
    public var autoRows = GridTrack.auto
    /// `grid-auto-flow: column` (row otherwise; `dense` is not done).
    public var flowColumn = false
    /// `grid-template-areas`, row by row ("." is no area).
    public var areas: [[String]] = []
    public var columnStart = GridLine.auto, columnEnd = GridLine.auto
    public var rowStart = GridLine.auto, rowEnd = GridLine.auto
    public init() {}
}

/// Parsing of the grid properties' values.
enum GridParser {
    /// A track list: sizes, `minmax()`, `repeat(N, …)`; line names in brackets are skipped.
    static func trackList(_ value: String, length: (String) -> Length?) -> [GridTrack]? {
        let v = value.trimmed.lowercased()
        if v == "none" { return [] }
        var out: [GridTrack] = []
        var inNames = false
        for token in tokens(v) {
            // Line names, `[header-start]`, are skipped: placement by name is by area.
            if token.hasPrefix("[") { inNames = true }
            if inNames { inNames = !token.hasSuffix("]"); continue }
            if token.hasPrefix("repeat(") && token.hasSuffix(")") {
                let inner = splitTopLevel(String(token.dropFirst(7).dropLast()), separator: ",")
                guard inner.count == 2, let n = Int(inner[0].trimmed), (1...1000).contains(n),
                      let tracks = trackList(inner[1], length: length), !tracks.isEmpty else { return nil }
                out += Array(repeating: tracks, count: n).flatMap { $0 }
            } else {
                guard let t = track(token, length: length) else { return nil }
                out.append(t)
            }
            guard out.count <= 1000 else { return nil }
        }
        return out
    }

    static func track(_ t: String, length: (String) -> Length?) -> GridTrack? {
        switch t {
        case "auto": return .auto
        case "min-content": return .minContent
        case "max-content": return .maxContent
        default: break
        }
        if t.hasSuffix("fr"), let f = Double(decimal: t.dropLast(2)), f >= 0 { return .fr(min(f, .maxLength)) }
        if t.hasPrefix("minmax(") && t.hasSuffix(")") {
            let parts = splitTopLevel(String(t.dropFirst(7).dropLast()), separator: ",").map(\.trimmed)
            guard parts.count == 2, let a = track(parts[0], length: length), let b = track(parts[1], length: length) else { return nil }
            if case .fr = a { return nil } // a flexible minimum is invalid (§7.2.3)
            return .minmax(a, b)
        }
        guard let l = length(t), l != .auto, (l.resolve(100) ?? 0) >= 0 else { return nil }
        return .length(l)
    }

    /// `"a a b" "c c b"`: every row the same length, each area a rectangle.
    static func areas(_ value: String) -> [[String]]? {
        let v = value.trimmed
        if v.lowercased() == "none" { return [] }
        var rows: [[String]] = []
        var rest = Substring(v)
        while let open = rest.firstIndex(where: { $0 == "\"" || $0 == "'" }) {
            let quote = rest[open]
            guard let close = rest[rest.index(after: open)...].firstIndex(of: quote) else { return nil }
            let cells = rest[rest.index(after: open)..<close].split(whereSeparator: \.isWhitespace).map(String.init)
            guard !cells.isEmpty, cells.count <= 1000 else { return nil }
            rows.append(cells)
            rest = rest[rest.index(after: close)...]
        }
        guard !rows.isEmpty, rest.trimmed.isEmpty, rows.allSatisfy({ $0.count == rows[0].count }) else { return nil }
        return rows
    }

    /// One grid line: `auto`, `3`, `-1`, `span 2`, or an area name.
    static func line(_ value: String) -> GridLine? {
        let parts = value.trimmed.lowercased().split(whereSeparator: \.isWhitespace).map(String.init)
        if parts == ["auto"] { return .auto }
        if parts.count == 1, let n = Int(parts[0]), n != 0, abs(n) <= 10_000 { return .line(n) }
        if parts.count == 2, parts[0] == "span", let n = Int(parts[1]), (1...10_000).contains(n) { return .span(n) }
        if parts.count == 1, parts[0] == "span" { return .span(1) }
        if parts.count == 1, let c = parts[0].first, c.isLetter || c == "_" || c == "-" { return .area(parts[0]) }
        return nil
    }

    /// `grid-column: 1 / 3`, `grid-row: span 2`, `grid-area: name` (a name alone fills both ends).
    static func lines(_ value: String) -> (GridLine, GridLine)? {
        let halves = value.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard (1...2).contains(halves.count), let start = line(halves[0]) else { return nil }
        if halves.count == 2 { return line(halves[1]).map { (start, $0) } }
        if case .area = start { return (start, start) }
        return (start, .auto)
    }

    static func tokens(_ v: String) -> [String] {
        splitTopLevel(String(v.map { $0.isWhitespace ? " " : $0 }), separator: " ").map(\.trimmed).filter { !$0.isEmpty }
    }
}
