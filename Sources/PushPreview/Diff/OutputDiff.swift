import ConfinedFiles
import Foundation
import Imaging
import Synchronization
import Rendering
import Templating

/// `pushpreview diff BASE NEW`: what a change did to the mock-ups of two output folders. Each PNG
/// mock-up (`PAYLOAD/STEM.png`) is added, removed, changed or unchanged; a changed one gets a
/// before, an after and a highlighted difference image. Pixels count as different by YIQ colour
/// distance (the metric pixelmatch uses) above `threshold`, so anti-aliasing noise is not a change.
public struct OutputDiff: Sendable {
    public enum Kind: String, Codable, Sendable { case added, removed, changed, unchanged }

    public struct Entry: Codable, Sendable, Equatable {
        /// `PAYLOAD/STEM`, without `.png`.
        public var mockup: String
        public var kind: Kind
        /// Share of pixels that differ (changed only), 0...1.
        public var differing: Double
        /// Images written for it, relative to the diff folder.
        public var images: [String]
        /// Why it could not be compared pixel by pixel (an unreadable PNG), if so.
        public var note: String?
    }

    public struct Summary: Codable, Sendable, Equatable {
        public var added = 0, removed = 0, changed = 0, unchanged = 0
        public var anyChange: Bool { added + removed + changed > 0 }
    }

    public var base: URL
    public var new: URL
    /// 0...1: how far apart two colours must be to count (0.1 by default, as pixelmatch).
    public var threshold = OutputDiff.defaultThreshold
    /// pixelmatch's default, `diff`'s and `serve`'s difference pictures'.
    public static let defaultThreshold = 0.1
    /// What the page calls the two sides ("main (3f2a…)", "working tree"); their folders if nil.
    public var labels: (base: String, new: String)?

    public init(base: URL, new: URL) { self.base = base; self.new = new }

    /// What a comparison found: every mock-up's entry, the counts, and the changes grouped as a
    /// reviewer reads them (with their pictures), with the inputs that changed between the sides.
    public struct Result {
        public var entries: [Entry]
        public var summary: Summary
        public var groups: [ChangeGroup]
        public var changedInputs: [String]
        /// Whether the sides had report.json files to group by.
        public var described: Bool
    }

    /// Compares (as many mock-ups at once as there are cores), and writes the images, each
    /// group's before | after | difference picture, `index.html` and `diff.json` into `output`;
    /// `failures` (what kept a side from being whole) head the page and `diff.json`. Both sides
    /// (their mock-ups and report.json) are read and the diff written with no link followed
    /// beneath the folders named.
    public func run(output: URL, failures: [ComparisonFailure] = []) throws -> Result {
        let base = try ConfinedFolder(trusted: self.base, links: .refused), new = try ConfinedFolder(trusted: self.new, links: .refused)
        let out = try ConfinedFolder(trusted: output, links: .refused, create: true)
        let before = Self.mockups(in: base), after = Self.mockups(in: new)
        let names = Set(before).union(after).sorted()
        let found = Mutex<(entries: [Entry?], error: (any Error)?)>((Array(repeating: nil, count: names.count), nil))
        let next = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: max(1, min(ProcessInfo.processInfo.activeProcessorCount, names.count))) { _ in
            while true {
                let i = next.withLock { value -> Int? in
                    guard value < names.count else { return nil }
                    defer { value += 1 }
                    return value
                }
                guard let i else { return }
                do {
                    let entry = try compare(names[i], base: before.contains(names[i]) ? base : nil, new: after.contains(names[i]) ? new : nil, output: out)
                    found.withLock { $0.entries[i] = entry }
                } catch {
                    found.withLock { if $0.error == nil { $0.error = error } }
                    return
                }
            }
        }
        let (all, failure) = found.withLock { ($0.entries, $0.error) }
        if let failure { throw failure }
        let entries = all.compactMap { $0 }
        var summary = Summary()
        for e in entries {
            switch e.kind {
            case .added: summary.added += 1
            case .removed: summary.removed += 1
            case .changed: summary.changed += 1
            case .unchanged: summary.unchanged += 1
            }
        }
        let reports = (base: try? GalleryReport.read(in: base), new: try? GalleryReport.read(in: new))
        var groups = ChangeGroup.groups(entries, base: reports.base, new: reports.new)
        let byName = Dictionary(entries.map { ($0.mockup, $0) }, uniquingKeysWith: { a, _ in a })
        for i in groups.indices where groups[i].note == nil {
            guard let entry = byName[groups[i].representative], let made = try ComparisonImage.write(for: entry, in: out) else { continue }
            groups[i].image = made.name
            groups[i].imageSize = [made.width, made.height]
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let file = DiffFile(summary: summary, failures: failures, groups: groups, entries: entries.filter { $0.kind != .unchanged })
        try out.write([UInt8](try encoder.encode(file)) + [10], to: "diff.json")
        try out.write(page(entries, summary, failures: failures), to: "index.html")
        return Result(entries: entries, summary: summary, groups: groups, changedInputs: ChangeCauses(base: reports.base, new: reports.new).changedFiles.map(ChangeCauses.shown),
                      described: reports.base != nil || reports.new != nil)
    }

    struct DiffFile: Codable { var summary: Summary; var failures: [ComparisonFailure]; var groups: [ChangeGroup]; var entries: [Entry] }

    /// One mock-up (`base`, `new`: the sides that have it): added, removed, unchanged, or changed
    /// with its before, after and difference images written.
    func compare(_ name: String, base: ConfinedFolder?, new: ConfinedFolder?, output out: ConfinedFolder) throws -> Entry {
        guard let base else {
            try out.write(try bytes(new!, name), to: name + "-after.png")
            return Entry(mockup: name, kind: .added, differing: 1, images: [name + "-after.png"])
        }
        guard let new else {
            try out.write(try bytes(base, name), to: name + "-before.png")
            return Entry(mockup: name, kind: .removed, differing: 1, images: [name + "-before.png"])
        }
        let a = try bytes(base, name), b = try bytes(new, name)
        if a == b { return Entry(mockup: name, kind: .unchanged, differing: 0, images: []) }
        let decoded: (RGBAImage, RGBAImage)
        do { decoded = (try PNGCodec.decode(a), try PNGCodec.decode(b)) } catch {
            // One unreadable file is reported as changed, with both files; the rest still compare.
            let images = [name + "-before.png", name + "-after.png"]
            try out.write(a, to: images[0])
            try out.write(b, to: images[1])
            return Entry(mockup: name, kind: .changed, differing: 1, images: images, note: "\(name).png: not a readable PNG (\(error))")
        }
        let difference = PixelDifference.compare(decoded.0, decoded.1, threshold: threshold)
        guard difference.share > 0, let highlight = difference.highlight else { return Entry(mockup: name, kind: .unchanged, differing: 0, images: []) }
        let images = [name + "-before.png", name + "-after.png", name + "-diff.png"]
        try out.write(a, to: images[0])
        try out.write(b, to: images[1])
        let png = try highlight.bgra.withUnsafeBufferPointer {
            try PNGCodec.encodeOpaqueBGRA($0.baseAddress!, width: highlight.width, height: highlight.height, stride: highlight.width * 4)
        }
        try out.write(png, to: images[2])
        return Entry(mockup: name, kind: .changed, differing: difference.share, images: images)
    }

    /// `PAYLOAD/STEM` of every PNG mock-up one level down (attachment copies in `media/` are not mock-ups).
    static func mockups(in folder: ConfinedFolder) -> [String] {
        var out: [String] = []
        for payload in (try? folder.names()) ?? [] where !payload.hasPrefix(".") && payload != "media" && folder.isFolder(payload) {
            for file in (try? folder.names(payload)) ?? [] where file.hasSuffix(".png") && !file.hasPrefix(".") {
                out.append("\(payload)/\(file.dropLast(4))")
            }
        }
        return out.sorted()
    }

    func bytes(_ folder: ConfinedFolder, _ name: String) throws -> [UInt8] { try folder.read(name + ".png", limit: 256 << 20) }

    /// The diff page: the summary, then each change with its images. No script, nothing remote.
    func page(_ entries: [Entry], _ s: Summary, failures: [ComparisonFailure] = []) -> String {
        var body = "<h1>PushPreview diff</h1><p>\(s.changed) changed · \(s.added) added · \(s.removed) removed · \(s.unchanged) unchanged</p>"
        body += "<p class=\"meta\">\(escapeHTML(labels?.base ?? base.path)) → \(escapeHTML(labels?.new ?? new.path))</p>"
        if !failures.isEmpty {
            body += "<h2 class=\"removed\">\(failures.count) failed</h2><ul>"
            for f in failures { body += "<li>\(escapeHTML(f.side.label)): <code>\(escapeHTML(f.subject))</code>: \(escapeHTML(f.message))</li>" }
            body += "</ul>"
        }
        for e in entries where e.kind != .unchanged {
            body += "<section><h2>\(escapeHTML(e.mockup)) <span class=\"\(e.kind.rawValue)\">\(e.kind.rawValue)\(e.kind == .changed ? String(format: ", %.2f%% of pixels", e.differing * 100) : "")</span></h2>"
            if let note = e.note { body += "<p class=\"removed\">\(escapeHTML(note))</p>" }
            body += "<div class=\"row\">"
            for image in e.images {
                let label = image.hasSuffix("-before.png") ? "before" : image.hasSuffix("-after.png") ? "after" : "difference"
                body += "<figure><img loading=\"lazy\" src=\"\(escapeHTML(image))\" alt=\"\(label)\"><figcaption>\(label)</figcaption></figure>"
            }
            body += "</div></section>"
        }
        if !s.anyChange { body += "<p>No mock-up changed.</p>" }
        return """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8">
        <meta http-equiv="Content-Security-Policy" content="\(HTMLWriter.lockedDown); img-src 'self' file: data:; style-src 'unsafe-inline'">
        <title>PushPreview diff</title>
        <style>
        :root { color-scheme: light dark; } body { margin: 20px; font: 14px/1.4 Inter, system-ui, sans-serif; }
        h2 { font-size: 15px; margin: 24px 0 8px; } .meta { color: #8e8e93; }
        .row { display: flex; gap: 12px; align-items: flex-start; } figure { margin: 0; flex: 0 1 calc((100% - 24px) / 3); min-width: 0; }
        img { width: 100%; height: auto; border: 1px solid #d1d1d6; border-radius: 6px; } figcaption { color: #8e8e93; font-size: 12px; }
        .changed { color: #c93400; } .added { color: #248a3d; } .removed { color: #d70015; }
        </style></head>
        <body>
        \(body)
        </body></html>

        """
    }
}
