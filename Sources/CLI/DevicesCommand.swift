import ContentStage
import Foundation
import PushPreview
import Typography

enum DevicesCommand {
    static let help = """
    usage: pushpreview devices [--project DIR] [--json]

    Lists the device profiles (Templates/system/devices.json, plus the project's devices.json):
    id (for --device), name, screen width, scale, notification width, custom-view height limit.
    """

    static func run(_ argv: [String]) -> Int32 {
        if argv.contains("--help") { print(help); return 0 }
        guard let templates = repositoryTemplatesOrExplain() else { return 1 }
        let project = argv.firstIndex(of: "--project").flatMap { argv.indices.contains($0 + 1) ? argv[$0 + 1] : nil } ?? "Examples"
        let devices: [DeviceProfile]
        do {
            devices = try DeviceProfile.catalog([templates.appendingPathComponent("system/devices.json"),
                                                 URL(fileURLWithPath: project).appendingPathComponent("devices.json")])
        } catch {
            printError("pushpreview devices: \(error)")
            return 1
        }
        if argv.contains("--json") { devices.forEach { printJSON($0) }; return 0 }
        for d in devices {
            let id = d.id.padding(toLength: 20, withPad: " ", startingAt: 0)
            let name = d.name.padding(toLength: 28, withPad: " ", startingAt: 0)
            print("\(id)\(name)\(formatNumber(d.width)) pt  @\(d.scale)x  notification \(formatNumber(d.notificationWidth)) pt  custom view ≤ \(formatNumber(d.customViewHeightLimit)) pt")
        }
        return 0
    }
}
