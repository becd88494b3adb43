/// A device a mock-up is drawn for: its width in points, its scale, and the height limit of a
/// content extension's custom view.
public struct DeviceProfile: Sendable, Equatable, Codable {
    public var id: String
    public var name: String
    /// Screen width in points (portrait).
    public var width: Double
    public var scale: Int
    public var isPad: Bool
    /// The custom view's height cap: 320 pt on iPhone, 352 pt on iPad.
    public var customViewHeightLimit: Double { isPad ? 352 : 320 }

    public static let all: [DeviceProfile] = [
        DeviceProfile(id: "iphone-se-3", name: "iPhone SE (3rd generation)", width: 375, scale: 2, isPad: false),
        DeviceProfile(id: "iphone-15", name: "iPhone 15", width: 393, scale: 3, isPad: false),
        DeviceProfile(id: "iphone-15-pro-max", name: "iPhone 15 Pro Max", width: 430, scale: 3, isPad: false),
        DeviceProfile(id: "ipad-10", name: "iPad (10th generation)", width: 820, scale: 2, isPad: true),
        DeviceProfile(id: "ipad-pro-11", name: "iPad Pro 11-inch", width: 834, scale: 2, isPad: true),
    ]
    public static let standard = all[1]

    public static func named(_ id: String) -> DeviceProfile? { all.first { $0.id == id } }
}
