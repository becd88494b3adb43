import Diagnostics
import Checked
import Formats
/// An APNs payload, read from a `.apns` (Simulator drag-and-drop) or `.json` file.
public struct Payload: Sendable {
    public struct Alert: Sendable, Equatable {
        public var title: String?
        public var subtitle: String?
        public var body: String?
        public var titleLocKey: String?, titleLocArgs: [String]?
        public var subtitleLocKey: String?, subtitleLocArgs: [String]?
        public var locKey: String?, locArgs: [String]?
        public var launchImage: String?
        /// What a thread's summary line counts (iOS 12–14's `summaryArgument`): the -stack view uses them.
        public var summaryArg: String?, summaryArgCount: Int?
        public init() {}
    }

    public var file: String
    public var alert: Alert?
    public var badge: Int?
    public var sound: String?
    public var threadId: String?
    public var category: String?
    public var contentAvailable = false
    /// `content-changed: true`: a WidgetKit push (`apns-push-type: widgets`, iOS 26): the app's
    /// widgets reload their timelines; no alert is shown.
    public var contentChanged = false
    public var mutableContent = false
    public var interruptionLevel: String?
    public var relevanceScore: Double?
    public var targetContentId: String?
    /// The Focus filter a notification matches (`filter-criteria`).
    public var filterCriteria: String?
    /// `Simulator Target Bundle`, the app the payload is for.
    public var targetBundle: String?
    /// `PushPreview Simulation`: system states iOS decides, never sent (off unless a payload asks).
    public var simulation: Simulation?
    /// Custom keys beside `aps`, in file order.
    public var userInfo: [(key: String, value: JSONValue)]
    /// Bytes of the compact JSON without `Simulator Target Bundle` (what APNs would count).
    public var size: Int

    public static let maxSize = 4096
    public static let maxVoIPSize = 5120

    /// What iOS itself may do to a notification that no payload can ask for, drawn when a payload's
    /// test data names it and labelled as a simulation: an Apple Intelligence summary (iOS 18.1
    /// and later summarise a notification or a thread on the device) and a prioritized
    /// notification's edge light (Prioritize Notifications, iOS 18.4 and later).
    public struct Simulation: Sendable, Equatable {
        public var summary: String?
        public var prioritized = false
        public static let key = "PushPreview Simulation"
        public init(summary: String? = nil, prioritized: Bool = false) { self.summary = summary; self.prioritized = prioritized }
    }
}

/// A problem found in a payload, with its JSON path (`aps.alert.title`).

public struct PayloadError: Error, CustomStringConvertible {
    public var diagnostics: [Diagnostic]
    public var description: String { diagnostics.filter { $0.severity == .error }.map(\.description).joined(separator: "\n") }
}

public enum PayloadParser {
    /// Largest file read at all; a payload is 4 KB, so anything near this is a mistake.
    public static let maxFileSize = 1 << 20

    /// Parses and validates; throws when the payload cannot be shown, else returns warnings too.
    public static func parse(_ bytes: [UInt8], file: String) throws(PayloadError) -> (Payload, [Diagnostic]) {
        var diagnostics: [Diagnostic] = []
        func fail(_ path: String, _ message: String) -> PayloadError {
            PayloadError(diagnostics: diagnostics + [Diagnostic(.error, code: .payload, file: file, keyPath: path, message)])
        }
        guard bytes.count <= maxFileSize else { throw fail("", "file is \(bytes.count) bytes; a payload is at most \(Payload.maxSize)") }
        let root: JSONValue
        do { root = try JSONParser.parse(bytes, file: file) } catch {
            throw PayloadError(diagnostics: [error.diagnostic])
        }
        guard case .object(let members) = root else { throw fail("", "expected an object with an \"aps\" key, got \(root.typeName)") }
        guard let aps = root["aps"] else { throw fail("aps", "missing: every payload needs an \"aps\" dictionary") }
        guard case .object(let apsMembers) = aps else { throw fail("aps", "expected object, got \(aps.typeName)") }

        func warn(_ path: String, _ message: String) {
            diagnostics.append(Diagnostic(.warning, code: .payload, file: file, keyPath: path, message))
        }
        func string(_ v: JSONValue, _ path: String) throws(PayloadError) -> String {
            guard case .string(let s) = v else { throw fail(path, "expected string, got \(v.typeName)") }
            return s
        }
        func strings(_ v: JSONValue, _ path: String) throws(PayloadError) -> [String] {
            guard case .array(let items) = v else { throw fail(path, "expected array of strings, got \(v.typeName)") }
            var out: [String] = []
            for (i, item) in items.enumerated() {
                // Numbers are a common slip in loc-args; iOS shows nothing for them.
                guard case .string(let s) = item else { throw fail("\(path)[\(i)]", "expected string, got \(item.typeName)") }
                out.append(s)
            }
            return out
        }
        /// APNs flags are numbers; "1" (a string) or true is a frequent mistake that iOS ignores.
        func flag(_ v: JSONValue, _ path: String) -> Bool {
            switch v {
            case .number(let n): return n == 1
            case .string(let s): warn(path, "is the string \"\(s)\"; APNs expects the number 1, and iOS ignores a string"); return false
            case .bool(let b): warn(path, "is \(b); APNs expects the number 1, and iOS ignores a boolean"); return false
            default: warn(path, "expected number 1, got \(v.typeName)"); return false
            }
        }

        var payload = Payload(file: file, userInfo: [], size: 0)
        for (key, value) in apsMembers {
            let path = "aps.\(key)"
            switch key {
            case "alert":
                var alert = Payload.Alert()
                switch value {
                case .string(let body): alert.body = body
                case .object(let fields):
                    for (k, v) in fields {
                        let p = "aps.alert.\(k)"
                        switch k {
                        case "title": alert.title = try string(v, p)
                        case "subtitle": alert.subtitle = try string(v, p)
                        case "body": alert.body = try string(v, p)
                        case "launch-image": alert.launchImage = try string(v, p)
                        case "title-loc-key": alert.titleLocKey = try string(v, p)
                        case "title-loc-args": alert.titleLocArgs = try strings(v, p)
                        case "subtitle-loc-key": alert.subtitleLocKey = try string(v, p)
                        case "subtitle-loc-args": alert.subtitleLocArgs = try strings(v, p)
                        case "loc-key": alert.locKey = try string(v, p)
                        case "loc-args": alert.locArgs = try strings(v, p)
                        case "summary-arg": alert.summaryArg = try string(v, p)
                        case "summary-arg-count":
                            guard case .number(let n) = v, n >= 1, n <= 1_000_000, n == n.rounded() else { throw fail(p, "expected a whole number from 1 to 1000000, got \(v.compact)") }
                            alert.summaryArgCount = Int(saturating: n)
                        case "action-loc-key", "action":
                            warn(p, "is a legacy key that iOS 15 and later ignore")
                        default: warn(p, "unknown alert key; iOS ignores it")
                        }
                    }
                    if alert.title != nil && alert.titleLocKey != nil { warn("aps.alert", "has both title and title-loc-key; the localized title wins") }
                    if alert.body != nil && alert.locKey != nil { warn("aps.alert", "has both body and loc-key; the localized body wins") }
                default: throw fail(path, "expected string or object, got \(value.typeName)")
                }
                payload.alert = alert
            case "badge":
                guard case .number(let n) = value, n >= 0, n == n.rounded() else { throw fail(path, "expected a whole number ≥ 0, got \(value.compact)") }
                payload.badge = Int(saturating: min(n, Double(Int32.max)))
                if n > Double(Int32.max) { warn(path, "\(value.compact) is more than a badge holds; drawn as \(Int32.max)") }
            case "sound":
                switch value {
                case .string(let s): payload.sound = s
                case .object: payload.sound = value["name"]?.string ?? "default"
                default: throw fail(path, "expected string or object, got \(value.typeName)")
                }
            case "thread-id": payload.threadId = try string(value, path)
            case "category": payload.category = try string(value, path)
            case "content-available": payload.contentAvailable = flag(value, path)
            case "content-changed":
                // WidgetKit's push payload is {"aps": {"content-changed": true}}: a boolean, unlike content-available.
                if case .bool(let b) = value { payload.contentChanged = b } else { warn(path, "expected true (a widgets push), got \(value.compact)") }
            case "mutable-content": payload.mutableContent = flag(value, path)
            case "target-content-id": payload.targetContentId = try string(value, path)
            case "interruption-level":
                let level = try string(value, path)
                if !["passive", "active", "time-sensitive", "critical"].contains(level) {
                    warn(path, "\"\(level)\" is not passive, active, time-sensitive or critical; iOS treats it as active")
                }
                payload.interruptionLevel = level
            case "relevance-score":
                guard case .number(let n) = value else { throw fail(path, "expected number, got \(value.typeName)") }
                payload.relevanceScore = n
            case "filter-criteria": payload.filterCriteria = try string(value, path)
            case "stale-date", "content-state", "timestamp", "event", "dismissal-date", "attributes-type", "attributes":
                break
            default:
                warn(path, "is not an Apple key; custom keys belong beside \"aps\", not inside it, or the app never sees them")
            }
        }
        for (key, value) in members where key != "aps" {
            if key == "Simulator Target Bundle" { payload.targetBundle = try string(value, key); continue }
            if key == Payload.Simulation.key {
                guard case .object(let fields) = value else { throw fail(key, "expected an object (summary, prioritized), got \(value.typeName)") }
                var simulation = Payload.Simulation()
                for (name, field) in fields {
                    let path = key + "." + name
                    switch name {
                    case "summary":
                        let text = try string(field, path)
                        if text.isEmpty { warn(path, "is empty: no summary is drawn") } else { simulation.summary = text }
                    case "prioritized":
                        guard case .bool(let on) = field else { throw fail(path, "expected true or false, got \(field.typeName)") }
                        simulation.prioritized = on
                    default: warn(path, "is not summary or prioritized; ignored")
                    }
                }
                payload.simulation = simulation
                continue
            }
            payload.userInfo.append((key, value))
        }
        let sent = JSONValue.object(members.filter { $0.key != "Simulator Target Bundle" && $0.key != Payload.Simulation.key })
        payload.size = sent.compact.utf8.count
        if payload.size > Payload.maxSize {
            diagnostics.append(Diagnostic(.error, code: .payload, file: file,
                "payload is \(payload.size) bytes of compact JSON; APNs refuses more than \(Payload.maxSize) (\(Payload.maxVoIPSize) for VoIP)"))
        }
        if payload.alert == nil && !payload.contentAvailable && !payload.contentChanged { warn("aps", "has no alert: nothing is shown to the user") }
        if diagnostics.contains(where: { $0.severity == .error }) { throw PayloadError(diagnostics: diagnostics) }
        return (payload, diagnostics)
    }
}
