import Checked
import ConfinedFiles
import Foundation
import Imaging
import Payload
import Formats

/// The service stage: the system's localization of the alert, then the Notification Service
/// Extension (PushPreview's own, or a team's subclass) under the time budget, with graceful
/// degradation: full content → text without media → original content.
public struct ServiceStage: Sendable {
    public var projectFolder: URL { folders.project.url }
    /// Where the app's strings are: the project folder, or an Xcode app's localized folders
    /// (each opened beneath the project or the repository it reads the app from).
    public var stringsFolders: [ConfinedFolder]
    /// Setting them opens the folders they name anew.
    public var settings: ServiceSettings {
        get { folders.settings }
        set { folders = ServiceFolders(project: folders.project, settings: newValue) }
    }
    /// The folders the steps read and write (keys, enrichment data, media roots, the cache).
    public var folders: ServiceFolders
    /// The extension to run instead of the built-in one (a team's own, written on the same API).
    public var extensionType: UNNotificationServiceExtension.Type?

    public init(folders: ServiceFolders, stringsFolders: [ConfinedFolder]? = nil) {
        self.folders = folders
        self.stringsFolders = stringsFolders ?? [folders.project]
    }

    /// A project folder the person named (tests, `render` of a loose payload).
    public init(projectFolder: URL, settings: ServiceSettings = ServiceSettings()) throws(FileRefusal) {
        self.init(folders: try ServiceFolders(projectFolder: projectFolder, settings: settings))
    }

    /// `device`: `iphone` or `ipad`, for catalog entries that vary by device.
    public func run(_ payload: Payload, locale: String = "en", device: String = "iphone") -> DeliveredNotification {
        let trace = TraceRecorder()
        let request = UNNotificationRequest(identifier: URL(fileURLWithPath: payload.file).lastPathComponent,
                                            content: originalContent(payload, locale: locale, device: device, trace: trace))
        // iOS runs the extension only for mutable-content 1 with a title, subtitle or body.
        let alert = payload.alert
        let hasText = [alert?.title, alert?.subtitle, alert?.body, alert?.titleLocKey, alert?.subtitleLocKey, alert?.locKey].contains { $0?.isEmpty == false }
        guard payload.mutableContent, hasText else {
            trace.add(.init(step: "service", outcome: "not run", message: payload.mutableContent ? "the alert has no title, subtitle or body" : "mutable-content is not 1"))
            var note = delivered(request.content, trace: trace)
            note.simulation = payload.simulation
            note.trace.level = .original
            return note
        }
        let deadline = Date().addingTimeInterval(settings.timeBudget)
        let instance: UNNotificationServiceExtension = extensionType.map { $0.init() }
            ?? BuiltInServiceExtension(settings: settings, folders: folders, trace: trace, deadline: deadline, localize: { [stringsFolders] key in
                Localizer.shared(folders: stringsFolders, locale: locale, device: device).find(key: key)?.text
            })
        let outcome = ServiceRunner.run(instance, request: request, budget: settings.timeBudget)
        if !outcome.delivered {
            trace.add(.init(step: "deliver", outcome: "original", ms: (outcome.seconds * 1000).rounded(),
                            message: "the content handler was not called within \(formatSeconds(settings.timeBudget)) s; iOS shows the original content"))
        }
        var note = delivered(outcome.content, trace: trace)
        note.simulation = payload.simulation
        note.trace.ran = true
        // The category is registered with the content it was built for: not when the original is shown.
        if outcome.delivered, let category = (instance as? BuiltInServiceExtension)?.registeredCategory, category.identifier == note.category {
            note.registeredCategory = category
        }
        note.trace.level = !outcome.delivered || note.trace.level == .original ? .original
            : outcome.deliveredOnExpiry || trace.mediaFailed ? .textOnly : .full
        return note
    }

    /// What iOS builds before any extension runs: the alert, localized.
    func originalContent(_ payload: Payload, locale: String, device: String, trace: TraceRecorder) -> UNNotificationContent {
        let content = UNMutableNotificationContent()
        let alert = payload.alert ?? Payload.Alert()
        var localizer: Localizer?
        for (key, args, plain, set) in [
            (alert.titleLocKey, alert.titleLocArgs, alert.title, { (s: String) in content.title = s }),
            (alert.subtitleLocKey, alert.subtitleLocArgs, alert.subtitle, { (s: String) in content.subtitle = s }),
            (alert.locKey, alert.locArgs, alert.body, { (s: String) in content.body = s }),
        ] as [(String?, [String]?, String?, (String) -> Void)] {
            guard let key else { set(plain ?? ""); continue }
            if localizer == nil {
                localizer = Localizer.shared(folders: stringsFolders, locale: locale, device: device)
                for problem in localizer!.problems { trace.add(.init(step: "localize", outcome: "failed", message: problem)) }
            }
            let r = localizer!.resolve(key: key, args: args ?? [])
            set(r.text)
            trace.add(.init(step: "localize", outcome: r.source == nil ? "missing" : r.fellBack ? "fell back" : "localized",
                            message: ([r.source.map { "\(key) from \($0)" } ?? key] + r.warnings).joined(separator: "; ")))
        }
        content.badge = payload.badge.map { NSNumber(value: $0) }
        content.sound = payload.sound.map { $0 == "default" ? .default : UNNotificationSound(named: $0) }
        content.categoryIdentifier = payload.category ?? ""
        content.threadIdentifier = payload.threadId ?? ""
        content.targetContentIdentifier = payload.targetContentId
        content.relevanceScore = payload.relevanceScore ?? 0
        content.filterCriteria = payload.filterCriteria
        content.summaryArgument = alert.summaryArg ?? ""
        content.summaryArgumentCount = alert.summaryArgCount ?? 0
        content.interruptionLevel = payload.interruptionLevel.flatMap(UNNotificationInterruptionLevel.init(rawValue:)) ?? .active
        var userInfo: [AnyHashable: Any] = [:]
        for (key, value) in payload.userInfo { userInfo[key] = value.foundation }
        content.userInfo = userInfo
        return content.copy() as! UNNotificationContent
    }

    func delivered(_ content: UNNotificationContent, trace: TraceRecorder) -> DeliveredNotification {
        let frozen = trace.freeze()
        var t = ServiceTrace()
        t.steps = frozen.steps
        t.level = frozen.original ? .original : .full
        let attachments = content.attachments.map { a in
            Attachment(identifier: a.identifier, kind: MediaType(uti: a.type)?.kind ?? .image, uti: a.type, path: a.url.path,
                       bytes: a.bytes, thumbnailHidden: a.thumbnailHidden,
                       clippingRect: a.thumbnailClippingRect.map { [$0.x, $0.y, $0.width, $0.height] }, thumbnailTime: a.thumbnailTime)
        }
        var note = DeliveredNotification(title: content.title, subtitle: content.subtitle, body: content.body,
                                         category: content.categoryIdentifier.isEmpty ? nil : content.categoryIdentifier,
                                         threadId: content.threadIdentifier.isEmpty ? nil : content.threadIdentifier,
                                         badge: content.badge?.intValue, sound: content.sound.map { $0.name ?? "default" },
                                         attachments: attachments, userInfo: JSONValue.members(content.userInfo), trace: t)
        note.interruptionLevel = content.interruptionLevel
        note.targetContentId = content.targetContentIdentifier
        note.relevanceScore = content.relevanceScore
        note.filterCriteria = content.filterCriteria
        note.summaryArgument = content.summaryArgument.isEmpty ? nil : content.summaryArgument
        note.summaryArgumentCount = content.summaryArgumentCount == 0 ? nil : content.summaryArgumentCount
        if let c = content.communication, !c.senderName.isEmpty {
            func image(_ path: String?) -> DeliveredNotification.Communication.Image? {
                path.flatMap { p in c.images[p].map { .init(path: p, bytes: $0) } }
            }
            note.communication = .init(senderName: c.senderName, groupName: c.groupName, senderImage: image(c.senderImage), groupImage: image(c.groupImage))
            note.communication?.senderHandle = c.senderHandle
        }
        ContentViewStep(settings: settings, folders: folders).run(&note)
        return note
    }
}

func formatSeconds(_ s: Double) -> String { s == s.rounded() ? String(Int(saturating: s)) : String(s) }
