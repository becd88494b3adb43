import Foundation
import HTTP
import Payload
import Formats

/// `POST /3/device/TOKEN` answered as APNs's provider API answers: the same statuses, the same
/// `{"reason": …}` bodies, in the order APNs checks (the request, then its token, then the
/// headers, then the payload). A push it accepts is handed on with what iOS does with it.
public struct APNsEndpoint: Sendable {
    /// The app's bundle ID: apns-topic must be it (with the push type's suffix); nil takes any.
    public var bundleID: String?
    /// Token authentication; nil takes requests without one, as a certificate connection does.
    public var token: ProviderToken?

    public init(bundleID: String?, token: ProviderToken?) { self.bundleID = bundleID; self.token = token }

    /// A push APNs would deliver.
    public struct Push: Sendable {
        public var id: String
        public var deviceToken: String
        public var pushType: String
        public var topic: String?
        public var priority: Int
        public var expiration: Int?
        public var collapseID: String?
        public var payload: [UInt8]
    }

    public enum Outcome: Sendable {
        case accepted(Push)
        case refused(status: Int, reason: String, id: String)
    }

    /// Each push type's topic: the bundle ID and the suffix APNs requires.
    static let topicSuffixes: [String: String] = [
        "alert": "", "background": "", "controls": ".push-type.controls", "location": ".location-query", "voip": ".voip",
        "complication": ".complication", "fileprovider": ".pushkit.fileprovider", "liveactivity": ".push-type.liveactivity",
        "pushtotalk": ".voip-ptt", "widgets": ".push-type.widgets", "mdm": "",
    ]
    static let maxPayload = 4096, maxVoIPPayload = 5120

    public func evaluate(_ request: HTTPRequest, now: Double = Date().timeIntervalSince1970) -> Outcome {
        let given = request.header("apns-id")
        let id = given.flatMap { UUID(uuidString: $0) != nil ? $0.lowercased() : nil } ?? UUID().uuidString.lowercased()
        func refuse(_ status: Int, _ reason: String) -> Outcome { .refused(status: status, reason: reason, id: id) }
        let path = request.path.split(separator: "?", maxSplits: 1).first.map(String.init) ?? ""
        guard path.hasPrefix("/3/device/") || path == "/3/device" else { return refuse(404, "BadPath") }
        guard request.method == "POST" else { return refuse(405, "MethodNotAllowed") }
        // One of each apns- header (APNs: DuplicateHeaders).
        let names = request.headers.map(\.name).filter { $0.hasPrefix("apns-") || $0 == "authorization" }
        guard Set(names).count == names.count else { return refuse(400, "DuplicateHeaders") }
        if let token {
            switch token.check(request.header("authorization"), now: now) {
            case .valid: break
            case .expired: return refuse(403, "ExpiredProviderToken")
            case .invalid where request.header("authorization") == nil: return refuse(403, "MissingProviderToken")
            case .invalid: return refuse(403, "InvalidProviderToken")
            }
        }
        let deviceToken = String(path.dropFirst("/3/device/".count))
        guard !deviceToken.isEmpty else { return refuse(400, "MissingDeviceToken") }
        // ASCII hex only: Character.isHexDigit takes the full-width digits too, APNs does not.
        guard deviceToken.count % 2 == 0, deviceToken.count <= 200, deviceToken.utf8.allSatisfy({ (48...57).contains($0) || (65...70).contains($0) || (97...102).contains($0) }) else {
            return refuse(400, "BadDeviceToken")
        }
        if given != nil && UUID(uuidString: given!) == nil { return refuse(400, "BadMessageId") }
        let pushType = request.header("apns-push-type") ?? "alert"
        guard let suffix = Self.topicSuffixes[pushType] else { return refuse(400, "InvalidPushType") }
        let topic = request.header("apns-topic")
        if topic == nil && token != nil { return refuse(400, "MissingTopic") }
        if let topic, let bundleID, topic != bundleID + suffix { return refuse(400, "TopicDisallowed") }
        var priority = 10
        if let p = request.header("apns-priority") {
            guard let n = Int(p), [1, 5, 10].contains(n) else { return refuse(400, "BadPriority") }
            priority = n
        }
        var expiration: Int?
        if let e = request.header("apns-expiration") {
            guard let n = Int(e), n >= 0 else { return refuse(400, "BadExpirationDate") }
            expiration = n
        }
        let collapse = request.header("apns-collapse-id")
        if let collapse, collapse.utf8.count > 64 { return refuse(400, "BadCollapseId") }
        guard request.bodyLength > 0 else { return refuse(400, "PayloadEmpty") }
        guard request.bodyLength <= (pushType == "voip" ? Self.maxVoIPPayload : Self.maxPayload) else { return refuse(413, "PayloadTooLarge") }
        // A body that is not a payload has no reason of its own in APNs's documentation: it is
        // taken, and its card says what the payload parser says of it (file and position).
        return .accepted(Push(id: id, deviceToken: deviceToken, pushType: pushType, topic: topic, priority: priority,
                              expiration: expiration, collapseID: collapse, payload: request.body))
    }

    /// What iOS does with a push it shows no alert for, as the gallery says it; for a widgets
    /// push (WidgetKit, `{"aps": {"content-changed": true}}`), what its payload lacks.
    public static func noAlertNote(pushType: String, payload: [UInt8]) -> String {
        guard pushType == "widgets" else {
            return "apns-push-type \(pushType): iOS does not show this push as a notification, so there is nothing to draw."
        }
        var note = "apns-push-type widgets: no alert; WidgetKit reloads the app's widgets' timelines."
        let changed: Bool
        if let json = try? JSONParser.parse(payload, file: "push"), case .bool(true)? = json["aps"]?["content-changed"] { changed = true } else { changed = false }
        if !changed { note += " Its payload lacks \"aps\": {\"content-changed\": true}, which a widgets push must carry: WidgetKit ignores it." }
        return note
    }

    /// The response APNs gives for an outcome.
    public static func response(_ outcome: Outcome) -> HTTPResponse {
        switch outcome {
        case .accepted(let push):
            return HTTPResponse(status: 200, headers: [("apns-id", push.id)])
        case .refused(let status, let reason, let id):
            return HTTPResponse(status: status, headers: [("apns-id", id), ("content-type", "application/json")],
                                body: Array("{\"reason\":\"\(reason)\"}".utf8))
        }
    }
}
