import ContentStage
import Foundation
import PushPreview
import Styling
import Typography

enum RenderCommand {
    static let help = """
    usage: pushpreview render PAYLOAD... [options]

    Renders each payload (.apns or .json) to Output/PAYLOAD/DEVICE-APPEARANCE[-LOCALE]-expanded.png and .html.

      --project DIR       project folder (default: the payload's project, else Examples)
      --out DIR           output folder (default Output)
      --device LIST       device profiles, e.g. iphone-15,ipad-pro-11 (see: pushpreview devices)
      --appearance LIST   light,dark (default light)
      --locale LIST       e.g. en,nl (adds the locale to file names)
      --format LIST       html,png (default both)
      --template FILE     a custom-view template (HTML + Mustache), drawn in place of the attachment
      --time-budget S     service-stage budget in seconds (default: the project's, else 30)
      --font-dir DIR      more fonts to load (Inter and Noto Color Emoji are always loaded)
      --layout-json       also write the laid-out boxes as DEVICE-…-expanded.layout.json
      --json              one JSON object per mock-up on stdout
    """

    static func run(_ argv: [String]) -> Int32 {
        if argv.contains("--help") { print(help); return 0 }
        let a: Arguments
        var options = RenderOptions()
        do {
            a = try Arguments(argv, valued: ["project", "out", "device", "appearance", "locale", "format", "font-dir", "template", "time-budget", "jobs"],
                              flags: ["json", "layout-json"])
            guard !a.positionals.isEmpty else { throw Arguments.UsageError(description: "give at least one PAYLOAD file") }
            options.devices = try a.list("device").map { id in
                guard let d = DeviceProfile.named(id) else { throw Arguments.UsageError(description: "unknown device '\(id)'; see: pushpreview devices") }
                return d
            }
            if options.devices.isEmpty { options.devices = [.standard] }
            options.appearances = try a.list("appearance").map { v in
                guard let ap = Appearance(rawValue: v) else { throw Arguments.UsageError(description: "--appearance takes light and/or dark, not '\(v)'") }
                return ap
            }
            if options.appearances.isEmpty { options.appearances = [.light] }
            options.locales = a.list("locale")
            let formats = a.list("format")
            if !formats.isEmpty {
                guard formats.allSatisfy(["html", "png"].contains) else { throw Arguments.UsageError(description: "--format takes html and/or png") }
                options.formats = Set(formats)
            }
            options.outputFolder = URL(fileURLWithPath: a.value("out") ?? "Output")
            options.layoutJSON = a.flags.contains("layout-json")
            if let budget = a.value("time-budget") {
                guard let seconds = Double(budget), seconds > 0, seconds <= 600 else { throw Arguments.UsageError(description: "--time-budget takes seconds, 0 < S ≤ 600") }
                options.timeBudget = seconds
            }
            options.template = a.value("template").map { URL(fileURLWithPath: $0) }
        } catch {
            printError("pushpreview render: \(error)\n\n\(help)")
            return 2
        }

        guard let templates = repositoryTemplates() else {
            printError("pushpreview: cannot find the Templates/ folder; set PUSHPREVIEW_HOME to the repository")
            return 1
        }
        let renderer: MockupRenderer
        do {
            renderer = try MockupRenderer(fonts: try FontSet.standard(extraDirectories: a.list("font-dir")), templates: templates)
        } catch {
            printError("pushpreview: \(error)")
            return 1
        }
        var failed = false
        for path in a.positionals {
            let file = URL(fileURLWithPath: path)
            let projectFolder = a.value("project").map { URL(fileURLWithPath: $0) } ?? Project.folder(containing: file)
            let project: Project
            do { project = try Project(folder: projectFolder) } catch {
                printError("\(error)")
                failed = true
                continue
            }
            for result in renderer.render(payloadFile: file, project: project, options: options) {
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
