import ContentStage
import PushPreview

enum DevicesCommand {
    static let help = """
    usage: pushpreview devices [--json]

    Lists the device profiles: id (for --device), name, width in points, scale, custom-view height limit.
    """

    static func run(_ argv: [String]) -> Int32 {
        if argv.contains("--help") { print(help); return 0 }
        if argv.contains("--json") { DeviceProfile.all.forEach { printJSON($0) }; return 0 }
        for d in DeviceProfile.all {
            let id = d.id.padding(toLength: 20, withPad: " ", startingAt: 0)
            let name = d.name.padding(toLength: 28, withPad: " ", startingAt: 0)
            print("\(id)\(name)\(Int(d.width)) pt  @\(d.scale)x  custom view ≤ \(Int(d.customViewHeightLimit)) pt")
        }
        return 0
    }
}
