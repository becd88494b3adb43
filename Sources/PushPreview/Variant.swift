import ContentStage
import Styling

/// One point on the output's axes: which phone, appearance, locale, text size and iOS version a
/// mock-up is drawn for. File names, gallery order, card ids and groups come from it, never from a
/// list of its fields written out elsewhere; an axis is added here (and in `VariantAxes`) only.
public struct Variant: Sendable, Hashable {
    public var device: String
    public var appearance: Appearance
    /// Nil: the payload shows nothing localized, drawn once with no locale in its names.
    public var locale: String?
    public var textSize: TextSize
    public var ios: IOSVersion
    /// The glass a user set (iOS 26's Clear or Tinted); iOS 18 has none and draws `.clear`.
    public var glass: IOSChrome.Glass
    /// Reduce Transparency or Increase Contrast (what the page's @media rules are answered for).
    public var accessibility: AccessibilitySetting

    public init(device: String, appearance: Appearance, locale: String?, textSize: TextSize, ios: IOSVersion, glass: IOSChrome.Glass = .clear,
                accessibility: AccessibilitySetting = .standard) {
        (self.device, self.appearance, self.locale, self.textSize, self.ios, self.glass) = (device, appearance, locale, textSize, ios, glass)
        self.accessibility = accessibility
    }

    /// DEVICE-APPEARANCE[-LOCALE][-TEXTSIZE][-iosN][-GLASS][-ACCESSIBILITY]-VIEW: the default text
    /// size and accessibility setting are not named, the iOS version and the glass only when more
    /// than one is drawn (so a run of one keeps its names), and no glass on a version without it.
    public func stem(_ view: String, namesIOS: Bool, namesGlass: Bool = false) -> String {
        ([device, appearance.rawValue, locale, textSize == .standard ? nil : textSize.rawValue, namesIOS ? "ios" + ios.rawValue : nil,
          namesGlass && ios.has(.glassPlatter) ? glass.rawValue : nil, accessibility == .standard ? nil : accessibility.rawValue].compactMap { $0 } + [view])
            .joined(separator: "-")
    }

    /// The screen the page's @media rules are answered for.
    public var media: MediaFeatures { MediaFeatures(appearance: appearance, accessibility: accessibility) }

    /// The gallery card's name (the live page swaps cards by it).
    public func cardID(payload: String) -> String {
        ([payload, device, appearance.rawValue, locale ?? "", textSize.rawValue, ios.rawValue, glass.rawValue]
            + (accessibility == .standard ? [] : [accessibility.rawValue])).joined(separator: "|")
    }

    /// The payload and variant a card id names (the payload may hold `|`: the variant's six
    /// parts are the last, and a seventh when it names an accessibility setting, so the ids of
    /// cards approved before there was one still name them), or nil.
    public static func parse(cardID id: String) -> (payload: String, variant: Variant)? {
        var parts = id.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        let accessibility = parts.last.flatMap(AccessibilitySetting.init(rawValue:)).flatMap { $0 == .standard ? nil : $0 }
        if accessibility != nil { parts.removeLast() }
        guard parts.count >= 7, id.utf8.count <= 1024 else { return nil }
        let v = parts.suffix(6).map { $0 }, payload = parts.dropLast(6).joined(separator: "|")
        guard !payload.isEmpty, !v[0].isEmpty, let appearance = Appearance(rawValue: v[1]), let textSize = TextSize(rawValue: v[3]),
              let ios = IOSVersion(rawValue: v[4]), let glass = IOSChrome.Glass(rawValue: v[5]) else { return nil }
        return (payload, Variant(device: v[0], appearance: appearance, locale: v[2].isEmpty ? nil : v[2], textSize: textSize, ios: ios, glass: glass,
                                 accessibility: accessibility ?? .standard))
    }

    /// What a card says about its variant: "iPhone 15 · dark · nl · text size xLarge · iOS 18".
    public func caption(deviceName: String?, iosNamed: Bool) -> [String] {
        [deviceName ?? device, appearance.rawValue, locale, textSize == .standard ? nil : "text size " + textSize.rawValue, iosNamed ? "iOS " + ios.rawValue : nil,
         glass == .clear || !ios.has(.glassPlatter) ? nil : glass.rawValue + " glass", accessibility.caption]
            .compactMap { $0 }.filter { !$0.isEmpty }
    }

    /// The gallery's filters, one per axis: the select's label, the card's data attribute, its value.
    public static let filters: [(label: String, attribute: String, value: @Sendable (Variant) -> String)] = [
        ("Device", "device", { $0.device }), ("Appearance", "appearance", { $0.appearance.rawValue }), ("Locale", "locale", { $0.locale ?? "" }),
        ("Text size", "textsize", { $0.textSize.rawValue }), ("iOS", "ios", { $0.ios.rawValue }), ("Glass", "glass", { $0.glass.rawValue }),
        ("Accessibility", "accessibility", { $0.accessibility.rawValue }),
    ]
}

/// The values asked for on each axis, in the order asked for (`--device`, `--appearance`,
/// `--locale`, `--text-size`, `--ios`, or the project's settings).
public struct VariantAxes: Sendable, Codable, Equatable {
    public var devices: [String] = [DeviceProfile.standardID]
    public var appearances: [Appearance] = [.light]
    /// Empty: the development language only, and no locale in file names.
    public var locales: [String] = []
    public var textSizes: [TextSize] = [.standard]
    public var iosVersions: [IOSVersion] = [.standard]
    /// `--glass clear,tinted`: drawn for each iOS version that has glass.
    public var glassStyles: [IOSChrome.Glass] = [.clear]
    /// `--accessibility none,reduce-transparency,increase-contrast`.
    public var accessibilitySettings: [AccessibilitySetting] = [.standard]

    public init() {}

    /// The project's settings where the command line named nothing: one rule for every command.
    public mutating func fill(from project: Project) {
        if devices.isEmpty { devices = project.devices.isEmpty ? [DeviceProfile.standardID] : project.devices }
        if locales.isEmpty { locales = project.locales }
        if iosVersions.isEmpty { iosVersions = project.iosVersions.isEmpty ? [.standard] : project.iosVersions }
    }

    /// Every variant of one payload, devices outermost, then appearances, locales, text sizes and
    /// iOS versions. `localized: false`: one locale (none), the payload reads the same in all.
    public func variants(localized: Bool) -> [Variant] {
        let locales = self.locales.isEmpty || !localized ? [nil] : self.locales.map(Optional.some)
        var out: [Variant] = []
        for device in devices {
            for appearance in appearances {
                for locale in locales {
                    for textSize in textSizes {
                        for ios in iosVersions.isEmpty ? [.standard] : iosVersions {
                            for glass in ios.has(.glassPlatter) ? glassStyles : [.clear] {
                                for accessibility in accessibilitySettings {
                                    out.append(Variant(device: device, appearance: appearance, locale: locale, textSize: textSize, ios: ios, glass: glass,
                                                       accessibility: accessibility))
                                }
                            }
                        }
                    }
                }
            }
        }
        return out
    }

    /// Whether file names carry the iOS version: only when more than one is drawn.
    public var namesIOS: Bool { iosVersions.count > 1 }
    public var namesGlass: Bool { glassStyles.count > 1 }

    /// The axes' part of `--incremental`'s options hash.
    var hashKey: String {
        [devices.joined(separator: ","), appearances.map(\.rawValue).joined(separator: ","), locales.joined(separator: ","),
         textSizes.map(\.rawValue).joined(separator: ","), iosVersions.map(\.rawValue).joined(separator: ","),
         glassStyles.map(\.rawValue).joined(separator: ",")].joined(separator: "|")
            + (accessibilitySettings == [.standard] ? "" : "|" + accessibilitySettings.map(\.rawValue).joined(separator: ","))
    }

    /// A variant's place in the order asked for (unknown values last).
    public func rank(_ v: Variant) -> [Int] {
        [devices.firstIndex(of: v.device) ?? devices.count, v.locale.flatMap { locales.firstIndex(of: $0) } ?? -1,
         TextSize.allCases.firstIndex(of: v.textSize)!, iosVersions.firstIndex(of: v.ios) ?? iosVersions.count,
         glassStyles.firstIndex(of: v.glass) ?? glassStyles.count, accessibilitySettings.firstIndex(of: v.accessibility) ?? accessibilitySettings.count,
         appearances.firstIndex(of: v.appearance) ?? appearances.count]
    }

    /// The one variant `v`, as axes (a card drawn alone).
    public init(only v: Variant, locales all: [String]) {
        devices = [v.device]; appearances = [v.appearance]; locales = v.locale.map { [$0] } ?? all
        textSizes = [v.textSize]; iosVersions = [v.ios]; glassStyles = [v.glass]; accessibilitySettings = [v.accessibility]
    }

    /// Why shards drawn with these axes and `other`'s cannot be one gallery, or nil when they can.
    public func mismatch(_ other: VariantAxes) -> String? {
        var differ: [String] = []
        if devices != other.devices { differ.append("devices \(devices) vs \(other.devices)") }
        if appearances != other.appearances { differ.append("appearances \(appearances.map(\.rawValue)) vs \(other.appearances.map(\.rawValue))") }
        if locales != other.locales { differ.append("locales \(locales) vs \(other.locales)") }
        if textSizes != other.textSizes { differ.append("text sizes \(textSizes.map(\.rawValue)) vs \(other.textSizes.map(\.rawValue))") }
        if iosVersions != other.iosVersions { differ.append("iOS \(iosVersions.map(\.rawValue)) vs \(other.iosVersions.map(\.rawValue))") }
        if glassStyles != other.glassStyles { differ.append("glass \(glassStyles.map(\.rawValue)) vs \(other.glassStyles.map(\.rawValue))") }
        if accessibilitySettings != other.accessibilitySettings {
            differ.append("accessibility \(accessibilitySettings.map(\.rawValue)) vs \(other.accessibilitySettings.map(\.rawValue))")
        }
        return differ.isEmpty ? nil : differ.joined(separator: ", ")
    }
}

extension MockupResult {
    /// The variant a result was drawn for; nil for a failure that came before any (no device).
    public var variant: Variant? {
        guard !device.isEmpty, let appearance = Appearance(rawValue: appearance) else { return nil }
        return Variant(device: device, appearance: appearance, locale: locale, textSize: textSize.flatMap(TextSize.init(rawValue:)) ?? .standard,
                       ios: ios.flatMap(IOSVersion.init(rawValue:)) ?? .ios18, glass: glass.flatMap(IOSChrome.Glass.init(rawValue:)) ?? .clear,
                       accessibility: accessibility.flatMap(AccessibilitySetting.init(rawValue:)) ?? .standard)
    }
}

extension AccessibilitySetting {
    /// What a card says: "Reduce Transparency", "Increase Contrast"; nothing for none.
    var caption: String? {
        switch self {
        case .standard: return nil
        case .reduceTransparency: return "Reduce Transparency"
        case .increaseContrast: return "Increase Contrast"
        }
    }
}
