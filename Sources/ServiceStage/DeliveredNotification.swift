import Payload

/// What the service stage hands to the content stage: the content iOS would display.
public struct DeliveredNotification: Sendable {
    public var title: String
    public var subtitle: String
    public var body: String
    public var category: String?
    public var threadId: String?
    public var badge: Int?
    public var sound: String?
    public var attachments: [Attachment]
    public var userInfo: [(key: String, value: JSONValue)]
    public var trace: ServiceTrace

    public init(payload: Payload) {
        title = payload.alert?.title ?? payload.alert?.titleLocKey ?? ""
        subtitle = payload.alert?.subtitle ?? payload.alert?.subtitleLocKey ?? ""
        body = payload.alert?.body ?? payload.alert?.locKey ?? ""
        category = payload.category
        threadId = payload.threadId
        badge = payload.badge
        sound = payload.sound
        attachments = []
        userInfo = payload.userInfo
        trace = ServiceTrace()
    }
}

/// A media file attached to the notification (`UNNotificationAttachment`).
public struct Attachment: Sendable, Equatable {
    public enum Kind: String, Sendable, Codable { case image, audio, video }
    public var identifier: String
    public var kind: Kind
    /// Absolute path of the file.
    public var path: String
    public var bytes: [UInt8]
    public var thumbnailHidden = false
    public var thumbnailTime = 0.0
}

/// What each service step did, for the report and the gallery.
public struct ServiceTrace: Sendable, Equatable {
    public struct Step: Sendable, Equatable, Codable {
        public var name: String
        public var outcome: String
        public var detail: String
    }
    /// full content, text without media, original content
    public enum Level: String, Sendable, Codable { case full, textOnly = "text-only", original, notRun = "not-run" }

    public var steps: [Step] = []
    public var level = Level.notRun
    public init() {}
}
