import Checked
import ContentStage
import Diagnostics
import Foundation
import Imaging
import Layout
import Payload
import Rendering
import ServiceStage
import Styling
import Templating
import Typography

/// Runs the whole pipeline for payload files. Owns one font system, so one renderer per thread.
public final class MockupRenderer {
    let fonts: FontSystem
    let templates: URL
    let images: ImageStore
    // What is kept across payloads, each within a budget of bytes (its keys' text counted too),
    // so a worker's memory stays flat however many payloads it is given.
    /// Banner thumbnails already made (PNGs of a few kB), by attachment, size and options.
    var thumbnails = BoundedCache<String, [UInt8]>(budget: 2 << 20)
    /// Video posters (PNGs up to a few hundred kB) and media durations already read, by file, size and time.
    var posters = BoundedCache<String, MediaPoster>(budget: 8 << 20)
    struct MediaPoster { var poster: [UInt8]?; var duration: Double?; var problem: String? }
    /// Warnings said once per payload (a key its template data lacks), for the payload being drawn.
    var saidForPayload: Set<String> = []
    /// Shared media files already written, by output folder (a renderer may write more than
    /// one), content and size.
    var mediaNames = BoundedCache<String, String>(budget: 1 << 20)
    /// The @font-face files loaded so far, by project folder and the `url()` a template gave
    /// (set again each time a page's style sheets are read, so never evicted before its page is written).
    var fontFaces = BoundedCache<String, URL>(budget: 256 << 10)
    private var stages: [URL: ContentStage] = [:]
    func localizer(_ job: Job) -> Localizer {
        Localizer.shared(folders: job.project.stringsFolders, locale: job.language, device: job.device.isPad ? "ipad" : "iphone")
    }

    /// The category's actions, or those the payload brings (`actionsFrom`): an extension that sets
    /// `notificationActions` replaces the category's. Each problem is said; an entry without an
    /// identifier or title is left out.
    func actions(_ n: DeliveredNotification, category: NotificationCategory?, settings: CategoryViewSettings, warnings: inout [String]) -> [NotificationAction] {
        guard let path = settings.actionsFrom else { return category?.actions ?? [] }
        let at = "pushpreview.json categories.\(n.category ?? "").actionsFrom \(path)"
        switch KeyPath(path).lookup(in: JSONValue.object(n.userInfo)) {
        case .missing:
            warnings.append("\(at): the payload has no \(path); the category's actions are shown")
            return category?.actions ?? []
        case .wrongType(let where_, let found):
            warnings.append("\(at): \(where_) is \(found); the category's actions are shown")
            return category?.actions ?? []
        case .found(let value):
            guard case .array(let items)? = value as? JSONValue else {
                warnings.append("\(at): expected an array of actions, got \(KeyPath.typeName(value)); the category's actions are shown")
                return category?.actions ?? []
            }
            return items.enumerated().compactMap { i, item in
                NotificationAction.read(item, at: "\(path)[\(i)]", names: settings.actionFields) { severity, place, message in
                    warnings.append("payload \(place): \(message)")
                }
            }
        }
    }

    /// Told what the renderer is about to do, so a supervisor can say where a worker died.
    public var activity: ((String) -> Void)?
    private var catalogs: [URL: [DeviceProfile]] = [:]

    /// One content stage per project for the renderer's life: templates are read and parsed once.
    func contentStage(for project: Project) -> ContentStage {
        if let known = stages[project.folder] { return known }
        let stage = ContentStage(templateFolders: [project.folder.appendingPathComponent("Templates"), templates])
        stages[project.folder] = stage
        return stage
    }

    /// `pixelCache`: give every worker of a run the same one, so each image is decoded once.
    public init(fonts: FontSet, templates: URL, pixelCache: PixelCache = PixelCache()) throws(TypographyError) {
        self.fonts = try FontSystem(fonts: fonts)
        self.templates = templates
        images = ImageStore(pixelCache: pixelCache)
    }

    /// The device profiles a project can use: the repository's, then its own `devices.json`
    /// (read once per project for the renderer's life, not once per payload).
    public func deviceProfiles(for project: Project) throws(ConfigError) -> [DeviceProfile] {
        if let known = catalogs[project.folder] { return known }
        let catalog = try Self.deviceCatalog(templates: templates, project: project)
        catalogs[project.folder] = catalog
        return catalog
    }

    public static func deviceCatalog(templates: URL, project: Project) throws(ConfigError) -> [DeviceProfile] {
        try DeviceProfile.catalog([templates.appendingPathComponent("system/devices.json"), project.folder.appendingPathComponent("devices.json")])
    }

    /// Renders one payload file in every requested variant. Never throws: a failure is a result with errors.
    public func render(payloadFile: URL, project: Project, options: RenderOptions) -> [MockupResult] {
        let failure = { (message: String) in
            [MockupResult(payload: payloadFile.path, device: "", appearance: "", locale: nil, view: "expanded",
                          outputs: [], warnings: [], errors: [message], service: .none)]
        }
        saidForPayload = []
        guard let data = FileManager.default.contents(atPath: payloadFile.path) else {
            return failure("\(payloadFile.path): no such file (check the path)")
        }
        let payload: Payload, diagnostics: [Diagnostic]
        do { (payload, diagnostics) = try PayloadParser.parse([UInt8](data), file: payloadFile.path) } catch {
            return failure(error.description)
        }
        let catalog: [DeviceProfile]
        do { catalog = try deviceProfiles(for: project) } catch { return failure(error.description) }
        var service = ServiceStage(projectFolder: project.folder, stringsFolders: project.stringsFolders, settings: project.service)
        if let budget = options.timeBudget { service.settings.timeBudget = budget }
        var notifications: [String: DeliveredNotification] = [:]
        let stage = contentStage(for: project)
        var results: [MockupResult] = []
        let plan = ViewPlan(payload: payload, project: project, options: options, catalog: catalog)
        for id in plan.unknownDevices { results += failure("unknown device '\(id)'; known: \(catalog.map(\.id).joined(separator: ", "))") }
        for planned in plan.notifications {
            let key = "\(planned.language)|\(planned.idiom)"
            if notifications[key] == nil {
                activity?("running the service stage (\(planned.language), \(planned.idiom))")
                notifications[key] = service.run(payload, locale: planned.language, device: planned.idiom)
            }
            let job = Job(notification: notifications[key]!, project: project, stage: stage, device: planned.device, appearance: planned.appearance,
                          locale: planned.locale, textSize: planned.textSize, payloadFile: payloadFile, options: options,
                          warnings: diagnostics.map(\.description) + notifications[key]!.trace.fallbacks)
            results += render(job)
        }
        return results
    }

    /// One notification on one device, appearance and locale: the inputs every view shares.
    struct Job {
        var notification: DeliveredNotification
        var project: Project
        var stage: ContentStage
        var device: DeviceProfile
        var appearance: Appearance
        var locale: String?
        var textSize: TextSize
        var payloadFile: URL
        var options: RenderOptions
        var warnings: [String]
        var language: String { locale ?? "en" }
        var folder: URL { options.outputFolder.appendingPathComponent(payloadFile.deletingPathExtension().lastPathComponent) }
        /// DEVICE-APPEARANCE[-LOCALE][-TEXTSIZE]-VIEW: the default text size is not named.
        func stem(_ view: String) -> String {
            ([device.id, appearance.rawValue, locale, textSize == .standard ? nil : textSize.rawValue].compactMap { $0 } + [view]).joined(separator: "-")
        }
    }

    /// The expanded view, the banner (or its hidden-previews form) and, for a category with a
    /// text-input action, the `-reply` view.
    func render(_ job: Job) -> [MockupResult] {
        let n = job.notification, config = job.project.content
        var (base, made) = begin(job, view: "expanded")
        guard var context = made else { return [base] }

        // The category: its extension (Info.plist), actions (categories.json) and view settings.
        let ext = config.contentExtension(for: n.category)
        let category = config.category(n.category)
        let settings = n.category.flatMap { config.viewSettings[$0] } ?? CategoryViewSettings()
        // The project's own issues are said once per run (Project.issues); a mock-up carries those
        // about its category, with their severity.
        base.warnings += config.issues.filter { $0.category != nil && $0.category == n.category }.map(\.printed)
        if ext != nil, category == nil, let id = n.category {  // validate's finding about the extension, on its mock-ups
            base.warnings.append(Diagnostic(.warning, file: ext!.file, keyPath: Validator.categoryKey, "claims category \"\(id)\", which categories.json does not define: it has no actions").description)
        } else if let unknown = Validator.unknownCategory(n.category, file: job.payloadFile.path, in: config) {
            base.warnings.append(unknown.description)
        }
        var customView: ContentStage.CustomView?
        var templateFile: String?
        do {
            (customView, templateFile) = try customViewSource(job, ext: ext, category: category, result: &base)
        } catch {
            base.errors.append("\(error)")
            return [base]
        }
        if let ext {
            context.showDefaultContent = !ext.defaultContentHidden
            if ext.overridesDefaultTitle {
                if let title = settings.title {
                    do { context.customTitle = try MustacheTemplate(title, name: "pushpreview.json categories.\(n.category ?? "").title").render(context.value(icon: { _ in nil }, icons: [:]), html: false) }
                    catch { base.warnings.append("\(error)") }
                }  // else: the configuration's issue, carried above
            }
        }
        let strings = localizer(job)
        // Only a content extension sets notificationActions (the validator says when none claims the category).
        context.actions = Array(actions(n, category: category, settings: ext == nil ? CategoryViewSettings() : settings, warnings: &base.warnings).prefix(NotificationCategory.maxActions))
            .map { action in
                let (shown, found) = ActionTexts.localized(action, strings, category: n.category)
                base.warnings += found.map(\.description)
                return shown
            }
        if settings.mediaPlayPauseButtonType != .none, let frame = settings.mediaPlayPauseButtonFrame {
            context.mediaButton = .init(type: settings.mediaPlayPauseButtonType, frame: frame, tint: settings.mediaPlayPauseButtonTintColor,
                                        playing: job.options.mediaPlaying)
        }
        context.customView.showLimits = job.options.showLimits

        var results: [MockupResult] = []
        // Review variants keep their own files: -limits (--show-limits), -playing (--media-state playing).
        let variant = (job.options.showLimits && customView != nil ? "-limits" : "") + (context.mediaButton != nil && job.options.mediaPlaying ? "-playing" : "")
        // The long-look.
        var expanded = base
        expanded.view = "expanded" + variant
        if context.customTitle != nil && !context.showDefaultContent {
            expanded.notes = ["UNNotificationExtensionOverridesDefaultTitle: the view controller's title becomes the notification's title, in the row below the custom view that UNNotificationExtensionDefaultContentHidden hides; iOS 15 and later have no header, so it shows nowhere"]
        }
        expanded.actions = context.actions.map(Self.report)
        render(.expanded, name: expanded.view, context: context, customView: customView, ratio: ext?.initialContentSizeRatio ?? 1,
               templateFile: templateFile, job: job, result: &expanded)
        results.append(expanded)

        // What a reviewer needs beside it (gallery): a clipped view drawn whole with its limit,
        // and the play/pause button while playing.
        if job.options.reviewVariants {
            var review: [(String, TemplateContext)] = []
            if (expanded.content?.clippedBy ?? 0) > 0 && !job.options.showLimits {
                var c = context
                c.customView.showLimits = true
                review.append(("expanded-limits", c))
            }
            if let button = context.mediaButton, !button.playing {
                var c = context
                c.mediaButton?.playing = true
                review.append(("expanded-playing", c))
            }
            for (name, c) in review {
                var variant = base
                variant.view = name
                render(.expanded, name: name, context: c, customView: customView, ratio: ext?.initialContentSizeRatio ?? 1,
                       templateFile: templateFile, job: job, result: &variant)
                results.append(variant)
            }
        }

        // The collapsed banner: the first two actions are what limited space shows.
        var banner = base
        banner.view = job.options.hiddenPreviews ? "banner-hidden" : "banner"
        banner.actions = Array(context.actions.prefix(NotificationCategory.compactActions)).map(Self.report)
        if n.interruptionLevel == .passive {
            banner.notes = ["interruption-level passive: iOS shows no banner, plays no sound and does not light the screen; the notification goes straight to Notification Center, where it looks like this"]
        }
        var bannerContext = context
        bannerContext.customTitle = nil
        if job.options.hiddenPreviews {
            hidePreview(&bannerContext, category: category, job: job, result: &banner)
        } else {
            bannerContext.banner.thumbnail = thumbnail(for: n, job: job, result: &banner)
        }
        render(.banner, name: banner.view, context: bannerContext, customView: nil, ratio: 1, templateFile: nil, job: job, result: &banner)
        results.append(banner)
        if job.options.reviewVariants, !job.options.hiddenPreviews, let category, category.hiddenPreviewsBodyPlaceholder != nil {
            var hidden = banner
            hidden.view = "banner-hidden"
            hidden.outputs = []
            var c = context
            hidePreview(&c, category: category, job: job, result: &hidden)
            render(.banner, name: hidden.view, context: c, customView: nil, ratio: 1, templateFile: nil, job: job, result: &hidden)
            results.append(hidden)
        }

        // On the Lock Screen and in Notification Center (`--view`), alone; a thread's stack has its own.
        results += screens(bannerContext, name: "", base: base, job: job)

        // After tapping the first text-input action.
        if let input = context.actions.first(where: { $0.textInput != nil }) {
            var reply = base
            reply.view = "reply" + variant
            reply.actions = [Self.report(input)]
            var replyContext = context
            replyContext.reply = input.textInput
            render(.reply, name: reply.view, context: replyContext, customView: customView, ratio: ext?.initialContentSizeRatio ?? 1,
                   templateFile: templateFile, job: job, result: &reply)
            results.append(reply)
        }
        return results
    }

    /// What every view of a job starts from: its result and its template data, the page's images
    /// begun; no data when an attachment or the icon could not be read (the result says why).
    func begin(_ job: Job, view: String) -> (MockupResult, TemplateContext?) {
        let n = job.notification
        var base = MockupResult(payload: job.payloadFile.path, device: job.device.id, appearance: job.appearance.rawValue, locale: job.locale,
                                view: view, category: n.category, outputs: [], warnings: job.warnings, errors: [], service: ServiceReport(n.trace),
                                textSize: job.textSize.rawValue, interruptionLevel: n.interruptionLevel.rawValue, threadId: n.threadId)
        images.beginPage()
        images.resolver = { src in Self.resolveTemplateImage(src, project: job.project) }
        do {
            let context = try makeContext(job, result: &base)
            return (base, context)
        } catch {
            base.errors.append("\(error)")
            return (base, nil)
        }
    }

    /// With previews hidden iOS shows the app icon (not a sender's avatar), the title
    /// "Notification" in the locale's words (or the real one, with hiddenPreviewsShowTitle), the
    /// subtitle only with hiddenPreviewsShowSubtitle, and the category's placeholder body, `%u`
    /// being the thread's count (one here); no thumbnail.
    func hidePreview(_ context: inout TemplateContext, category: NotificationCategory?, job: Job, result: inout MockupResult) {
        let n = context.notification, options = category?.options ?? []
        var banner = TemplateContext.Banner()
        banner.title = options.contains(.hiddenPreviewsShowTitle) && !n.title.isEmpty ? n.title : systemString("Notification", job: job, result: &result)
        banner.subtitle = options.contains(.hiddenPreviewsShowSubtitle) ? n.subtitle : ""
        banner.body = (category?.hiddenPreviewsBodyPlaceholder ?? "").replacingOccurrences(of: "%u", with: "1")
        context.banner = banner
        context.notification.communication = nil
    }

    static func report(_ a: NotificationAction) -> ActionReport {
        ActionReport(identifier: a.identifier, title: a.title, options: a.options.map(\.rawValue), textInput: a.textInput != nil)
    }
}
