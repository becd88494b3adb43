import Diagnostics
import Payload
import Formats

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
    public var interruptionLevel = UNNotificationInterruptionLevel.active
    public var targetContentId: String?
    public var relevanceScore = 0.0
    public var filterCriteria: String?
    /// What a stack's summary counts this notification as (`summary-arg`, `summary-arg-count`).
    public var summaryArgument: String?
    public var summaryArgumentCount: Int?
    /// Set when the extension donated a messaging intent: the sender (and group) iOS shows.
    public var communication: Communication?
    /// The system states a payload's test data asks to simulate (`PushPreview Simulation`).
    public var simulation: Payload.Simulation?
    /// The category a push SDK built from the payload and registered while delivering it.
    public var registeredCategory: RegisteredCategory?
    /// What a push SDK's own content view shows: its data and the images it downloaded.
    public var contentView: ContentView?

    public struct ContentView: Sendable {
        /// The SDK's name, and the stock template that copies its view.
        public var sdk: String
        public var template: String
        /// The values of the view's variant keys (CleverTap's `pt_id`), those that are plain names or numbers.
        public var variants: [String: String]
        public var data: [(key: String, value: JSONValue)]
        /// In the order the view shows them; those that could not be had are left out (said).
        public var images: [Attachment]
    }

    /// A category the extension registers at delivery (`setNotificationCategories`), as push SDKs
    /// do with buttons the payload names; `said` is where that behaviour comes from.
    public struct RegisteredCategory: Sendable, Equatable {
        public struct Action: Sendable, Equatable {
            public var identifier: String
            public var title: String
            public var foreground = false
            public var destructive = false
            /// Text input: the button's title and placeholder.
            public var textInput: (button: String?, placeholder: String?)?
            public init(identifier: String, title: String) { self.identifier = identifier; self.title = title }
            public static func == (a: Action, b: Action) -> Bool {
                a.identifier == b.identifier && a.title == b.title && a.foreground == b.foreground && a.destructive == b.destructive
                    && a.textInput?.button == b.textInput?.button && a.textInput?.placeholder == b.textInput?.placeholder && (a.textInput == nil) == (b.textInput == nil)
            }
        }
        public var identifier: String
        public var actions: [Action]
        public var said: String
    }

    public struct Communication: Sendable, Equatable {
        public var senderName: String
        public var senderHandle: String?
        public var groupName: String?
        public var senderImage: Image?
        public var groupImage: Image?
        /// An image file the extension resolved, with its bytes.
        public struct Image: Sendable, Equatable {
            public var path: String
            public var bytes: [UInt8]
        }
        public init(senderName: String, groupName: String? = nil, senderImage: Image? = nil, groupImage: Image? = nil) {
            self.senderName = senderName; self.groupName = groupName; self.senderImage = senderImage; self.groupImage = groupImage
        }
    }

    public init(title: String, subtitle: String, body: String, category: String?, threadId: String?, badge: Int?, sound: String?,
                attachments: [Attachment], userInfo: [(key: String, value: JSONValue)], trace: ServiceTrace) {
        self.title = title; self.subtitle = subtitle; self.body = body; self.category = category; self.threadId = threadId
        self.badge = badge; self.sound = sound; self.attachments = attachments; self.userInfo = userInfo; self.trace = trace
    }
}

/// A media file attached to the notification (`UNNotificationAttachment`), with its bytes.
public struct Attachment: Sendable, Equatable {
    public typealias Kind = MediaType.Kind
    public var identifier: String
    public var kind: Kind
    public var uti: String
    /// Absolute path of the file.
    public var path: String
    public var bytes: [UInt8]
    public var thumbnailHidden = false
    /// Normalized x, y, width, height.
    public var clippingRect: [Double]?
    /// GIF frame number or movie seconds.
    public var thumbnailTime = 0.0
}

/// What each service step did, for `--json`, the report and the gallery.
public struct ServiceTrace: Sendable, Equatable {
    public struct Step: Sendable, Equatable, Codable {
        public var step: String
        public var outcome: String
        public var ms: Double
        public var bytes: Int
        public var message: String
        public init(step: String, outcome: String, ms: Double = 0, bytes: Int = 0, message: String = "") {
            self.step = step; self.outcome = outcome; self.ms = ms; self.bytes = bytes; self.message = message
        }
    }
    /// Graceful degradation: full content → text without media → original content.
    public enum Level: String, Sendable, Codable { case full, textOnly = "text-only", original }

    /// Whether the service extension ran at all (mutable-content 1 and some text).
    public var ran = false
    public var level = Level.original
    public var steps: [Step] = []
    public init() {}

    /// The outcomes of steps that did what was asked; every other step fell back somehow.
    static let fineOutcomes: Set<String> = ["decrypted", "skipped", "enriched", "attached", "cache hit", "localized", "not run", "donated", "set", "registered", "downloaded"]

    /// Each step that fell back (a failed decrypt or download, a missing translation, no
    /// enrichment record, the time budget), as a warning every mock-up of the notification shows.
    public var fallbacks: [Diagnostic] {
        steps.filter { !Self.fineOutcomes.contains($0.outcome) }
            .map { Diagnostic(.warning, code: .service, "service stage, \($0.step): \($0.outcome)\($0.message.isEmpty ? "" : ": " + $0.message)") }
    }
}
