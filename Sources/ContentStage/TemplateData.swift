import Payload
import ServiceStage
import Styling
import Templating

/// The one data model every template sees (README, "Template data").
public struct TemplateContext: Sendable {
    public var notification: DeliveredNotification
    public var appName: String
    /// `src` of the app icon, or nil for the lettered placeholder.
    public var appIconSource: String?
    public var device: DeviceProfile
    public var appearance: Appearance
    public var locale: String
    public var timeLabel = "now"
    /// `src` and pixel size of each attachment, in attachment order.
    public var attachmentSources: [(src: String, width: Int, height: Int)]

    public init(notification: DeliveredNotification, appName: String, appIconSource: String?, device: DeviceProfile,
                appearance: Appearance, locale: String, attachmentSources: [(src: String, width: Int, height: Int)]) {
        self.notification = notification; self.appName = appName; self.appIconSource = appIconSource; self.device = device
        self.appearance = appearance; self.locale = locale; self.attachmentSources = attachmentSources
    }

    public var value: TemplateValue {
        let n = notification
        let attachments: [TemplateValue] = zip(n.attachments, attachmentSources).map { a, s in
            ["identifier": .string(a.identifier), "type": .string(a.kind.rawValue), "url": .string(s.src),
             "width": .number(Double(s.width)), "height": .number(Double(s.height))]
        }
        var app: [String: TemplateValue] = ["name": .string(appName), "initial": .string(appName.first.map { String($0).uppercased() } ?? "")]
        if let icon = appIconSource { app["icon"] = .string(icon) }
        return .object([
            "title": .string(n.title), "subtitle": .string(n.subtitle), "body": .string(n.body),
            "category": n.category.map(TemplateValue.string) ?? .null,
            "threadId": n.threadId.map(TemplateValue.string) ?? .null,
            "badge": n.badge.map { .number(Double($0)) } ?? .null,
            "app": .object(app),
            "time": .string(timeLabel),
            "attachments": .list(attachments),
            "attachment": attachments.first ?? .null,
            "userInfo": .object(Dictionary(n.userInfo.map { ($0.key, TemplateValue(json: $0.value)) }) { $1 }),
            "device": ["id": .string(device.id), "name": .string(device.name), "width": .number(device.width),
                       "scale": .number(Double(device.scale)), "isPad": .bool(device.isPad),
                       "customViewHeightLimit": .number(device.customViewHeightLimit)],
            "appearance": .string(appearance.rawValue),
            "dark": .bool(appearance == .dark),
            "locale": .string(locale),
        ])
    }
}
