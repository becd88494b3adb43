import ConfinedFiles
import Foundation
import Imaging
import Rendering
import Templating

/// `pushpreview diff BASE NEW`: what a change did to the mock-ups of two output folders. Each PNG
/// mock-up (`PAYLOAD/STEM.png`) is added, removed, changed or unchanged; a changed one gets a
/// before, an after and a highlighted difference image. Pixels count as different by YIQ colour
/// distance (the metric pixelmatch uses) above `threshold`, so anti-aliasing noise is not a change.
public struct OutputDiff {
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
    public var threshold = 0.1
    /// What the page calls the two sides ("main (3f2a…)", "working tree"); their folders if nil.
    public var labels: (base: String, new: String)?

    public init(base: URL, new: URL) { self.base = base; self.new = new }

    /// Compares, and writes the images, `index.html` and `diff.json` into `output`.
    /// Both sides are read and the diff written with no link followed beneath the folders named.
    public func run(output: URL) throws -> (entries: [Entry], summary: Summary) {
        let base = try ConfinedFolder(trusted: self.base, links: .refused), new = try ConfinedFolder(trusted: self.new, links: .refused)
        let out = try ConfinedFolder(trusted: output, links: .refused, create: true)
        let before = Self.mockups(in: base), after = Self.mockups(in: new)
        var entries: [Entry] = []
        for name in Set(before).union(after).sorted() {
            let inBase = before.contains(name), inNew = after.contains(name)
            if !inBase {
                try out.write(try bytes(new, name), to: name + "-after.png")
                entries.append(Entry(mockup: name, kind: .added, differing: 1, images: [name + "-after.png"]))
                continue
            }
            if !inNew {
                try out.write(try bytes(base, name), to: name + "-before.png")
                entries.append(Entry(mockup: name, kind: .removed, differing: 1, images: [name + "-before.png"]))
                continue
            }
            let a = try bytes(base, name), b = try bytes(new, name)
            if a == b { entries.append(Entry(mockup: name, kind: .unchanged, differing: 0, images: [])); continue }
            let decoded: (RGBAImage, RGBAImage)
            do { decoded = (try PNGCodec.decode(a), try PNGCodec.decode(b)) } catch {
                // One unreadable file is reported as changed, with both files; the rest still compare.
                let images = [name + "-before.png", name + "-after.png"]
                try out.write(a, to: images[0])
                try out.write(b, to: images[1])
                entries.append(Entry(mockup: name, kind: .changed, differing: 1, images: images, note: "\(name).png: not a readable PNG (\(error))"))
                continue
            }
            let (share, highlight) = compare(decoded.0, decoded.1)
            guard share > 0, let highlight else { entries.append(Entry(mockup: name, kind: .unchanged, differing: 0, images: [])); continue }
            let images = [name + "-before.png", name + "-after.png", name + "-diff.png"]
            try out.write(a, to: images[0])
            try out.write(b, to: images[1])
            try out.write(try PNGCodec.encode(highlight, compressionLevel: 6), to: images[2])
            entries.append(Entry(mockup: name, kind: .changed, differing: share, images: images))
        }
        var summary = Summary()
        for e in entries {
            switch e.kind {
            case .added: summary.added += 1
            case .removed: summary.removed += 1
            case .changed: summary.changed += 1
            case .unchanged: summary.unchanged += 1
            }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try out.write([UInt8](try encoder.encode(DiffFile(summary: summary, entries: entries.filter { $0.kind != .unchanged }))) + [10], to: "diff.json")
        try out.write(page(entries, summary), to: "index.html")
        return (entries, summary)
    }

    struct DiffFile: Codable { var summary: Summary; var entries: [Entry] }

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

    /// The share of differing pixels and, when some differ, the after image faded to grey with
    /// the differing pixels in red. Sizes that differ compare over the larger canvas.
    func compare(_ a: RGBAImage, _ b: RGBAImage) -> (Double, RGBAImage?) {
        let w = max(a.width, b.width), h = max(a.height, b.height)
        let limit = 35215 * threshold * threshold
        var out = [UInt8](repeating: 255, count: w * h * 4)
        var differing = 0
        for y in 0..<h {
            for x in 0..<w {
                let i = (y * w + x) * 4
                let inA = x < a.width && y < a.height, inB = x < b.width && y < b.height
                let p = inA ? a.pixel(x: x, y: y) : (0, 0, 0, 0), q = inB ? b.pixel(x: x, y: y) : (0, 0, 0, 0)
                if !inA || !inB || Self.delta(p, q) > limit {
                    differing += 1
                    out[i] = 255; out[i + 1] = 0; out[i + 2] = 0
                } else {
                    let (r, g, bl, _) = Self.onWhite(q)
                    let grey = 0.299 * r + 0.587 * g + 0.114 * bl
                    let faded = UInt8(min(255, (255 - (255 - grey) * 0.3).rounded()))
                    out[i] = faded; out[i + 1] = faded; out[i + 2] = faded
                }
            }
        }
        guard differing > 0 else { return (0, nil) }
        return (Double(differing) / Double(w * h), RGBAImage(width: w, height: h, pixels: out))
    }

    static func onWhite(_ p: (r: UInt8, g: UInt8, b: UInt8, a: UInt8)) -> (Double, Double, Double, Double) {
        let a = Double(p.a) / 255
        return (255 + (Double(p.r) - 255) * a, 255 + (Double(p.g) - 255) * a, 255 + (Double(p.b) - 255) * a, a)
    }

    /// Squared YIQ distance of two pixels blended on white (0...35215).
    static func delta(_ p: (r: UInt8, g: UInt8, b: UInt8, a: UInt8), _ q: (r: UInt8, g: UInt8, b: UInt8, a: UInt8)) -> Double {
        let (r1, g1, b1, _) = onWhite(p), (r2, g2, b2, _) = onWhite(q)
        let y = (0.29889531 * r1 + 0.58662247 * g1 + 0.11448223 * b1) - (0.29889531 * r2 + 0.58662247 * g2 + 0.11448223 * b2)
        let i = (0.59597799 * r1 - 0.27417610 * g1 - 0.32180189 * b1) - (0.59597799 * r2 - 0.27417610 * g2 - 0.32180189 * b2)
        let qq = (0.21147017 * r1 - 0.52261711 * g1 + 0.31114694 * b1) - (0.21147017 * r2 - 0.52261711 * g2 + 0.31114694 * b2)
        return 0.5053 * y * y + 0.299 * i * i + 0.1957 * qq * qq
    }

    /// The diff page: the summary, then each change with its images. No script, nothing remote.
    func page(_ entries: [Entry], _ s: Summary) -> String {
        var body = "<h1>PushPreview diff</h1><p>\(s.changed) changed · \(s.added) added · \(s.removed) removed · \(s.unchanged) unchanged</p>"
        body += "<p class=\"meta\">\(escapeHTML(labels?.base ?? base.path)) → \(escapeHTML(labels?.new ?? new.path))</p>"
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

    /// A pull-request comment: the summary table and the changed images, with paths under
    /// `imageBaseURL` (where CI uploads the diff folder), and what kept a side from being whole.
    public static func markdown(_ entries: [Entry], _ s: Summary, imageBaseURL: String, notes: [String] = []) -> String {
        let base = imageBaseURL.isEmpty || imageBaseURL.hasSuffix("/") ? imageBaseURL : imageBaseURL + "/"
        func url(_ path: String) -> String { base + path.split(separator: "/").map { $0.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? String($0) }.joined(separator: "/") }
        var md = "### PushPreview: \(s.changed) changed, \(s.added) added, \(s.removed) removed, \(s.unchanged) unchanged\n\n"
        for note in notes { md += "> **Warning:** \(note)\n>\n" }
        if !notes.isEmpty { md = String(md.dropLast(2)) + "\n" }
        guard s.anyChange else { return md + "No mock-up changed.\n" }
        md += "| mock-up | change | pixels |\n|---|---|---|\n"
        for e in entries where e.kind != .unchanged {
            md += "| `\(e.mockup)` | \(e.kind.rawValue) | \(e.kind == .changed ? String(format: "%.2f%%", e.differing * 100) : "") |\n"
        }
        for e in entries where e.kind != .unchanged {
            md += "\n<details><summary>\(e.mockup) (\(e.kind.rawValue))</summary>\n\n"
            md += "| " + e.images.map { $0.hasSuffix("-before.png") ? "before" : $0.hasSuffix("-after.png") ? "after" : "difference" }.joined(separator: " | ") + " |\n"
            md += "|" + e.images.map { _ in "---" }.joined(separator: "|") + "|\n"
            md += "| " + e.images.map { "<img src=\"\(url($0))\" width=\"260\">" }.joined(separator: " | ") + " |\n\n</details>\n"
        }
        return md
    }
}
