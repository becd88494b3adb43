import ConfinedFiles
import Foundation
import Imaging

// The part of Apple's UserNotifications API a Notification Service Extension uses, with Apple's
// names, so an extension written for iOS runs here with only its import changed. The system
// calls into these classes from several threads, as iOS does; hence @unchecked Sendable.

public let UNErrorDomain = "UNErrorDomain"

/// `UNError`, with Apple's codes and raw values.
public struct UNError: Error, Equatable, CustomStringConvertible {
    public enum Code: Int, Sendable {
        case notificationsNotAllowed = 1
        case attachmentInvalidURL = 100, attachmentUnrecognizedType, attachmentInvalidFileSize
        case attachmentNotInDataStore, attachmentMoveIntoDataStoreFailed, attachmentCorrupt
        case notificationInvalidNoDate = 1400, notificationInvalidNoContent
        case badgeInputInvalid = 1600

        /// The short name used in traces ("invalid URL", "corrupt", …).
        public var outcome: String {
            switch self {
            case .attachmentInvalidURL: return "invalid URL"
            case .attachmentUnrecognizedType: return "unrecognized type"
            case .attachmentInvalidFileSize: return "invalid file size"
            case .attachmentCorrupt: return "corrupt"
            default: return "\(self)"
            }
        }
    }
    public var code: Code
    public var message: String
    public init(_ code: Code, _ message: String) { self.code = code; self.message = message }
    public var description: String { "\(code.outcome): \(message)" }
}

public let UNNotificationAttachmentOptionsTypeHintKey = "UNNotificationAttachmentOptionsTypeHintKey"
public let UNNotificationAttachmentOptionsThumbnailHiddenKey = "UNNotificationAttachmentOptionsThumbnailHiddenKey"
public let UNNotificationAttachmentOptionsThumbnailClippingRectKey = "UNNotificationAttachmentOptionsThumbnailClippingRectKey"
public let UNNotificationAttachmentOptionsThumbnailTimeKey = "UNNotificationAttachmentOptionsThumbnailTimeKey"

public final class UNNotificationSound: NSObject, @unchecked Sendable {
    public let name: String?
    init(_ name: String?) { self.name = name }
    public static let `default` = UNNotificationSound(nil)
    public convenience init(named name: String) { self.init(name) }
}

/// A media file attached to a notification. The initializer validates it as iOS does: a file
/// URL, readable, of a supported type (from the hint or the extension, checked against the
/// bytes), within the size cap, and not corrupt.
open class UNNotificationAttachment: NSObject, @unchecked Sendable {
    public let identifier: String
    public let url: URL
    /// A UTI: public.jpeg, public.png, com.compuserve.gif, public.mp3, public.mpeg-4, …
    public let type: String
    let options: [AnyHashable: Any]

    /// The file's bytes, read when it was attached (iOS moves the file into its own store then).
    let bytes: [UInt8]

    /// A file a service extension made itself (its own download, its own temporary file): read
    /// as named. The files of a project and its cache are attached with their bytes instead.
    public convenience init(identifier: String, url: URL, options: [AnyHashable: Any]? = nil) throws {
        guard url.isFileURL else { throw UNError(.attachmentInvalidURL, "\(url.absoluteString) is not a file URL; download it first") }
        let bytes: [UInt8]
        do { bytes = try TrustedFiles.read(url, limit: MediaType.Kind.video.cap + 1) } catch {
            throw UNError(.attachmentInvalidURL, "\(url.path) does not exist or cannot be read")
        }
        try self.init(identifier: identifier, url: url, bytes: bytes, options: options)
    }

    /// An attachment of `bytes`, read from `url` through a confined folder.
    init(identifier: String, url: URL, bytes: [UInt8], options: [AnyHashable: Any]? = nil) throws(UNError) {
        self.identifier = identifier.isEmpty ? UUID().uuidString : identifier
        self.url = url
        self.options = options ?? [:]
        let size = bytes.count
        let hinted = (options?[UNNotificationAttachmentOptionsTypeHintKey] as? String).flatMap(MediaType.init(uti:))
        guard let declared = hinted ?? MediaType(fileExtension: url.pathExtension) else {
            throw UNError(.attachmentUnrecognizedType, "cannot tell the type of \(url.lastPathComponent); give a known extension or a type hint")
        }
        guard size > 0, size <= declared.kind.cap else {
            throw UNError(.attachmentInvalidFileSize, "\(url.lastPathComponent) is \(size) bytes; \(declared.kind.rawValue) attachments may be 1 to \(declared.kind.cap) bytes")
        }
        guard let actual = MediaType(sniffing: bytes) else {
            throw UNError(.attachmentUnrecognizedType, "\(url.lastPathComponent) is not an image, audio or movie file this tool recognizes")
        }
        guard actual.kind == declared.kind else {
            throw UNError(.attachmentUnrecognizedType, "\(url.lastPathComponent) is declared \(declared.uti) but its bytes are \(actual.uti)")
        }
        if actual.kind == .image {
            do { _ = try ImageSource(bytes).decodeUpright(scale: 1.0 / 8) } catch {
                throw UNError(.attachmentCorrupt, "\(url.lastPathComponent): \(error)")
            }
        }
        type = actual.uti
        self.bytes = bytes
        super.init()
    }

    public var thumbnailHidden: Bool { (options[UNNotificationAttachmentOptionsThumbnailHiddenKey] as? Bool) ?? false }
    /// The normalized clipping rect ("X", "Y", "Width", "Height" as CGRect's dictionary has them).
    public var thumbnailClippingRect: (x: Double, y: Double, width: Double, height: Double)? {
        guard let d = options[UNNotificationAttachmentOptionsThumbnailClippingRectKey] as? [String: Double],
              let x = d["X"], let y = d["Y"], let w = d["Width"], let h = d["Height"] else { return nil }
        return (x, y, w, h)
    }
    /// A GIF frame number, or seconds into a movie.
    public var thumbnailTime: Double { (options[UNNotificationAttachmentOptionsThumbnailTimeKey] as? Double) ?? 0 }
}

open class UNNotificationContent: NSObject, NSCopying, NSMutableCopying, @unchecked Sendable {
    struct Fields {
        var title = "", subtitle = "", body = ""
        var badge: NSNumber?
        var sound: UNNotificationSound?
        var attachments: [UNNotificationAttachment] = []
        var categoryIdentifier = "", threadIdentifier = "", launchImageName = ""
        var targetContentIdentifier: String?
        var userInfo: [AnyHashable: Any] = [:]
        var relevanceScore = 0.0
        var filterCriteria: String?
        var summaryArgument = ""
        var summaryArgumentCount = 0
        var interruptionLevel = UNNotificationInterruptionLevel.active
        /// Who sent it, once a messaging intent is donated (`updating(from:)` on iOS).
        var communication: UNCommunication?
    }
    var fields = Fields()

    public override init() { super.init() }
    init(fields: Fields) { self.fields = fields; super.init() }

    open var title: String { fields.title }
    open var subtitle: String { fields.subtitle }
    open var body: String { fields.body }
    open var badge: NSNumber? { fields.badge }
    open var sound: UNNotificationSound? { fields.sound }
    open var attachments: [UNNotificationAttachment] { fields.attachments }
    open var categoryIdentifier: String { fields.categoryIdentifier }
    open var threadIdentifier: String { fields.threadIdentifier }
    open var launchImageName: String { fields.launchImageName }
    open var targetContentIdentifier: String? { fields.targetContentIdentifier }
    open var userInfo: [AnyHashable: Any] { fields.userInfo }
    open var relevanceScore: Double { fields.relevanceScore }
    open var filterCriteria: String? { fields.filterCriteria }
    open var summaryArgument: String { fields.summaryArgument }
    open var summaryArgumentCount: Int { fields.summaryArgumentCount }
    open var interruptionLevel: UNNotificationInterruptionLevel { fields.interruptionLevel }
    open var communication: UNCommunication? { fields.communication }

    public func copy(with zone: NSZone? = nil) -> Any { UNNotificationContent(fields: fields) }
    public func mutableCopy(with zone: NSZone? = nil) -> Any { UNMutableNotificationContent(fields: fields) }
}

open class UNMutableNotificationContent: UNNotificationContent, @unchecked Sendable {
    open override var title: String { get { fields.title } set { fields.title = newValue } }
    open override var subtitle: String { get { fields.subtitle } set { fields.subtitle = newValue } }
    open override var body: String { get { fields.body } set { fields.body = newValue } }
    open override var badge: NSNumber? { get { fields.badge } set { fields.badge = newValue } }
    open override var sound: UNNotificationSound? { get { fields.sound } set { fields.sound = newValue } }
    open override var attachments: [UNNotificationAttachment] { get { fields.attachments } set { fields.attachments = newValue } }
    open override var categoryIdentifier: String { get { fields.categoryIdentifier } set { fields.categoryIdentifier = newValue } }
    open override var threadIdentifier: String { get { fields.threadIdentifier } set { fields.threadIdentifier = newValue } }
    open override var launchImageName: String { get { fields.launchImageName } set { fields.launchImageName = newValue } }
    open override var targetContentIdentifier: String? { get { fields.targetContentIdentifier } set { fields.targetContentIdentifier = newValue } }
    open override var userInfo: [AnyHashable: Any] { get { fields.userInfo } set { fields.userInfo = newValue } }
    open override var relevanceScore: Double { get { fields.relevanceScore } set { fields.relevanceScore = newValue } }
    open override var filterCriteria: String? { get { fields.filterCriteria } set { fields.filterCriteria = newValue } }
    open override var summaryArgument: String { get { fields.summaryArgument } set { fields.summaryArgument = newValue } }
    open override var summaryArgumentCount: Int { get { fields.summaryArgumentCount } set { fields.summaryArgumentCount = newValue } }
    open override var interruptionLevel: UNNotificationInterruptionLevel { get { fields.interruptionLevel } set { fields.interruptionLevel = newValue } }
    /// What `content.updating(from: INSendMessageIntent)` gives on iOS: a communication notification.
    open override var communication: UNCommunication? { get { fields.communication } set { fields.communication = newValue } }
}

/// How strongly a notification interrupts (`UNNotificationInterruptionLevel`, the payload's
/// `interruption-level`).
public enum UNNotificationInterruptionLevel: String, Sendable, Codable, CaseIterable {
    case passive, active, timeSensitive = "time-sensitive", critical
}

/// The sender (and, for a group conversation, the group) an `INSendMessageIntent` names; the
/// images are references resolved like attachments (media roots, allowed hosts, `data:`).
public struct UNCommunication: Sendable, Equatable {
    public var senderName: String
    public var senderImage: String?
    public var groupName: String?
    public var groupImage: String?
    /// The sender's handle (`INPersonHandle`: an address or account name); iOS does not draw it.
    public var senderHandle: String?
    /// The images' bytes by reference, as the extension read them (through a confined folder).
    var images: [String: [UInt8]] = [:]
    public init(senderName: String, senderImage: String? = nil, groupName: String? = nil, groupImage: String? = nil, senderHandle: String? = nil) {
        self.senderName = senderName; self.senderImage = senderImage; self.groupName = groupName; self.groupImage = groupImage
        self.senderHandle = senderHandle
    }

    /// The fields by their settings names (`senderName`, …); empty text is no value.
    public subscript(field field: String) -> String? {
        get {
            switch field {
            case "senderName": return senderName.isEmpty ? nil : senderName
            case "senderImage": return senderImage
            case "senderHandle": return senderHandle
            case "groupName": return groupName
            case "groupImage": return groupImage
            default: return nil
            }
        }
        set {
            let v = newValue.flatMap { $0.isEmpty ? nil : $0 }
            switch field {
            case "senderName": senderName = v ?? ""
            case "senderImage": senderImage = v
            case "senderHandle": senderHandle = v
            case "groupName": groupName = v
            case "groupImage": groupImage = v
            default: break
            }
        }
    }
}

open class UNNotificationRequest: NSObject, @unchecked Sendable {
    public let identifier: String
    public let content: UNNotificationContent
    public init(identifier: String, content: UNNotificationContent) {
        self.identifier = identifier
        self.content = content.copy() as! UNNotificationContent
    }
}

/// Subclass it and override `didReceive(_:withContentHandler:)`, as on iOS. `ServiceRunner` plays
/// the system: it calls `didReceive`, then `serviceExtensionTimeWillExpire()` on another thread
/// shortly before the budget runs out, and shows the original content if the handler never ran.
open class UNNotificationServiceExtension: NSObject {
    public required override init() { super.init() }

    open func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
        contentHandler(request.content)
    }

    open func serviceExtensionTimeWillExpire() {}
}
