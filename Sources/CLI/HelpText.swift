import Foundation

/// `--help`, the top-level usage and the README's tables, made from the command tables.
extension CommandSpec {
    /// What `pushpreview COMMAND --help` prints.
    var help: String {
        var lines = synopsis.enumerated().map { ($0.offset == 0 ? "usage: " : "       ") + "pushpreview " + $0.element }
        if !about.isEmpty { lines += [""] + about.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
        let rows = options.map { ($0.usage, $0.help) } + [("-h, --help", "show this help")]
        let width = max(20, (rows.map(\.0.count).max() ?? 0) + 2)
        lines.append("")
        for (usage, text) in rows {
            let wrapped = Self.wrap(text, width: 100 - 2 - width)
            lines.append("  " + usage.padding(toLength: width, withPad: " ", startingAt: 0) + wrapped[0])
            lines += wrapped.dropFirst().map { String(repeating: " ", count: 2 + width) + $0 }
        }
        if !notes.isEmpty { lines += notes.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
        let status = Self.wrap("exit status: " + exits.map { "\($0.status) \($0.meaning)" }.joined(separator: "; "), width: 100)
        lines += [status[0]] + status.dropFirst().map { "  " + $0 }
        return lines.joined(separator: "\n")
    }

    /// The README's option table: `| option | meaning |`.
    var markdownOptions: String {
        (["| option | meaning |", "|---|---|"] + options.map { "| `\($0.usage)` | \(Self.cell($0.help)) |" }).joined(separator: "\n")
    }

    /// Words in lines of at most `width` characters (a longer word stands alone).
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty, line.count + 1 + word.count > width { lines.append(line); line = "" }
            line += (line.isEmpty ? "" : " ") + word
        }
        return lines + [line]
    }

    /// Text for a markdown table cell: `|` would end it.
    static func cell(_ text: String) -> String { text.replacingOccurrences(of: "|", with: "\\|") }
}

extension [CommandSpec] {
    /// What `pushpreview`, `pushpreview help` and `pushpreview --help` print.
    var usage: String {
        // Each command with its positionals; its options are in its own help.
        let lines = map { spec in (spec.synopsis[0].split(separator: " ").prefix { !$0.hasPrefix("--") && !$0.hasPrefix("[-") && $0 != "[options]" }.joined(separator: " "), spec.summary) }
        let width = (lines.map(\.0.count).max() ?? 0) + 2
        return (["usage: pushpreview COMMAND [options]", ""] + lines.map { "  " + $0.0.padding(toLength: width, withPad: " ", startingAt: 0) + $0.1 } + ["",
            "Run 'pushpreview help COMMAND' (or 'pushpreview COMMAND --help') for a command's options and exit statuses",
            "(2 is always a usage error)."]).joined(separator: "\n")
    }

    /// The README's table of exit statuses: one row per command, one column per status any uses.
    var markdownExits: String {
        let statuses = Set(flatMap { $0.exits.map(\.status) }).sorted()
        let header = "| command | " + statuses.map { "exit \($0)" }.joined(separator: " | ") + " |"
        let rule = "|---|" + String(repeating: "---|", count: statuses.count)
        let rows = map { spec in
            "| `\(spec.name)` | " + statuses.map { s in spec.exits.first { $0.status == s }.map { CommandSpec.cell($0.meaning) } ?? "—" }.joined(separator: " | ") + " |"
        }
        return ([header, rule] + rows).joined(separator: "\n")
    }

    /// What `help --markdown` prints: every README table made from the command tables, each
    /// between the markers the README holds it in (a command without options has none).
    var markdown: String {
        let blocks = filter { !$0.options.isEmpty }.map { ("options \($0.name)", $0.markdownOptions) } + [("exit-status", markdownExits)]
        return blocks.map { "<!-- generated: \($0.0) -->\n\($0.1)\n<!-- end generated -->" }.joined(separator: "\n\n")
    }
}
