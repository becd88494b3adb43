import Foundation
import Diagnostics
import PushPreview

enum ValidateCommand {
    static let help = """
    usage: pushpreview validate PATH... [--project DIR] [--json]

    Checks without rendering or writing anything. PATH is a project folder (its pushpreview.json,
    Info.plist files, categories.json, payloads and templates, against each other), a payload
    file (it and its project's configuration) or a template file (with placeholder data).
    Errors and warnings name the file and the line, key path or JSON path.

      --project DIR   the project a payload or template belongs to (default: found from the path)
      --json          one JSON object per finding: {"severity", "code", "file", "line", "column",
                      "keyPath", "message", "category", "locale"} (absent when unknown)
    exit status: 0 no errors (warnings allowed); 1 errors found; 2 usage
    """

    static func run(_ argv: [String]) -> Int32 {
        if argv.contains("--help") { print(help); return 0 }
        let a: Arguments
        do {
            a = try Arguments(argv, valued: ["project"], flags: ["json"])
            guard !a.positionals.isEmpty else { throw Arguments.UsageError(description: "give at least one PATH (a project folder, payload or template)") }
        } catch {
            printError("pushpreview validate: \(error)\n\n\(help)")
            return 2
        }
        guard let templates = repositoryTemplatesOrExplain() else { return 1 }
        let validator = Validator(templates: templates)
        var errors = 0, warnings = 0
        for path in a.positionals {
            for finding in validator.validate(URL(fileURLWithPath: path), project: a.value("project").map { URL(fileURLWithPath: $0) }) {
                if a.flags.contains("json") { printJSON(finding) } else { print(finding.printed) }
                if finding.severity == .error { errors += 1 } else { warnings += 1 }
            }
        }
        if !a.flags.contains("json") { printError("\(errors) error(s), \(warnings) warning(s)") }
        return errors > 0 ? 1 : 0
    }
}
