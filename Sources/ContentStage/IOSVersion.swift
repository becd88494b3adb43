/// The iOS version whose system chrome a mock-up draws (`--ios`). What differs between versions is
/// named once, in `IOSVersion.Difference`; the numbers behind each difference are data beside the
/// templates (`Templates/system/ios18/`, `ios26/`), never literals in Swift or CSS.
public enum IOSVersion: String, Sendable, CaseIterable, Codable, Comparable {
    case ios26 = "26"
    case ios18 = "18"

    /// What most iPhones run (Apple's App Store figures, June 2026), and what is drawn unless asked.
    public static let standard = IOSVersion.ios26

    /// `--ios 26`, `--ios 18`, and `27`, which draws as 26 until a source says otherwise.
    public init?(argument: String) {
        let v = argument.lowercased().hasPrefix("ios") ? String(argument.dropFirst(3)) : argument
        switch v {
        case "26", "27": self = .ios26
        case "18": self = .ios18
        default: return nil
        }
    }

    /// The versions the command line and pushpreview.json take.
    public static let accepted = ["26", "18"]

    public var number: Int { Int(rawValue)! }
    public static func < (a: IOSVersion, b: IOSVersion) -> Bool { a.number < b.number }

    /// The ways the chrome of one version differs from iOS 18's, each a switch the templates read
    /// (`ios.glass`, …) or a data row overlaid from `Templates/system/ios26/`.
    public enum Difference: String, Sendable, CaseIterable {
        /// Short-look platters (banner, list, Lock Screen) are Liquid Glass: the backdrop blurred,
        /// brightened and tinted, a rim light and a 32 pt halo room, no drop shadow.
        case glassPlatter
        /// A thread's stack shows how many it holds as a badge on the app icon's top-trailing corner,
        /// not as an "N more notifications" line (capture frigate-lock-summary-stack-ios26).
        case stackCountBadge
    }

    public func has(_ d: Difference) -> Bool {
        switch d {
        case .glassPlatter, .stackCountBadge: return self >= .ios26
        }
    }
}
