import Foundation

/// The changes of one payload's view, of one kind: its variants (device × appearance × locale ×
/// text size) folded into one row with one representative, as a reviewer reads them. What each
/// mock-up is comes from the sides' `report.json`; without one, each mock-up is its own group.
public struct ChangeGroup: Codable, Sendable, Equatable {
    /// The payload file (`payloads/x.apns`), or its output folder's name without a report.
    public var payload: String
    /// expanded, banner, reply, …; the mock-up's file name without a report.
    public var view: String
    public var kind: OutputDiff.Kind
    /// Every mock-up of the group (`PAYLOAD/STEM`), in name order.
    public var mockups: [String]
    /// How many mock-ups of this payload's view the sides have in all (changed or not).
    public var of: Int
    /// The distinct values of each axis among the group's mock-ups, in the report's order.
    public var devices: [String], appearances: [String], locales: [String], textSizes: [String]
    /// Smallest and largest share of differing pixels (changed only).
    public var least: Double, most: Double
    /// The mock-up shown for all: the most changed, else the first in the report's order.
    public var representative: String
    /// Its variant, as a reader names it ("iphone-15, dark, nl"), when the reports tell.
    public var shown: String?
    /// Its before | after | difference image in the diff folder, when one could be made.
    public var image: String?
    public var imageSize: [Int]?
    /// Why a mock-up of it could not be compared pixel by pixel, if one could not.
    public var note: String?
    /// The inputs that changed between the sides and reach this payload (`media/AppIcon.png`,
    /// `Templates/boarding-pass.html`, `payloads/x.apns`), as far as the reports tell.
    public var causes: [String]

    /// What kind of mock-up a file is, from the sides' reports (new first, then base).
    struct Described {
        var payload: String, view: String, device: String, appearance: String, locale: String?, textSize: String?, rank: [Int]
    }

    /// Groups the entries that are not unchanged; `failures` are not entries and stay apart.
    static func groups(_ entries: [OutputDiff.Entry], base: GalleryReport?, new: GalleryReport?) -> [ChangeGroup] {
        let described = describe(base: base, new: new)
        // Each side's mock-ups of a payload's view, counted once by name.
        var totals: [String: Int] = [:]
        for (_, d) in described { totals["\(d.payload)\u{0}\(d.view)", default: 0] += 1 }
        let causes = ChangeCauses(base: base, new: new)
        var order: [String] = []
        var members: [String: [(OutputDiff.Entry, Described?)]] = [:]
        for e in entries where e.kind != .unchanged {
            let d = described[e.mockup]
            let key = [d?.payload ?? String(e.mockup.prefix { $0 != "/" }), d?.view ?? e.mockup, e.kind.rawValue, e.note == nil ? "" : "note"].joined(separator: "\u{0}")
            if members[key] == nil { order.append(key) }
            members[key, default: []].append((e, d))
        }
        return order.map { key in
            let list = members[key]!
            let (first, d) = list[0]
            let described = list.compactMap(\.1)
            func values(_ axis: (Described) -> String?) -> [String] {
                var seen: [String] = []
                for v in described.sorted(by: { $0.rank.lexicographicallyPrecedes($1.rank) }).compactMap(axis) where !seen.contains(v) { seen.append(v) }
                return seen
            }
            let shares = list.map(\.0.differing)
            let (chosen, about) = list.min { a, b in
                if a.0.differing != b.0.differing { return a.0.differing > b.0.differing }
                return (a.1?.rank ?? []).lexicographicallyPrecedes(b.1?.rank ?? [])
            }!
            let shown = about.map { d in ([d.device, d.appearance, d.locale] + (d.textSize == "large" ? [] : [d.textSize])).compactMap { $0 }.joined(separator: ", ") }
            let payload = d?.payload ?? String(first.mockup.prefix { $0 != "/" })
            return ChangeGroup(payload: payload, view: d?.view ?? first.mockup, kind: first.kind, mockups: list.map(\.0.mockup).sorted(),
                               of: d.flatMap { totals["\($0.payload)\u{0}\($0.view)"] } ?? list.count,
                               devices: values(\.device), appearances: values(\.appearance), locales: values(\.locale), textSizes: values(\.textSize),
                               least: shares.min() ?? 0, most: shares.max() ?? 0, representative: chosen.mockup, shown: shown,
                               note: list.compactMap(\.0.note).first, causes: d == nil ? [] : causes.of(payload: payload))
        }.sorted { ($0.payload, $0.view, $0.kind.order) < ($1.payload, $1.view, $1.kind.order) }
    }

    /// `PAYLOAD/STEM` → what the reports say it is; the base's fill in what the branch no longer makes.
    static func describe(base: GalleryReport?, new: GalleryReport?) -> [String: Described] {
        var out: [String: Described] = [:]
        for report in [new, base].compactMap({ $0 }) {
            let axes = report.axes
            for input in report.inputs {
                for m in input.mockups {
                    let rank = m.variant.map(axes.rank) ?? [Int.max]
                    for output in m.outputs where output.hasSuffix(".png") {
                        let name = String(output.dropLast(4))
                        if out[name] == nil {
                            out[name] = Described(payload: input.payload, view: m.view, device: m.device, appearance: m.appearance,
                                                  locale: m.locale, textSize: m.textSize, rank: rank)
                        }
                    }
                }
            }
        }
        return out
    }
}

extension OutputDiff.Kind {
    /// Changed first, then added, then removed, in a payload's rows.
    var order: Int {
        switch self {
        case .changed: 0
        case .added: 1
        case .removed: 2
        case .unchanged: 3
        }
    }
}

/// Which inputs that differ between the sides' reports reach a payload: its own file, the category
/// templates its mock-ups were drawn with, and any other changed file (settings, strings, media,
/// the system chrome), which may reach every payload — the same rule `--incremental` redraws by.
struct ChangeCauses {
    var changedFiles: [String] = []
    var baseKeys: [String: String] = [:], newKeys: [String: String] = [:]
    var templatesOf: [String: Set<String>] = [:]
    var tool: String?

    init(base: GalleryReport?, new: GalleryReport?) {
        guard let base, let new else { return }
        let before = base.files ?? [:], after = new.files ?? [:]
        changedFiles = Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }.sorted()
        baseKeys = Dictionary(base.inputs.map { ($0.payload, $0.key) }, uniquingKeysWith: { a, _ in a })
        newKeys = Dictionary(new.inputs.map { ($0.payload, $0.key) }, uniquingKeysWith: { a, _ in a })
        for report in [base, new] {
            for input in report.inputs {
                for t in input.mockups.compactMap(\.content?.template) {
                    templatesOf[input.payload, default: []].insert(t.hasPrefix("Templates/") ? "project/" + t : "templates/" + t)
                }
            }
        }
        if base.tool != new.tool { tool = "the tool (\(base.tool) → \(new.tool))" }
    }

    /// A category's own template: reaches only the payloads drawn with it.
    static func isOwnTemplate(_ file: String) -> Bool {
        if file.hasPrefix("project/Templates/") { return !file.dropFirst("project/Templates/".count).contains("/") }
        return file.hasPrefix("templates/stock/")
    }

    /// The causes of a payload's changes, as the reader knows the files: project files relative
    /// to the project, the tool's templates as `Templates/…` of PushPreview.
    func of(payload: String) -> [String] {
        var out: [String] = []
        if let tool { out.append(tool) }
        switch (baseKeys[payload], newKeys[payload]) {
        case (nil, .some): out.append("\(payload) (new)")
        case (.some, nil): out.append("\(payload) (removed)")
        case let (a?, b?) where a != b && tool == nil: out.append(payload)
        default: break
        }
        for file in changedFiles where !Self.isOwnTemplate(file) || templatesOf[payload]?.contains(file) == true {
            out.append(Self.shown(file))
        }
        return out
    }

    static func shown(_ file: String) -> String {
        if file.hasPrefix("project/") { return String(file.dropFirst("project/".count)) }
        if file.hasPrefix("templates/") { return "PushPreview's Templates/" + file.dropFirst("templates/".count) }
        return file
    }
}
