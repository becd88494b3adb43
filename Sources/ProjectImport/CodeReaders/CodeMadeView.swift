/// A content extension's view as its code makes it (issue 22): where views are added, constraints
/// activated or a SwiftUI view hosted, and the height the view controller asks for
/// (`preferredContentSize`), when the code gives it as a number.
public struct CodeMadeView: Sendable, Equatable {
    /// `FILE:LINE (what)`, in file and line order, each place once.
    public var madeAt: [String] = []
    /// A `UIHostingController`: the view is SwiftUI's.
    public var hostsSwiftUI = false
    /// The height in points `preferredContentSize` is set to, where it is a number (or a name
    /// bound to one); nil where it is computed.
    public var preferredHeight: Double?
    /// Where `preferredContentSize` is set, `FILE:LINE`, and its value as the code spells it.
    public var preferredSizeSite: String?
    public var preferredSizeSketch: String?

    /// What the code does to the view, from the facts of the extension's sources; nil when it
    /// neither adds views nor sets a preferred size.
    static func read(_ facts: [SourceFacts], resolver: CodeResolver) -> CodeMadeView? {
        var view = CodeMadeView()
        var seen = Set<String>()
        let sites = facts.flatMap(\.viewSites).sorted { ($0.site.file, $0.site.line) < ($1.site.file, $1.site.line) }
        for (what, site) in sites where seen.insert("\(site.file):\(site.line)").inserted {
            view.madeAt.append("\(site.file):\(site.line) (\(what))")
            if what == "UIHostingController" { view.hostsSwiftUI = true }
        }
        // `isActive = true` / `.active = YES` on a constraint made in code.
        for a in facts.flatMap(\.assignments) {
            if case .member(_, let p) = a.target, p == "isActive" || p == "active", seen.insert("\(a.site.file):\(a.site.line)").inserted {
                view.madeAt.append("\(a.site.file):\(a.site.line) (constraint \(p))")
            }
        }
        view.madeAt.sort { siteOrder($0) < siteOrder($1) }
        for a in facts.flatMap(\.assignments) {
            let isHeight: Bool
            switch a.target {
            case .name("preferredContentSize", _), .member(_, "preferredContentSize"): isHeight = false
            case .member(.member(_, "preferredContentSize"), "height"), .member(.name("preferredContentSize", _), "height"): isHeight = true
            default: continue
            }
            let height = isHeight ? a.value : sizeHeight(resolver.resolve(a.value), resolver: resolver)
            view.preferredSizeSite = "\(a.site.file):\(a.site.line)"
            view.preferredSizeSketch = a.value.sketch
            view.preferredHeight = height.flatMap { number($0, resolver: resolver) }
            if view.preferredHeight != nil { break }
        }
        return view.madeAt.isEmpty && view.preferredSizeSite == nil ? nil : view
    }

    /// `CGSize(width: w, height: h)`, `CGSizeMake(w, h)`: the `h`.
    private static func sizeHeight(_ value: CodeValue, resolver: CodeResolver) -> CodeValue? {
        guard case .call(let c) = value else { return nil }
        switch c.name {
        case "CGSize", "NSSize": return c["height"]
        case "CGSizeMake", "NSMakeSize": return c.arguments.count == 2 ? c.arguments[1] : nil
        default: return nil
        }
    }

    /// A number literal (`200`, `180.5`, `200.0f`), or a name bound to one, as points.
    private static func number(_ value: CodeValue, resolver: CodeResolver) -> Double? {
        let points: Double?
        switch resolver.resolve(value) {
        case .number(let n): points = Double(n)
        case .opaque(let text): points = Double(text.hasSuffix("f") || text.hasSuffix("F") ? String(text.dropLast()) : text)
        default: points = nil
        }
        // A view is not taller than a few screens: anything else is not a height to draw.
        return points.flatMap { $0.isFinite && $0 > 0 && $0 <= 2000 ? $0 : nil }
    }

    private static func siteOrder(_ s: String) -> (String, Int) {
        let parts = s.split(separator: ":")
        return (String(parts.first ?? ""), parts.count > 1 ? Int(parts[1].prefix { $0.isNumber }) ?? 0 : 0)
    }
}
