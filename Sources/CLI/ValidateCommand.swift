import Foundation
import Diagnostics
import PushPreview

enum ValidateCommand {
    static let spec = CommandSpec(
        name: "validate", synopsis: ["validate PATH... [options]"], summary: "check a project, payloads or templates; writes nothing",
        about: """
        Checks without rendering or writing anything. PATH is a project folder (its pushpreview.json,
        Info.plist files, categories.json, payloads and templates, against each other), a payload
        file (it and its project's configuration) or a template file (with placeholder data).
        Errors and warnings name the file and the line, key path or JSON path.
        """,
        positionals: [.init(name: "PATH", completes: .file)],
        options: [
            .value("project", "DIR", "the project a payload or template belongs to (default: found from the path)", completes: .folder),
            .flag("json", "one JSON object per finding: severity, code, file, line, column, keyPath, message, category, locale (each absent when unknown)"),
        ] + WorkerPlan.options(timeout: "seconds the checks of one PATH may take in their worker before they are stopped (default 120)",
                               memory: "memory that worker may use before it is stopped (default 1024)"),
        exits: [.init(0, "no errors (warnings allowed)"), .init(1, "errors found"), .init(2, "usage")])

    static func run(_ argv: [String]) -> Int32 {
        let a: Arguments
        let plan: WorkerPlan
        do {
            a = try Arguments(argv, Self.spec)
            plan = try WorkerPlan(a)
            guard !a.positionals.isEmpty else { throw Arguments.UsageError(description: "give at least one PATH (a project folder, payload or template)") }
        } catch { return usageError(Self.spec, error) }
        guard let templates = repositoryTemplatesOrExplain() else { return 1 }
        var errors = 0, warnings = 0
        for path in a.positionals {
            // In a worker of its own: a repository whose checks trap or hang is one error.
            let task = ContainedTask.validate(path: URL(fileURLWithPath: path), project: a.value("project").map { URL(fileURLWithPath: $0) }, templates: templates)
            let findings: [Diagnostic]
            switch plan.perform(task, [Diagnostic].self, activity: "checking \(path)") {
            case .success(let f): findings = f
            case .failure(let failure): findings = [Diagnostic(.error, code: .worker, file: path, "\(failure)")]
            }
            for finding in findings {
                if a.flags.contains("json") { printJSON(finding) } else { print(finding.printed) }
                if finding.severity == .error { errors += 1 } else { warnings += 1 }
            }
        }
        if !a.flags.contains("json") { printError("\(errors) error(s), \(warnings) warning(s)") }
        return errors > 0 ? 1 : 0
    }
}
