import ConfinedFiles
import ContentStage
import Foundation
import PushPreview
import Typography

enum DevicesCommand {
    static let spec = CommandSpec(
        name: "devices", synopsis: ["devices [--project DIR] [--json]"], summary: "list device profiles",
        about: """
        Lists the device profiles (Templates/system/devices.json, plus the project's devices.json):
        id (for --device), name, screen width, scale, notification width, custom-view height limit.
        """,
        options: [
            .value("project", "DIR", "the project whose devices.json adds profiles (default Examples)", completes: .folder),
            .flag("json", "one JSON object per device profile"),
        ],
        exits: [.init(0, "listed"), .init(1, "a devices.json could not be read"), .init(2, "usage")])

    static func run(_ argv: [String]) -> Int32 {
        let a: Arguments
        do {
            a = try Arguments(argv, Self.spec)
            guard a.positionals.isEmpty else { throw Arguments.UsageError(description: "devices takes no PATH; use --project DIR") }
        } catch { return usageError(spec, error) }
        guard let templates = repositoryTemplatesOrExplain() else { return 1 }
        let project = a.value("project") ?? "Examples"
        let devices: [DeviceProfile]
        do {
            devices = try DeviceProfile.catalog(templates: templates, project: try? ConfinedFolder(trusted: URL(fileURLWithPath: project)))
        } catch {
            printError("pushpreview devices: \(error)")
            return 1
        }
        if a.flags.contains("json") { devices.forEach { printJSON($0) }; return 0 }
        for d in devices {
            let id = d.id.padding(toLength: 20, withPad: " ", startingAt: 0)
            let name = d.name.padding(toLength: 28, withPad: " ", startingAt: 0)
            let size = "\(formatNumber(d.width))×\(formatNumber(d.height)) pt".padding(toLength: 14, withPad: " ", startingAt: 0)
            print("\(id)\(name)\(size)@\(d.scale)x  safe area \(formatNumber(d.safeArea.top))/\(formatNumber(d.safeArea.bottom))  notification \(formatNumber(d.notificationWidth)) pt  custom view ≤ \(formatNumber(d.customViewHeightLimit)) pt")
        }
        return 0
    }
}
