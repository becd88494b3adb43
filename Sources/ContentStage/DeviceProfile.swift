import ConfinedFiles
import Foundation
import Payload
import Formats

/// A device a mock-up is drawn for. The profiles are data: `Templates/system/devices.json`, plus
/// a project's own `devices.json` (same shape; an id already known replaces that profile).
public struct DeviceProfile: Sendable, Equatable, Codable {
    public var id: String
    public var name: String
    /// Screen width in points (portrait).
    public var width: Double
    public var scale: Int
    public var isPad: Bool
    /// The notification platter's width in points: the custom view's width.
    public var notificationWidth: Double
    /// The custom view's height cap: 320 pt on iPhone, 352 pt on iPad.
    public var customViewHeightLimit: Double
    /// Screen height in points (portrait), for the Lock Screen view.
    public var height: Double
    /// The portrait safe area's top and bottom insets (`UIWindow.safeAreaInsets`) as the iOS 26
    /// Simulator reports them; nil in reports made before profiles had them.
    public var safeAreaTop: Double?, safeAreaBottom: Double?

    /// The safe area's insets; a profile without them (a project's older `devices.json`) gets
    /// its kind's: a Home-button iPhone's 20/0, a Face ID iPhone's 59/34, an iPad's 32/25.
    public var safeArea: (top: Double, bottom: Double) {
        let faceID = isPad || height >= 812
        return (safeAreaTop ?? (isPad ? 32 : faceID ? 59 : 20), safeAreaBottom ?? (isPad ? 25 : faceID ? 34 : 0))
    }

    /// The profile used when none is asked for: the current base iPhone (the older ids stay).
    public static let standardID = "iphone-17"

    /// Reads `{"devices": [...]}`; every field is required and checked.
    public static func read(_ data: [UInt8], file: String) throws(ConfigError) -> [DeviceProfile] {
        let json: JSONValue
        do { json = try JSONParser.parse(data, file: file) } catch { throw ConfigError(error.description) }
        guard case .array(let items)? = json["devices"] else { throw ConfigError("\(file): devices: expected an array of device profiles") }
        return try items.enumerated().map { (i, item) throws(ConfigError) in
            let at = "\(file): devices[\(i)]"
            func number(_ key: String, _ range: ClosedRange<Double>) throws(ConfigError) -> Double {
                guard let n = item[key]?.number, range.contains(n) else { throw ConfigError("\(at).\(key): expected a number in \(range)") }
                return n
            }
            guard let id = item["id"]?.string, !id.isEmpty, !id.contains(where: { $0 == "/" || $0 == "," || $0.isWhitespace }) else {
                throw ConfigError("\(at).id: expected a non-empty string without spaces, commas or slashes")
            }
            guard let name = item["name"]?.string else { throw ConfigError("\(at).name: expected a string") }
            guard case .bool(let isPad)? = item["isPad"] else { throw ConfigError("\(at).isPad: expected true or false") }
            let width = try number("width", 200...2000)
            // A profile written before the Lock Screen view had no height: a 19.5:9 screen's.
            let height = item["height"] == nil ? (width * 852 / 393).rounded() : try number("height", 200...4000)
            func inset(_ key: String) throws(ConfigError) -> Double? { item[key] == nil ? nil : try number(key, 0...(height / 4).rounded()) }
            return DeviceProfile(id: id, name: name, width: width, scale: Int(try number("scale", 1...3)), isPad: isPad,
                                 notificationWidth: try number("notificationWidth", 100...width), customViewHeightLimit: try number("customViewHeightLimit", 50...2000),
                                 height: height, safeAreaTop: try inset("safeAreaTop"), safeAreaBottom: try inset("safeAreaBottom"))
        }
    }

    /// The tool's profiles (`Templates/system/devices.json`), then the project's own
    /// `devices.json` (read beneath its folder), later ids replacing earlier ones.
    public static func catalog(templates: URL, project: ConfinedFolder? = nil) throws(ConfigError) -> [DeviceProfile] {
        let tool = templates.appendingPathComponent("system/devices.json")
        var sources: [(bytes: [UInt8], file: String)] = []
        do { sources.append((try TrustedFiles.read(tool, limit: 1 << 20), tool.path)) } catch { throw ConfigError(error.description) }
        if let project {
            do { sources.append((try project.read("devices.json", limit: 1 << 20), project.url.appendingPathComponent("devices.json").path)) } catch {
                if !error.isMissing { throw ConfigError(error.description) }
            }
        }
        var out: [DeviceProfile] = []
        for (bytes, file) in sources {
            for p in try read(bytes, file: file) {
                if let i = out.firstIndex(where: { $0.id == p.id }) { out[i] = p } else { out.append(p) }
            }
        }
        return out
    }
}

public struct ConfigError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
