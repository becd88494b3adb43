import ConfinedFiles
import ContentStage
import Diagnostics
import Foundation
import PushPreview
import Styling
import Typography
import ProjectImport

enum RenderCommand {
    static let spec = CommandSpec(
        name: "render", synopsis: ["render PAYLOAD... [options]"], summary: "render each payload file (.apns or .json)",
        about: """
        Renders each payload (.apns or .json) to Output/PAYLOAD/DEVICE-APPEARANCE[-LOCALE][-TEXTSIZE]-VIEW.png and .html,
        where VIEW is expanded (the long-look), banner (collapsed), for a category with a text-input action,
        reply, and with --view, lockscreen and notification-center.
        """,
        positionals: [.init(name: "PAYLOAD", completes: .file)],
        options: [
            .value("project", "DIR", "project folder (default: the folder above the payload's payloads/, else the payload's own folder)", completes: .folder),
            .value("template", "FILE", "a custom-view template (HTML + Mustache) instead of the category's", completes: .file),
        ] + RenderOptions.sharedOptions(appearances: "light", views: "lockscreen (the notification on the Lock Screen: wallpaper, date, clock, the flashlight and camera buttons where the iPhone has them), notification-center (the same screen with the notification in Notification Center's list under the clock)") + [
            .flag("layout-json", "also write every laid-out box (id, tag, classes, x, y, width, height in pt) as DEVICE-…-expanded.layout.json"),
            .flag("json", "one JSON object per mock-up on stdout: output paths, service trace, warnings, errors, and those again as findings (severity, code, file, line, column, key path, message)"),
            .value("jobs", "N", "for gallery; render draws its payloads one after another (and says so)"),
        ],
        notes: "Payloads are drawn, and projects read, in worker processes: one that crashes or hangs fails alone.",
        exits: [.init(0, "all rendered"), .init(1, "some inputs failed or their project has errors (the others are still rendered, each failure reported with its file and position)"),
                .init(2, "usage (an unknown option or device, a bad value)")])

    static func run(_ argv: [String]) -> Int32 {
        let a: Arguments
        var options: RenderOptions
        let plan: WorkerPlan
        do {
            a = try Arguments(argv, Self.spec)
            guard !a.positionals.isEmpty else { throw Arguments.UsageError(description: "give at least one PAYLOAD file") }
            options = try RenderOptions(a, defaultAppearances: [.light])
            options.layoutJSON = a.flags.contains("layout-json")
            options.template = a.value("template").map { URL(fileURLWithPath: $0) }
            plan = try WorkerPlan(a)
            if a.value("jobs") != nil { printError("pushpreview render: note: --jobs is for gallery; render draws its payloads one after another") }
        } catch { return usageError(Self.spec, error) }

        guard let templates = repositoryTemplatesOrExplain() else { return 1 }
        let slot: RenderSlot
        do {
            slot = RenderSlot(plan: plan, templates: templates, fonts: try FontSet.standard(extraDirectories: a.list("font-dir")))
        } catch {
            printError("pushpreview: \(error)")
            return 1
        }
        defer { slot.finish() }
        // Device ids are checked up front against every profile the payloads' projects know.
        let projectFolders = Set(a.positionals.map { a.value("project").map { URL(fileURLWithPath: $0) } ?? Project.folder(containing: URL(fileURLWithPath: $0)) })
        var known: Set<String> = []
        for folder in projectFolders {
            do { known.formUnion(try DeviceProfile.catalog(templates: templates, project: try? ConfinedFolder(trusted: folder)).map(\.id)) } catch {
                printError("pushpreview render: \(error)")
                return 1
            }
        }
        if let unknown = options.devices.first(where: { !known.contains($0) }) {
            printError("pushpreview render: unknown device '\(unknown)'; see: pushpreview devices")
            return 2
        }
        var failed = false
        // A project's settings, Info.plists and categories are read once, however many of its payloads are given.
        var projects: [URL: Result<Project, ProjectError>] = [:]
        for path in a.positionals {
            let file = URL(fileURLWithPath: path)
            let projectFolder = a.value("project").map { URL(fileURLWithPath: $0) } ?? Project.folder(containing: file)
            if projects[projectFolder] == nil {
                let read = Result { () throws(ProjectError) in try Project.read(folder: projectFolder, templates: templates, workers: plan) }
                projects[projectFolder] = read.map(\.project)
                // The project's own issues, once, with the severity validate gives them.
                for finding in (try? read.get().findings) ?? [] {
                    printError(finding.printed)
                    if finding.severity == .error { failed = true }
                }
            }
            let project: Project
            switch projects[projectFolder]! {
            case .success(let p): project = p
            case .failure(let error):
                printError("\(error)")
                failed = true
                continue
            }
            var projectOptions = options
            projectOptions.axes.fill(from: project)
            for result in slot.render(file, project: project, options: projectOptions, name: path) {
                if a.flags.contains("json") { printJSON(result) }
                else {
                    for output in result.outputs { print(output) }
                    for warning in result.warnings { printError("warning: \(warning)") }
                }
                for error in result.errors { printError("error: \(error)") }
                if !result.errors.isEmpty { failed = true }
            }
        }
        return failed ? 1 : 0
    }
}
