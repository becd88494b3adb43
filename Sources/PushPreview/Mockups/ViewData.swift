import ConfinedFiles
import ContentStage
import Diagnostics
import Foundation
import Payload
import ServiceStage
import Templating
import Formats

/// What a view's templates are filled from, in the job's locale: the notification as delivered,
/// the app's name, the images media preparation registered, the category's actions and the
/// custom view's template, and what iOS itself writes (a level's label, "Notification", a
/// stack's summary, the Lock Screen's clock).
struct ViewData {
    /// The share folder's templates, whose `system/strings` hold iOS's own words.
    let templates: URL
    let systemStrings: [ConfinedFolder]
    /// Each iOS version's chrome data, read once (a broken install fails the mock-ups that need it).
    let chrome: [IOSVersion: Result<IOSChrome, ConfigError>]

    init(templates: URL) {
        self.templates = templates
        chrome = Dictionary(uniqueKeysWithValues: IOSVersion.allCases.map { v in (v, Result { () throws(ConfigError) in try IOSChrome.load(templates: templates, version: v) }) })
        systemStrings = [try? ConfinedFolder(trusted: templates.appendingPathComponent("system/strings"))].compactMap { $0 }
    }

    func localizer(_ job: MockupRenderer.Job) -> Localizer {
        Localizer.shared(folders: job.project.stringsFolders, locale: job.language, device: job.device.isPad ? "ipad" : "iphone")
    }

    /// The data every view of the job starts from, the page's images registered by `media`.
    func context(_ job: MockupRenderer.Job, media: MediaPreparation, result: inout MockupResult) throws(ConfigError) -> TemplateContext {
        let sources = try media.attachments(job.notification.attachments, job: job, result: &result)
        let icon = media.appIcon(job, result: &result)
        // The app's name as the device shows it: CFBundleDisplayName from InfoPlist.strings, per locale.
        let appName = localizer(job).find(key: "CFBundleDisplayName", table: "InfoPlist")?.text ?? job.project.appName
        var context = TemplateContext(notification: job.notification, appName: appName, appIconSource: icon, device: job.device, chrome: job.chrome,
                                      appearance: job.appearance, locale: job.language, attachmentSources: sources)
        context.contentViewSources = try media.attachments(job.notification.contentView?.images ?? [], prefix: "view-", job: job, result: &result)
        context.textSize = job.textSize
        context.ios = try chrome[job.ios]!.get()
        context.glass = job.variant.glass
        context.avatarSource = media.avatar(job, result: &result)
        context.wallpaperSource = media.wallpaper(job, result: &result)
        if job.notification.simulation?.summary != nil {
            context.simulationAttribution = systemString("Summarized by Apple Intelligence", job: job, result: &result)
        }
        switch job.notification.interruptionLevel {
        case .timeSensitive: context.levelLabel = systemString("Time Sensitive", job: job, result: &result)
        case .critical: context.levelLabel = systemString("Critical", job: job, result: &result) // iOS 18: "⚠ CRITICAL"
        case .active, .passive: break
        }
        return context
    }

    /// What iOS itself writes (a level's label, a stack's summary), in the job's locale, from
    /// `Templates/system/strings`; a locale it lacks is said and shown in English.
    func systemString(_ key: String, args: [String] = [], job: MockupRenderer.Job, result: inout MockupResult) -> String {
        let strings = Localizer.shared(folders: systemStrings, locale: job.language)
        let found = strings.resolve(key: key, args: args)
        if found.fellBack || found.source == nil {
            result.say(Diagnostic(.warning, code: .systemStrings, "PushPreview has no \(job.language) words for the system's \"\(key)\"; drawn as \"\(found.text)\"", locale: job.language))
        }
        return found.text
    }

    /// The category's actions, or those the payload brings (`actionsFrom`): an extension that sets
    /// `notificationActions` replaces the category's. Each problem is said; an entry without an
    /// identifier or title is left out.
    func actions(_ n: DeliveredNotification, category: NotificationCategory?, settings: CategoryViewSettings, findings: inout [Diagnostic]) -> [NotificationAction] {
        guard let path = settings.actionsFrom else { return category?.actions ?? [] }
        func warn(_ message: String) {
            findings.append(Diagnostic(.warning, code: .actions, file: Project.settingsFile, keyPath: "categories.\(n.category ?? "").actionsFrom", "\(path): \(message)"))
        }
        switch KeyPath(path).lookup(in: JSONValue.object(n.userInfo)) {
        case .missing:
            warn("the payload has no \(path); the category's actions are shown")
            return category?.actions ?? []
        case .wrongType(let where_, let found):
            warn("\(where_) is \(found); the category's actions are shown")
            return category?.actions ?? []
        case .found(let value):
            guard case .array(let items)? = value as? JSONValue else {
                warn("expected an array of actions, got \(KeyPath.typeName(value)); the category's actions are shown")
                return category?.actions ?? []
            }
            return items.enumerated().compactMap { i, item in
                NotificationAction.read(item, at: "\(path)[\(i)]", names: settings.actionFields) { severity, place, message in
                    findings.append(Diagnostic(.warning, code: .actions, keyPath: place, "in the payload: \(message)"))
                }
            }
        }
    }

    /// `--template`, else the template of the category's extension: `Templates/ID.html` (or the
    /// category's `template`) in the project, then among the share folder's stock templates; and
    /// the name the report gives it.
    func customView(_ job: MockupRenderer.Job, ext: ContentExtension?, category: NotificationCategory?,
                    result: inout MockupResult) throws(TemplateError) -> (ContentStage.CustomView?, String?) {
        if let template = job.options.template {
            // `--template`: a file the person named.
            guard let data = try? Project.read(template, in: job.project) else {
                throw TemplateError(file: template.path, line: 0, message: "no such template file")
            }
            return (.init(source: String(decoding: data, as: UTF8.self), file: template.path), template.path)
        }
        guard let ext, let id = job.notification.category else { return (nil, nil) }
        let name = (category?.template ?? id) + ".html"
        for (index, folder) in job.stage.templateFolders.enumerated() {
            let file = folder.url.appendingPathComponent(name)
            if let data = try? folder.read(name, limit: 4 << 20) {
                // Reported as the project names it (Templates/ID.html, or stock/NAME.html among
                // the share folder's), not by where the project or the tool happen to be.
                return (.init(source: String(decoding: data, as: UTF8.self), file: file.path), index == 0 ? "Templates/\(name)" : name)
            }
        }
        var missing = Validator.missingTemplate(id, name: name, claimedBy: ext)
        missing.severity = .warning; missing.message += "; drawing the system's default expanded look"
        result.findings.append(missing)
        return (nil, nil)
    }

    /// With previews hidden iOS shows the app icon (not a sender's avatar), the title
    /// "Notification" in the locale's words (or the real one, with hiddenPreviewsShowTitle), the
    /// subtitle only with hiddenPreviewsShowSubtitle, and the category's placeholder body, `%u`
    /// being the thread's count (one here); no thumbnail.
    func hidePreview(_ context: inout TemplateContext, category: NotificationCategory?, job: MockupRenderer.Job, result: inout MockupResult) {
        let n = context.notification, options = category?.options ?? []
        var banner = TemplateContext.Banner()
        banner.title = options.contains(.hiddenPreviewsShowTitle) && !n.title.isEmpty ? n.title : systemString("Notification", job: job, result: &result)
        banner.subtitle = options.contains(.hiddenPreviewsShowSubtitle) ? n.subtitle : ""
        banner.body = (category?.hiddenPreviewsBodyPlaceholder ?? "").replacingOccurrences(of: "%u", with: "1")
        context.banner = banner
        context.notification.communication = nil
    }

    /// The Lock Screen's date and clock, at Apple's demo time (9:41 on Tuesday 9 January 2007),
    /// in the job's locale, so that every run draws the same page.
    func lockScreen(_ job: MockupRenderer.Job) -> TemplateContext.LockScreen {
        let locale = Locale(identifier: job.language)
        let formatter = DateFormatter()
        formatter.locale = locale
        formatter.timeZone = TimeZone(identifier: "UTC")
        let moment = Date(timeIntervalSince1970: 1_168_335_660) // 2007-01-09 09:41 UTC
        formatter.setLocalizedDateFormatFromTemplate("EEEEMMMMd")
        let date = formatter.string(from: moment)
        // The clock without its day period, as the Lock Screen draws it.
        formatter.setLocalizedDateFormatFromTemplate("jmm")
        formatter.dateFormat = formatter.dateFormat.replacingOccurrences(of: "a", with: "").replacingOccurrences(of: "B", with: "")
            .trimmingCharacters(in: .whitespaces)
        let clock = formatter.string(from: moment).trimmingCharacters(in: .whitespaces)
        return .init(date: date, clock: clock, device: job.device, chrome: job.chrome)
    }

    /// A thread's summary line: the category's `categorySummaryFormat` (a key of the app's strings,
    /// or the format itself) with the count and the notifications' summary arguments, pluralized
    /// for the locale; else the system's "N more notifications".
    func summary(count: Int, arguments: [String], category: NotificationCategory?, job: MockupRenderer.Job, result: inout MockupResult) -> String {
        let args = ["\(count)", arguments.joined(separator: ", ")]
        guard let format = category?.categorySummaryFormat else { return systemString("%u more notifications", args: args, job: job, result: &result) }
        if let found = localizer(job).find(key: format, args: args) {
            if found.fellBack { result.findings += found.warnings.prefix(1).map { Diagnostic(.warning, code: .strings, keyPath: "categorySummaryFormat", $0, category: category?.identifier) } }
            return found.text
        }
        return Localizer.format(format, args).text
    }
}
