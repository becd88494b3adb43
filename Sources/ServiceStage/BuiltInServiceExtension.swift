import ConfinedFiles
import Foundation
import Payload
import Templating
import Formats

/// PushPreview's own service extension, written on the same API a team's would be: decrypt,
/// enrich and attach media in order, keep the best attempt, and hand it over on expiry.
final class BuiltInServiceExtension: UNNotificationServiceExtension, @unchecked Sendable {
    let settings: ServiceSettings
    let folders: ServiceFolders
    let trace: TraceRecorder
    let deadline: Date
    /// The app's strings in the locale drawn, for text filters.
    let localize: @Sendable (String) -> String?
    private let attachStep: AttachStep
    private let lock = NSLock()
    private var contentHandler: ((UNNotificationContent) -> Void)?
    private var bestAttempt: UNMutableNotificationContent?
    private var registered: DeliveredNotification.RegisteredCategory?
    /// The category a push SDK built from the payload's buttons, as it would register it.
    var registeredCategory: DeliveredNotification.RegisteredCategory? { lock.withLock { registered } }

    init(settings: ServiceSettings, folders: ServiceFolders, trace: TraceRecorder, deadline: Date, localize: @escaping @Sendable (String) -> String? = { _ in nil }) {
        self.localize = localize
        self.settings = settings
        self.folders = folders
        self.trace = trace
        self.deadline = deadline
        attachStep = AttachStep(settings: settings, folders: folders)
        super.init()
    }

    required init() { fatalError("use init(settings:folders:trace:deadline:)") }

    override func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
        let content = request.content.mutableCopy() as! UNMutableNotificationContent
        lock.withLock { self.contentHandler = contentHandler }

        if let decrypt = settings.decrypt {
            let ok = trace.time("decrypt") { () -> (Bool, outcome: String, bytes: Int, message: String, mediaFailed: Bool) in
                switch DecryptStep(settings: decrypt, folders: folders).run(content) {
                case .decrypted(let bytes): return (true, "decrypted", bytes, "", false)
                case .notEncrypted: return (true, "skipped", 0, "no \(decrypt.payloadKey) in the payload", false)
                case .failed(let why): return (false, "failed", 0, why + "; showing the original content", false)
                }
            }
            guard ok else {
                trace.add(.init(step: "deliver", outcome: "original"), original: true)
                contentHandler(request.content)
                return
            }
        }
        for rule in settings.enrich {
            trace.time("enrich") { () -> (Void, outcome: String, bytes: Int, message: String, mediaFailed: Bool) in
                let r = EnrichStep(rule: rule, folders: folders, localize: localize).run(content)
                return ((), r.outcome, 0, r.message, false)
            }
        }
        if !settings.set.isEmpty {
            trace.time("set") { () -> (Void, outcome: String, bytes: Int, message: String, mediaFailed: Bool) in
                let r = SetStep(fields: settings.set, localize: localize).run(content)
                return ((), r.outcome, 0, r.message, false)
            }
        }
        if !settings.communication.isEmpty || content.communication != nil {
            trace.time("communicate") { () -> (Void, outcome: String, bytes: Int, message: String, mediaFailed: Bool) in
                let r = communicate(content)
                return ((), r.outcome, r.bytes, r.message, false)
            }
        }
        // What each push SDK the extension calls does: its changes, its buttons, its media keys.
        var sdkMedia: [(path: String, reference: String, said: String)] = []
        for sdk in settings.sdks {
            let step = SDKStep(sdk: sdk)
            if let gate = sdk.gate, case let missing = step.missingGateKeys(content.userInfo), !missing.isEmpty {
                trace.add(.init(step: "sdk", outcome: "not handled", message: "\(sdk.name) acts only on payloads with \(gate.keyPaths.joined(separator: " and ")), and this one lacks \(missing.joined(separator: ", ")): nothing of it is done, \(sdk.said(gate.source))"))
                continue
            }
            step.applyChanges(content).forEach { trace.add($0) }
            let (category, said) = step.category(content, request: request.identifier)
            if let said { trace.add(said) }
            if let category { lock.withLock { registered = category } }
            let (references, problems) = step.media(content.userInfo)
            problems.forEach { trace.add($0, mediaFailed: true) }
            sdkMedia += references
        }
        // Text is final now: it is the best attempt while media downloads.
        lock.withLock { bestAttempt = content.mutableCopy() as? UNMutableNotificationContent }

        let options = attachmentOptions(content.userInfo)
        var references: [(path: String, value: Any, said: String?)] = []
        for key in settings.mediaKeys {
            switch KeyPath(key).lookup(in: content.userInfo) {
            case .found(let v): references.append((key, v, nil))
            case .missing: continue
            case .wrongType(let at, let found):
                trace.add(.init(step: "attach", outcome: "not attached", message: "mediaKeys \(key): \(at) is \(found), not an object; nothing attached from it"))
                continue
            }
        }
        references += sdkMedia.filter { m in !references.contains { $0.path == m.path } }.map { ($0.path, $0.reference as Any, $0.said) }
        for (key, value, said) in references {
            let as_ = said.map { ", \($0)" } ?? ""
            trace.time("attach") { () -> (Void, outcome: String, bytes: Int, message: String, mediaFailed: Bool) in
                guard let reference = value as? String else {
                    return ((), UNError.Code.attachmentInvalidURL.outcome, 0, "\(key): expected a string, got \(KeyPath.typeName(value))", true)
                }
                do {
                    let a = try attachStep.attach(reference, identifier: "attachment-\(content.attachments.count + 1)", options: options, deadline: deadline)
                    content.attachments.append(a.attachment)
                    return ((), a.cacheHit ? "cache hit" : "attached", a.bytes, "\(key): \(reference.prefix(120)) (\(a.attachment.type))\(as_)", false)
                } catch let error as UNError {
                    return ((), error.code.outcome, 0, "\(key): \(error.message)\(as_)", true)
                } catch {
                    return ((), "failed", 0, "\(key): \(error)\(as_)", true)
                }
            }
        }
        // A payload value that is media but is attached from no key is never drawn: say so.
        let attachedFrom = Set(references.map(\.path) + ContentViewStep.imagePaths(.object(JSONValue.members(content.userInfo)), settings: settings))
        for (path, reference) in MediaRule(folders: folders).unattached(content.userInfo, attachedFrom: attachedFrom) {
            trace.add(.init(step: "attach", outcome: "not attached",
                            message: "\(path): \(reference.prefix(80)) looks like media, but \(path) is not in mediaKeys of pushpreview.json (\(settings.mediaKeys.joined(separator: ", ")))"
                                + (settings.sdks.isEmpty ? "" : " nor a media key of \(settings.sdks.map(\.name).joined(separator: ", "))")))
        }
        lock.withLock { bestAttempt = content }
        contentHandler(content)
    }

    /// Donates the messaging intent: `communication` from pushpreview.json (Mustache over the
    /// notification's data) fills what an enrich rule did not set; the sender's and group's
    /// images resolve as attachments do, to a file the content stage reads.
    func communicate(_ content: UNMutableNotificationContent) -> (outcome: String, bytes: Int, message: String) {
        var c = content.communication ?? UNCommunication(senderName: "")
        let data = TemplateValue.object(["title": .string(content.title), "subtitle": .string(content.subtitle), "body": .string(content.body),
                                         "userInfo": TemplateValue(json: .object(JSONValue.members(content.userInfo)))])
        var problems: [String] = [], bytes = 0
        for field in ServiceSettings.communicationFields {
            guard let source = settings.communication[field] else { continue }
            guard c[field: field] == nil else { continue } // an enrich rule set it
            let text: String
            do { text = try MustacheTemplate(source, name: "pushpreview.json communication.\(field)").render(data, html: false, localize: localize).trimmed } catch {
                problems.append("\(error)"); continue
            }
            c[field: field] = text
        }
        guard !c.senderName.isEmpty else {
            content.communication = nil
            // Not every notification is a message: with no sender the extension donates nothing.
            return (problems.isEmpty ? "skipped" : "failed", 0, (problems + ["communication.senderName is empty for this payload: no messaging intent donated, drawn as a plain notification"]).joined(separator: "; "))
        }
        // The images, each a file the content stage reads; one that cannot be had is the monogram.
        func resolve(_ reference: String?, _ what: String) -> String? {
            guard let reference else { return nil }
            do {
                let a = try attachStep.attach(reference, identifier: what, options: [:], deadline: deadline)
                guard MediaType(uti: a.attachment.type)?.kind == .image else {
                    problems.append("\(what) \(reference.prefix(80)) is not an image; drawing the monogram"); return nil
                }
                bytes += a.bytes
                c.images[a.attachment.url.path] = a.attachment.bytes
                return a.attachment.url.path
            } catch {
                problems.append("\(what) \(reference.prefix(80)): \(error.message); drawing the monogram")
                return nil
            }
        }
        c.senderImage = resolve(c.senderImage, "sender image")
        c.groupImage = resolve(c.groupImage, "group image")
        content.communication = c
        let who = c.groupName.map { "\(c.senderName) in \($0)" } ?? c.senderName
        return problems.isEmpty ? ("donated", bytes, "INSendMessageIntent from \(who)") : ("partly donated", bytes, "INSendMessageIntent from \(who); " + problems.joined(separator: "; "))
    }

    override func serviceExtensionTimeWillExpire() {
        // The step is recorded before the download is cancelled: cancelling lets didReceive run on
        // and deliver, which freezes the trace, and the expiry must be in it.
        let (handler, best) = lock.withLock { (contentHandler, bestAttempt) }
        trace.add(.init(step: "expire", outcome: best == nil ? "nothing ready" : "best attempt",
                        message: "serviceExtensionTimeWillExpire: delivering what was ready"), mediaFailed: true)
        attachStep.cancel()
        if let handler, let best { handler(best) }
    }

    /// The attachment options, as UNNotificationAttachment options: each read at its key path
    /// (`attachment-options.NAME` unless `attachmentOptions` in pushpreview.json names another);
    /// a value of the wrong type is said and left out.
    func attachmentOptions(_ userInfo: [AnyHashable: Any]) -> [AnyHashable: Any] {
        var options: [AnyHashable: Any] = [:]
        func value(_ name: String) -> Any? {
            let path = settings.attachmentOptions[name] ?? "attachment-options.\(name)"
            switch KeyPath(path).lookup(in: userInfo) {
            case .found(let v): return v
            case .missing: return nil
            case .wrongType(let at, let found):
                trace.add(.init(step: "attach", outcome: "option ignored", message: "\(name) at \(path): \(at) is \(found), not an object"))
                return nil
            }
        }
        func number(_ v: Any) -> Double? { type(of: v) == Bool.self ? nil : (v as? Double) ?? (v as? Int).map(Double.init) }
        func ignored(_ name: String, _ v: Any, _ expected: String) {
            trace.add(.init(step: "attach", outcome: "option ignored", message: "\(name): expected \(expected), got \(KeyPath.typeName(v))"))
        }
        if let v = value("type-hint") { if let hint = v as? String { options[UNNotificationAttachmentOptionsTypeHintKey] = hint } else { ignored("type-hint", v, "a string") } }
        if let v = value("thumbnail-hidden") {
            if type(of: v) == Bool.self, let hidden = v as? Bool { options[UNNotificationAttachmentOptionsThumbnailHiddenKey] = hidden }
            else if let n = number(v), n == 0 || n == 1 { options[UNNotificationAttachmentOptionsThumbnailHiddenKey] = n == 1 }
            else { ignored("thumbnail-hidden", v, "a boolean") }
        }
        if let v = value("thumbnail-time") { if let t = number(v), t.isFinite { options[UNNotificationAttachmentOptionsThumbnailTimeKey] = t } else { ignored("thumbnail-time", v, "a number") } }
        if let v = value("thumbnail-clipping-rect") {
            if let r = KeyPath.object(v) {
                var rect: [String: Double] = [:]
                for k in ["X", "Y", "Width", "Height"] { rect[k] = r[k].flatMap(number) }
                options[UNNotificationAttachmentOptionsThumbnailClippingRectKey] = rect
            } else { ignored("thumbnail-clipping-rect", v, "an object {X, Y, Width, Height}") }
        }
        return options
    }
}
