import ContentStage
import Diagnostics
import Foundation
import PushPreview
import Styling
import Typography

enum RenderCommand {
    static let help = """
    usage: pushpreview render PAYLOAD... [options]

    Renders each payload (.apns or .json) to Output/PAYLOAD/DEVICE-APPEARANCE[-LOCALE][-TEXTSIZE]-VIEW.png and .html,
    where VIEW is expanded (the long-look), banner (collapsed), for a category with a text-input action,
    reply, and with --view, lockscreen and notification-center.

      --project DIR       project folder (default: the payload's project, else Examples)
      --out DIR           output folder (default Output)
      --device LIST       device profiles, e.g. iphone-15,ipad-pro-11 (default: the project's, else iphone-15)
      --appearance LIST   light,dark (default light)
      --locale LIST       e.g. en,nl (adds the locale to file names; default: the project's)
      --format LIST       html,png (default both)
      --text-size LIST    Dynamic Type sizes: xSmall, small, medium, large (default), xLarge, xxLarge, xxxLarge,
                          accessibility1 … accessibility5 (a size other than large is in the file names)
      --view LIST         optional views: lockscreen, notification-center (the notification on the Lock
                          Screen, or in Notification Center's list under the clock)
      --template FILE     a custom-view template (HTML + Mustache) instead of the category's
      --show-limits       draw the custom view whole, with its height cap and the clipped part marked
      --media-state S     paused (default) or playing: how the media play/pause button is drawn
      --hidden-previews   the banner as with previews hidden (written as -banner-hidden)
      --time-budget S     service-stage budget in seconds (default: the project's, else 30)
      --font-dir DIR      more fonts to load (Inter and Noto Color Emoji are always loaded)
      --layout-json       also write the laid-out boxes as DEVICE-…-expanded.layout.json
      --json              one JSON object per mock-up on stdout
      --timeout S         seconds one payload may take before it is stopped (default 120); reading a
                          project (its Xcode app, strings and template checks) has the same limit
      --max-memory MB     memory the renderer may use before a payload is stopped (default 1024)
    Payloads are drawn, and projects read, in worker processes: one that crashes or hangs fails alone.
    """

    static func run(_ argv: [String]) -> Int32 {
        if argv.contains("--help") { print(help); return 0 }
        let a: Arguments
        var options: RenderOptions
        let plan: WorkerPlan
        do {
            a = try Arguments(argv, valued: RenderOptions.sharedValued.union(["project", "template", "jobs"]),
                              flags: RenderOptions.sharedFlags.union(["json", "layout-json"]))
            guard !a.positionals.isEmpty else { throw Arguments.UsageError(description: "give at least one PAYLOAD file") }
            options = try RenderOptions(a, defaultAppearances: [.light])
            options.layoutJSON = a.flags.contains("layout-json")
            options.template = a.value("template").map { URL(fileURLWithPath: $0) }
            plan = try WorkerPlan(a)
            if a.value("jobs") != nil { printError("pushpreview render: note: --jobs is for gallery; render draws its payloads one after another") }
        } catch {
            printError("pushpreview render: \(error)\n\n\(help)")
            return 2
        }

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
            do { known.formUnion(try DeviceProfile.catalog([templates.appendingPathComponent("system/devices.json"), folder.appendingPathComponent("devices.json")]).map(\.id)) } catch {
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
            if projectOptions.devices.isEmpty { projectOptions.devices = project.devices.isEmpty ? [DeviceProfile.standardID] : project.devices }
            if projectOptions.locales.isEmpty { projectOptions.locales = project.locales }
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
