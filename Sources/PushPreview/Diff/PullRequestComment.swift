import Foundation
import Templating

/// The pull-request comment `diff --markdown` writes, built for its limit: GitHub refuses a comment
/// over 65,536 characters, so it is written to a budget (60,000 by default). First what failed,
/// each named with its error; then the counts by kind and the inputs that changed; then one row per
/// payload's view and kind of change, its variants folded into it and one of them shown (before ·
/// after · difference, the card cropped at half its device pixels), payload by payload, as many as
/// fit; then how many more there are, with the full diff page linked. Images only from a URL
/// (`--image-base-url`); without one, each row names its image in the artefact instead.
public struct PullRequestComment {
    public var summary: OutputDiff.Summary
    public var groups: [ChangeGroup]
    public var failures: [ComparisonFailure]
    /// Where the diff folder is published: the images are shown from it and its page linked.
    public var imageBaseURL: String?
    /// Where the diff folder can be downloaded (a CI run's artefacts), linked when it is not published.
    public var artifactURL: String?
    /// The diff folder's name, which the CI recipes give its artefact.
    public var folderName: String
    /// The most characters (UTF-16 code units, which count no fewer than GitHub's) it may have.
    public var budget = PullRequestComment.defaultBudget
    /// The changed inputs (project files, the tool's templates) behind the rows, if known.
    public var changedInputs: [String] = []
    /// False when the sides had no report.json: each row is then one mock-up.
    public var described = true

    public static let defaultBudget = 60_000
    /// What the footer may take (the count of rows left out and the link), kept free while rows are added.
    static let footerReserve = 600

    public init(summary: OutputDiff.Summary, groups: [ChangeGroup], failures: [ComparisonFailure], folderName: String) {
        self.summary = summary
        self.groups = groups
        self.failures = failures
        self.folderName = folderName
    }

    var publishedBase: String? {
        guard let url = imageBaseURL, !url.isEmpty else { return nil }
        return url.hasSuffix("/") ? url : url + "/"
    }

    public func markdown() -> String {
        var head = "### PushPreview: " + (failures.isEmpty ? "" : "\(failures.count) failed · ")
        head += "\(summary.changed) changed, \(summary.added) added, \(summary.removed) removed, \(summary.unchanged) unchanged\n\n"
        head += failureList(room: budget / 3)
        if summary.anyChange {
            let rows = { (kind: OutputDiff.Kind) in groups.filter { $0.kind == kind }.count }
            head += "| | mock-ups | rows |\n|---|--:|--:|\n"
            head += "| changed | \(summary.changed) | \(rows(.changed)) |\n| added | \(summary.added) | \(rows(.added)) |\n"
            head += "| removed | \(summary.removed) | \(rows(.removed)) |\n| unchanged | \(summary.unchanged) | |\n\n"
            if !changedInputs.isEmpty {
                let shown = changedInputs.prefix(20).map { Self.code($0, max: 120) }.joined(separator: ", ")
                head += "Changed inputs: \(shown)\(changedInputs.count > 20 ? " and \(changedInputs.count - 20) more" : "").\n\n"
            }
            head += described
                ? "Each row is one view of one payload: its variants (device × appearance × locale × text size) are folded into it, and one of them is shown"
                : "Each row is one mock-up (the sides have no report.json to group them by), shown"
            head += " as before · after · difference, the card cropped at half its device pixels. "
            if let base = publishedBase {
                head += "Images from [\(Self.escaped(base))](\(base)).\n"
            } else {
                head += "No images here (no `--image-base-url`): each row names its picture in \(artefact).\n"
            }
        } else if failures.isEmpty {
            head += "No mock-up changed.\n"
        } else {
            head += "No mock-up changed in what could be compared.\n"
        }
        var body = head
        var shownRows = 0, lastPayload: String?
        for group in groups {
            var piece = ""
            if group.payload != lastPayload {
                piece += "\n#### " + Self.code(group.payload, max: 200)
                if !group.causes.isEmpty { piece += " — " + group.causes.prefix(6).map { Self.code($0, max: 120) }.joined(separator: ", ") + (group.causes.count > 6 ? " …" : "") }
                piece += "\n\n| view | change | variants | shown: before · after · difference |\n|---|---|---|---|\n"
            }
            piece += row(group)
            guard (body + piece).utf16.count + Self.footerReserve <= budget else { break }
            body += piece
            shownRows += 1
            lastPayload = group.payload
        }
        let left = groups.dropFirst(shownRows)
        body += "\n"
        if !left.isEmpty {
            let payloads = Set(left.map(\.payload)).count
            body += "**… and \(left.count) more row\(left.count == 1 ? "" : "s")** (\(left.flatMap(\.mockups).count) mock-ups of \(payloads) payload\(payloads == 1 ? "" : "s")), "
            body += "past this comment's \(budget)-character budget: see \(fullDiff).\n"
        } else if summary.anyChange || !failures.isEmpty {
            body += "The full diff: \(fullDiff).\n"
        }
        return body
    }

    /// The failures, first: each named with its error, as many as `room` characters hold.
    func failureList(room: Int) -> String {
        guard !failures.isEmpty else { return "" }
        var out = "**Failed** (what failed is missing from the comparison below):\n"
        for (i, f) in failures.enumerated() {
            let line = "- \(f.side.label): \(Self.code(f.subject, max: 200)): \(Self.code(f.message, max: 600))\n"
            guard (out + line).utf16.count <= room else {
                out += "- … and \(failures.count - i) more, listed in \(fullDiff)\n"
                break
            }
            out += line
        }
        return out + "\n"
    }

    func row(_ g: ChangeGroup) -> String {
        var change = g.kind.rawValue
        if g.kind == .changed, g.note == nil {
            change += g.least == g.most ? String(format: ", %.2f%% of pixels", g.most * 100)
                : String(format: ", %.2f–%.2f%% of pixels", g.least * 100, g.most * 100)
        }
        var variants = "\(g.mockups.count) of \(g.of)"
        if described {
            var axes = [Self.axis(g.devices, "devices"), Self.axis(g.appearances, "appearances")]
            if !g.locales.isEmpty { axes.append(Self.axis(g.locales, "locales")) }
            if g.textSizes != ["large"], !g.textSizes.isEmpty { axes.append(Self.axis(g.textSizes, "text sizes")) }
            variants += ": " + axes.joined(separator: " × ")
        }
        var shown: String
        if let note = g.note {
            shown = "not compared: " + Self.code(note, max: 300)
        } else if let image = g.image {
            let label = "\(g.view), \(g.shown ?? g.representative)"
            if let base = publishedBase {
                let size = g.imageSize.map { " width=\"\($0[0])\" height=\"\($0[1])\"" } ?? ""
                shown = "<img src=\"\(escapeHTML(base + Self.urlPath(image)))\"\(size) alt=\"\(escapeHTML(label))\">"
            } else {
                shown = Self.code(image, max: 300) + " (\(escapeHTML(g.shown ?? "")))"
            }
        } else {
            shown = "no picture could be made"
        }
        return "| \(Self.tableCell(g.view)) | \(change) | \(Self.tableCell(variants)) | \(shown) |\n"
    }

    /// Where the images are when they are not shown: the artefact, named.
    var artefact: String {
        if let url = artifactURL, !url.isEmpty { return "the `\(Self.plain(folderName))` artefact of [this run](\(url))" }
        return "the diff folder (`\(Self.plain(folderName))`)"
    }

    /// The full diff page: published, else in the artefact.
    var fullDiff: String {
        if let base = publishedBase { return "[the full diff](\(base)index.html)" }
        return "`index.html` in " + artefact
    }

    /// ≤ 3 values listed, else counted ("6 locales").
    static func axis(_ values: [String], _ plural: String) -> String {
        values.count <= 3 ? values.joined(separator: ", ") : "\(values.count) \(plural)"
    }

    /// Text as inline code, on one line and at most `max` characters: nothing in it is markdown,
    /// HTML, a mention or a table's `|`.
    static func code(_ text: String, max: Int) -> String {
        var t = String(text.map { $0.isNewline || $0 == "\t" ? " " : $0 })
        if t.count > max { t = String(t.prefix(max - 1)) + "…" }
        t = t.replacingOccurrences(of: "|", with: "\\|")
        var longest = 0, run = 0
        for c in t { run = c == "`" ? run + 1 : 0; longest = Swift.max(longest, run) }
        let fence = String(repeating: "`", count: longest + 1)
        let pad = t.hasPrefix("`") || t.hasSuffix("`") || t.isEmpty ? " " : ""
        return fence + pad + t + pad + fence
    }

    /// Text in a table cell: escaped as HTML and markdown, `|` kept from ending the cell.
    static func tableCell(_ text: String) -> String { escaped(text).replacingOccurrences(of: "|", with: "\\|") }

    /// Markdown's and HTML's active characters escaped, and `@` kept from mentioning anyone.
    static func escaped(_ text: String) -> String {
        var out = ""
        for c in text {
            switch c {
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "&": out += "&amp;"
            case "\\", "`", "*", "_", "[", "]", "#", "~", "!", "|": out += "\\" + String(c)
            case "@": out += "@\u{200B}"
            case "\n", "\r", "\t": out += " "
            default: out.append(c)
            }
        }
        return out
    }

    /// A name for inside a code span the comment writes itself (no backtick, on one line).
    static func plain(_ text: String) -> String { text.filter { $0 != "`" && !$0.isNewline } }

    /// A relative path as a URL path, each segment percent-encoded.
    static func urlPath(_ path: String) -> String {
        path.split(separator: "/").map { $0.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/?#"))) ?? String($0) }
            .joined(separator: "/")
    }
}
