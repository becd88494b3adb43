import ConfinedFiles
import ContentStage
import Diagnostics
import Foundation
import Payload
import Rendering
import ServiceStage
import Styling
import Templating
import Typography

/// Runs the whole pipeline for payload files. Owns one font system, so one renderer per thread.
/// Runs the whole pipeline for payload files: the view plan says which notifications a payload
/// is drawn as; the service stage delivers each; then, per view, the template data (with the
/// images media preparation registers) is laid out and the writer writes it. Owns one font
/// system, so one renderer per thread.
public final class MockupRenderer {
    let fonts: FontSystem
    let templates: URL
    let media: MediaPreparation
    let data: ViewData
    let writer: MockupWriter
    /// The chrome's numbers per iOS version (`Templates/system/iosNN/metrics.json`, a later
    /// version's rows over the one it overlays), read once.
    let chromes: [IOSVersion: Result<ChromeMetrics, ConfigError>]
    /// Warnings said once per payload (a key its template data lacks), for the payload being drawn.
    var saidForPayload: Set<String> = []
    private var stages: [URL: ContentStage] = [:]

    /// Told what the renderer is about to do, so a supervisor can say where a worker died.
    public var activity: ((String) -> Void)?
    private var catalogs: [URL: [DeviceProfile]] = [:]
    /// Output folders held open, by `--out` and subfolder.
    private var outputs: [String: ConfinedFolder] = [:]

    /// One content stage per project for the renderer's life: templates are read and parsed once.
    func contentStage(for project: Project) -> ContentStage {
        if let known = stages[project.folder] { return known }
        let stage = ContentStage(project: project.files, templates: templates)
        stages[project.folder] = stage
        return stage
    }

    /// The folder mock-ups are written into: `--out` as named, then its subfolder beneath it
    /// with no link followed (a committed `received` symlink is refused, not written through).
    func output(_ options: RenderOptions) throws(FileRefusal) -> ConfinedFolder {
        let key = options.outputFolder.path + "\u{0}" + options.outputSubfolder
        if let known = outputs[key] { return known }
        var folder = try ConfinedFolder(trusted: options.outputFolder, links: .refused, create: true)
        if !options.outputSubfolder.isEmpty { folder = try folder.folder(options.outputSubfolder, links: .refused, create: true) }
        outputs[key] = folder
        return folder
    }

    /// `pixelCache`: give every worker of a run the same one, so each image is decoded once.
    public init(fonts: FontSet, templates: URL, pixelCache: PixelCache = PixelCache()) throws(TypographyError) {
        self.fonts = try FontSystem(fonts: fonts)
        self.templates = templates
        media = MediaPreparation(pixelCache: pixelCache)
        data = ViewData(templates: templates)
        writer = MockupWriter(fonts: self.fonts, images: media.images)
        chromes = Dictionary(uniqueKeysWithValues: IOSVersion.allCases.map { v in
            (v, Result { () throws(ConfigError) in try ChromeMetrics.load(templates: templates, version: "ios" + v.rawValue) })
        })
    }

    func chrome(_ version: IOSVersion) throws(ConfigError) -> ChromeMetrics { try chromes[version]!.get() }

    /// The device profiles a project can use: the repository's, then its own `devices.json`
    /// (read once per project for the renderer's life, not once per payload).
    public func deviceProfiles(for project: Project) throws(ConfigError) -> [DeviceProfile] {
        if let known = catalogs[project.folder] { return known }
        let catalog = try Self.deviceCatalog(templates: templates, project: project)
        catalogs[project.folder] = catalog
        return catalog
    }

    public static func deviceCatalog(templates: URL, project: Project) throws(ConfigError) -> [DeviceProfile] {
        try DeviceProfile.catalog(templates: templates, project: project.files)
    }

    /// Renders one payload file in every requested variant. Never throws: a failure is a result with errors.
    public func render(payloadFile: URL, project: Project, options: RenderOptions) -> [MockupResult] {
        let failure = { (finding: Diagnostic) in [MockupResult.failed(payloadFile.path, [finding])] }
        saidForPayload = []
        let data: [UInt8]
        do { data = try Self.readPayload(payloadFile, project: project) } catch {
            return failure(Diagnostic(.error, code: .path, file: payloadFile.path, error.isMissing ? "no such file (check the path)" : error.why))
        }
        let payload: Payload, diagnostics: [Diagnostic]
        do { (payload, diagnostics) = try PayloadParser.parse(data, file: payloadFile.path) } catch {
            return [.failed(payloadFile.path, error.diagnostics)]
        }
        let catalog: [DeviceProfile]
        do { catalog = try deviceProfiles(for: project) } catch { return failure(Diagnostic(.error, code: .devices, error.description)) }
        let output: ConfinedFolder
        do { output = try self.output(options) } catch { return failure(Diagnostic(.error, code: .path, file: error.fullPath, "\(error.why); nothing written")) }
        let service = ServiceStage(folders: project.serviceFolders.budget(options.timeBudget), stringsFolders: project.stringsFolders)
        var notifications: [String: DeliveredNotification] = [:]
        let stage = contentStage(for: project)
        var results: [MockupResult] = []
        let plan = ViewPlan(payload: payload, project: project, options: options, catalog: catalog)
        for id in plan.unknownDevices { results += failure(Diagnostic(.error, code: .devices, "unknown device '\(id)'; known: \(catalog.map(\.id).joined(separator: ", "))")) }
        for planned in plan.notifications {
            let key = "\(planned.language)|\(planned.idiom)"
            if notifications[key] == nil {
                activity?("running the service stage (\(planned.language), \(planned.idiom))")
                notifications[key] = service.run(payload, locale: planned.language, device: planned.idiom)
            }
            let chrome: ChromeMetrics
            do { chrome = try self.chrome(planned.variant.ios) } catch { results += failure(Diagnostic(.error, code: .failure, error.description)); continue }
            let job = Job(notification: notifications[key]!, project: project, stage: stage, device: planned.device, chrome: chrome, variant: planned.variant,
                          payloadFile: payloadFile, options: options, output: output,
                          findings: diagnostics + notifications[key]!.trace.fallbacks)
            results += render(job)
        }
        return results
    }

    /// A payload's bytes: beneath the project folder when it lies there (a committed link that
    /// leads out is refused), else as the person named it (`render FILE`).
    static func readPayload(_ file: URL, project: Project) throws(FileRefusal) -> [UInt8] {
        try Project.read(file, in: project, limit: 1 << 20)
    }

    /// One notification on one device, appearance and locale: the inputs every view shares.
    struct Job {
        var notification: DeliveredNotification
        var project: Project
        var stage: ContentStage
        var device: DeviceProfile
        var chrome: ChromeMetrics
        var variant: Variant
        var appearance: Appearance { variant.appearance }
        var locale: String? { variant.locale }
        var textSize: TextSize { variant.textSize }
        var ios: IOSVersion { variant.ios }
        var payloadFile: URL
        var options: RenderOptions
        /// The output folder, held open (`--out` and its subfolder).
        var output: ConfinedFolder
        /// The payload's and the service stage's findings, on every view.
        var findings: [Diagnostic]
        var language: String { locale ?? "en" }
        /// The payload's folder beneath the output folder.
        var folderName: String { payloadFile.deletingPathExtension().lastPathComponent }
        /// The variant's file stem (`Variant.stem`).
        func stem(_ view: String) -> String { variant.stem(view, namesIOS: options.axes.namesIOS, namesGlass: options.axes.namesGlass) }
    }

    /// The expanded view, the banner (or its hidden-previews form) and, for a category with a
    /// text-input action, the `-reply` view.
    func render(_ job: Job) -> [MockupResult] {
        let n = job.notification, config = job.project.content
        var (base, made) = begin(job, view: "expanded")
        guard var context = made else { return [base] }

        // The category: its extension (Info.plist), actions (categories.json) and view settings.
        let ext = config.contentExtension(for: n.category)
        // A category the extension registered while delivering (a push SDK's buttons) when the project defines none.
        let category = config.category(n.category) ?? n.registeredCategory.map(NotificationCategory.init(registered:))
        let settings = n.category.flatMap { config.viewSettings[$0] } ?? CategoryViewSettings()
        // The project's own issues are said once per run (Project.issues); a mock-up carries those
        // about its category, with their severity.
        base.findings += config.issues.filter { $0.category != nil && $0.category == n.category }
        if let ext, category == nil, let id = n.category {  // validate's finding about the extension, on its mock-ups
            base.findings.append(Validator.undefinedCategory(id, claimedBy: ext))
        } else if n.registeredCategory == nil, let unknown = Validator.unknownCategory(n.category, file: job.payloadFile.path, in: config) {
            base.findings.append(unknown)
        }
        var customView: ContentStage.CustomView?
        var templateFile: String?
        do {
            (customView, templateFile) = try data.customView(job, ext: ext, category: category, result: &base)
        } catch {
            base.findings.append(error.asDiagnostic)
            return [base]
        }
        if let ext {
            context.showDefaultContent = !ext.defaultContentHidden
            if ext.overridesDefaultTitle {
                if let title = settings.title {
                    do { context.customTitle = try MustacheTemplate(title, name: "pushpreview.json categories.\(n.category ?? "").title").render(context.value(icon: { _ in nil }, icons: [:]), html: false) }
                    catch { base.findings.append(error.asDiagnostic) }
                }  // else: the configuration's issue, carried above
            }
        }
        let strings = data.localizer(job)
        // Only a content extension sets notificationActions (the validator says when none claims the category).
        context.actions = Array(data.actions(n, category: category, settings: ext == nil ? CategoryViewSettings() : settings, findings: &base.findings).prefix(NotificationCategory.maxActions))
            .map { action in
                let (shown, found) = ActionTexts.localized(action, strings, category: n.category)
                base.findings += found
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
            expanded.notes = (expanded.notes ?? []) + ["UNNotificationExtensionOverridesDefaultTitle: the view controller's title becomes the notification's title, in the row below the custom view that UNNotificationExtensionDefaultContentHidden hides; iOS 15 and later have no header, so it shows nowhere"]
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
            banner.notes = (banner.notes ?? []) + ["interruption-level passive: iOS shows no banner, plays no sound and does not light the screen; the notification goes straight to Notification Center, where it looks like this"]
        }
        var bannerContext = context
        bannerContext.customTitle = nil
        if job.options.hiddenPreviews {
            data.hidePreview(&bannerContext, category: category, job: job, result: &banner)
        } else {
            bannerContext.banner.thumbnail = media.thumbnail(for: n, job: job, result: &banner)
        }
        // Over the app, when a screenshot of it is given (the Lock Screen keeps the wallpaper).
        var overApp = bannerContext
        overApp.wallpaperSource = media.appScreen(job, result: &banner) ?? overApp.wallpaperSource
        render(.banner, name: banner.view, context: overApp, customView: nil, ratio: 1, templateFile: nil, job: job, result: &banner)
        results.append(banner)
        if job.options.reviewVariants, !job.options.hiddenPreviews, let category, category.hiddenPreviewsBodyPlaceholder != nil {
            var hidden = banner
            hidden.view = "banner-hidden"
            hidden.outputs = []
            var c = context
            c.wallpaperSource = overApp.wallpaperSource
            data.hidePreview(&c, category: category, job: job, result: &hidden)
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
    /// registered; no data when an attachment could not be read (the result says why).
    func begin(_ job: Job, view: String) -> (MockupResult, TemplateContext?) {
        let n = job.notification
        var base = MockupResult(payload: job.payloadFile.path, device: job.device.id, appearance: job.appearance.rawValue, locale: job.locale,
                                view: view, category: n.category, findings: job.findings, service: ServiceReport(n.trace))
        base.textSize = job.textSize.rawValue; base.interruptionLevel = n.interruptionLevel.rawValue; base.threadId = n.threadId; base.ios = job.ios.rawValue
        base.glass = job.ios.has(.glassPlatter) ? job.variant.glass.rawValue : nil
        base.accessibility = job.variant.accessibility == .standard ? nil : job.variant.accessibility.rawValue
        media.beginPage(job.project)
        loadAppFonts(job, result: &base)
        base.systemFont = fonts.systemFace.name
        if let s = n.simulation {
            let what = [s.summary.map { _ in "an Apple Intelligence summary (iOS 18.1 and later) in place of the body" },
                        s.prioritized ? "the edge light of a notification Prioritize Notifications picked (iOS 18.4 and later)" : nil].compactMap { $0 }
            if !what.isEmpty { base.notes = ["Simulated, as the payload's \(Payload.Simulation.key) asks: " + what.joined(separator: " and ") + "; iOS decides these itself"] }
        }
        do {
            var context = try data.context(job, media: media, result: &base)
            context.systemFace = fonts.systemFace
            return (base, context)
        } catch {
            base.findings.append(error.asDiagnostic)
            return (base, nil)
        }
    }

    /// The optional whole-screen views asked for (`--view`): the notification (or the stack) on
    /// the Lock Screen, rising from the bottom, and in Notification Center, listed under the clock.
    func screens(_ context: TemplateContext, name prefix: String, base: MockupResult, job: Job) -> [MockupResult] {
        RenderOptions.optionalViews.filter(job.options.extraViews.contains).map { view in
            var result = base
            result.view = prefix + view
            var c = context
            c.lockScreen = data.lockScreen(job)
            if view == "notification-center" {
                c.lockScreen?.centerTitle = data.systemString("Notification Center", job: job, result: &result)
            }
            render(.lockScreen, name: result.view, context: c, customView: nil, ratio: 1, templateFile: nil, job: job, result: &result)
            return result
        }
    }

    static func report(_ a: NotificationAction) -> ActionReport {
        ActionReport(identifier: a.identifier, title: a.title, options: a.options.map(\.rawValue), textInput: a.textInput != nil)
    }
}
