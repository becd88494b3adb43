import ContentStage
import Foundation
import Imaging
import Layout
import Payload
import Rendering
import ServiceStage
import Styling
import Templating
import Typography

/// What to render for each payload.
public struct RenderOptions: Sendable {
    /// Device profile ids (`Templates/system/devices.json`, a project's `devices.json`).
    public var devices: [String] = [DeviceProfile.standardID]
    public var appearances: [Appearance] = [.light]
    /// Empty: the development language only, and no locale in file names.
    public var locales: [String] = []
    public var formats: Set<String> = ["html", "png"]
    public var outputFolder = URL(fileURLWithPath: "Output")
    public var layoutJSON = false
    /// A custom-view template to use instead of the category's (`--template`).
    public var template: URL?
    /// Overrides the project's service-stage time budget (`--time-budget`).
    public var timeBudget: Double?
    /// `--show-limits`: draw the custom view's height cap and what falls below it.
    public var showLimits = false
    /// `--media-state playing`: the play/pause button as it looks while the media plays.
    public var mediaPlaying = false
    /// `--hidden-previews`: the banner as it looks with previews hidden (`-banner-hidden`).
    public var hiddenPreviews = false
    /// The gallery's extra views where they matter: `-expanded-limits` for a clipped custom view,
    /// `-expanded-playing` for a play/pause button, `-banner-hidden` for a category with a
    /// hidden-previews placeholder.
    public var reviewVariants = false
    /// zlib level 3 with no PNG row filter: measured 6x faster than libpng's adaptive
    /// filters at level 6, for files about a third larger on photos (`make bench`).
    public var pngCompressionLevel = 3
    public var pngFilters: Int32 = 0x08
    public init() {}
}

/// One mock-up's outcome, as `--json` prints it and `report.json` lists it.
public struct MockupResult: Sendable, Codable, Equatable {
    public var payload: String
    public var device: String
    public var appearance: String
    public var locale: String?
    /// expanded, banner, banner-hidden or reply; review variants add -limits or -playing.
    public var view: String
    /// The payload's `aps.category`.
    public var category: String?
    public var outputs: [String]
    public var warnings: [String]
    public var errors: [String]
    public var service: ServiceReport
    /// The custom view, when there is one: its drawn height and how much of it was clipped (pt).
    public var content: ContentReport?
    /// The action buttons this view shows, with their options.
    public var actions: [ActionReport]?
}

public struct ContentReport: Sendable, Codable, Equatable {
    public var category: String?
    public var customViewHeight: Double
    public var clippedBy: Double
    /// The custom view's template file.
    public var template: String?
}

public struct ActionReport: Sendable, Codable, Equatable {
    public var identifier: String
    public var title: String
    public var options: [String]
    public var textInput: Bool
}

/// The service stage's part of a result: `{"ran", "level", "steps": [{"step", "outcome", "ms", "bytes", "message"}]}`.
public struct ServiceReport: Sendable, Codable, Equatable {
    public var ran: Bool
    public var level: String
    public var steps: [ServiceTrace.Step]
    public init(_ trace: ServiceTrace) { ran = trace.ran; level = trace.level.rawValue; steps = trace.steps }
    public static let none = ServiceReport(ServiceTrace())
}

/// Runs the whole pipeline for payload files. Owns one font system, so one renderer per thread.
public final class MockupRenderer {
    let fonts: FontSystem
    let templates: URL
    let images = ImageStore()
    /// Banner thumbnails already made, by attachment, size and options.
    var thumbnails: [String: [UInt8]] = [:]
    /// Media files beside the pages already written in this run.
    var writtenMedia: Set<String> = []
    private var stages: [URL: ContentStage] = [:]

    /// One content stage per project for the renderer's life: templates are read and parsed once.
    func contentStage(for project: Project) -> ContentStage {
        if let known = stages[project.folder] { return known }
        let stage = ContentStage(templateFolders: [project.folder.appendingPathComponent("Templates"), templates])
        stages[project.folder] = stage
        return stage
    }

    public init(fonts: FontSet, templates: URL) throws(TypographyError) {
        self.fonts = try FontSystem(fonts: fonts)
        self.templates = templates
    }

    /// The device profiles a project can use: the repository's, then its own `devices.json`.
    public func deviceProfiles(for project: Project) throws(ConfigError) -> [DeviceProfile] {
        try Self.deviceCatalog(templates: templates, project: project)
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
        guard let data = FileManager.default.contents(atPath: payloadFile.path) else {
            return failure("\(payloadFile.path): no such file (check the path)")
        }
        let payload: Payload, diagnostics: [PayloadDiagnostic]
        do { (payload, diagnostics) = try PayloadParser.parse([UInt8](data), file: payloadFile.path) } catch {
            return failure(error.description)
        }
        let catalog: [DeviceProfile]
        do { catalog = try deviceProfiles(for: project) } catch { return failure(error.description) }
        var service = ServiceStage(projectFolder: project.folder, settings: project.service)
        if let budget = options.timeBudget { service.settings.timeBudget = budget }
        var notifications: [String: DeliveredNotification] = [:]
        let stage = contentStage(for: project)
        var results: [MockupResult] = []
        for deviceID in options.devices {
            guard let device = catalog.first(where: { $0.id == deviceID }) else {
                results += failure("unknown device '\(deviceID)'; known: \(catalog.map(\.id).joined(separator: ", "))")
                continue
            }
            for appearance in options.appearances {
                // A payload without loc-keys reads the same in every locale: drawn once, with no locale.
                let localized = payload.alert.map { $0.titleLocKey != nil || $0.subtitleLocKey != nil || $0.locKey != nil } ?? false
                for locale in options.locales.isEmpty || !localized ? [nil] : options.locales.map(Optional.some) {
                    let language = locale ?? "en"
                    if notifications[language] == nil { notifications[language] = service.run(payload, locale: language) }
                    let job = Job(notification: notifications[language]!, project: project, stage: stage, device: device, appearance: appearance,
                                  locale: locale, payloadFile: payloadFile, options: options,
                                  warnings: diagnostics.map(\.description) + project.warnings)
                    results += render(job)
                }
            }
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
        var payloadFile: URL
        var options: RenderOptions
        var warnings: [String]
        var language: String { locale ?? "en" }
        var folder: URL { options.outputFolder.appendingPathComponent(payloadFile.deletingPathExtension().lastPathComponent) }
        func stem(_ view: String) -> String { ([device.id, appearance.rawValue, locale].compactMap { $0 } + [view]).joined(separator: "-") }
    }

    /// The expanded view, the banner (or its hidden-previews form) and, for a category with a
    /// text-input action, the `-reply` view.
    func render(_ job: Job) -> [MockupResult] {
        let n = job.notification, config = job.project.content
        var base = MockupResult(payload: job.payloadFile.path, device: job.device.id, appearance: job.appearance.rawValue, locale: job.locale,
                                view: "expanded", category: n.category, outputs: [], warnings: job.warnings, errors: [], service: ServiceReport(n.trace))
        images.beginPage()
        images.resolver = { src in Self.resolveTemplateImage(src, project: job.project) }
        var context: TemplateContext
        do { context = try makeContext(job, result: &base) } catch {
            base.errors.append("\(error)")
            return [base]
        }

        // The category: its extension (Info.plist), actions (categories.json) and view settings.
        let ext = config.contentExtension(for: n.category)
        let category = config.category(n.category)
        let settings = n.category.flatMap { config.viewSettings[$0] } ?? CategoryViewSettings()
        base.warnings += config.issues.filter { issue in
            issue.severity == .error || (issue.category != nil && issue.category == n.category)
        }.map(\.description)
        if let id = n.category, category == nil, !config.categories.isEmpty || ext != nil {
            base.warnings.append("category \"\(id)\" is not in \(job.project.folder.appendingPathComponent("categories.json").path): no actions are shown")
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
                    do { context.customTitle = try MustacheTemplate(title, name: "pushpreview.json categories.\(n.category ?? "").title").render(context.value(icon: { _ in nil }, icons: [:])) }
                    catch { base.warnings.append("\(error)") }
                } else {
                    base.warnings.append("\(ext.file): OverridesDefaultTitle is YES but pushpreview.json sets no categories.\(n.category ?? "").title; the header shows the app name")
                }
            }
        }
        context.actions = Array((category?.actions ?? []).prefix(NotificationCategory.maxActions))
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
        var bannerContext = context
        if job.options.hiddenPreviews {
            bannerContext.banner = hiddenPreviewsBanner(n, category: category)
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
            c.banner = hiddenPreviewsBanner(n, category: category)
            render(.banner, name: hidden.view, context: c, customView: nil, ratio: 1, templateFile: nil, job: job, result: &hidden)
            results.append(hidden)
        }

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

    /// With previews hidden iOS shows the title "Notification" (or the real one, with
    /// hiddenPreviewsShowTitle), the subtitle only with hiddenPreviewsShowSubtitle, and the
    /// category's placeholder body, `%u` being the thread's count (one here); no thumbnail.
    func hiddenPreviewsBanner(_ n: DeliveredNotification, category: NotificationCategory?) -> TemplateContext.Banner {
        let options = category?.options ?? []
        var banner = TemplateContext.Banner()
        banner.title = options.contains(.hiddenPreviewsShowTitle) && !n.title.isEmpty ? n.title : "Notification"
        banner.subtitle = options.contains(.hiddenPreviewsShowSubtitle) ? n.subtitle : ""
        banner.body = (category?.hiddenPreviewsBodyPlaceholder ?? "").replacingOccurrences(of: "%u", with: "1")
        return banner
    }

    static func report(_ a: NotificationAction) -> ActionReport {
        ActionReport(identifier: a.identifier, title: a.title, options: a.options.map(\.rawValue), textInput: a.textInput != nil)
    }

    /// Registers the attachments and the app icon, and builds the template data.
    private func makeContext(_ job: Job, result: inout MockupResult) throws -> TemplateContext {
        var sources: [(src: String, width: Int, height: Int)?] = []
        for attachment in job.notification.attachments {
            guard attachment.kind == .image else { sources.append(nil); continue }
            let ext = URL(fileURLWithPath: attachment.path).pathExtension.lowercased()
            let src = "media/\(attachment.identifier).\(ext.isEmpty ? "img" : ext)"
            do { try images.register(src, bytes: attachment.bytes, fileName: src, identity: attachment.path) } catch {
                throw ConfigError("\(attachment.path): \(error)")
            }
            let size = images.size(of: src)!
            sources.append((src, Int(size.width), Int(size.height)))
        }
        var iconSource: String?
        if let icon = job.project.appIcon {
            let url = job.project.folder.appendingPathComponent(icon)
            if let data = FileManager.default.contents(atPath: url.path) {
                let src = "media/app-icon.\(url.pathExtension.lowercased())"
                do {
                    try images.register(src, bytes: [UInt8](data), fileName: src, identity: url.path)
                    iconSource = src
                } catch { result.warnings.append("\(url.path): app icon not usable: \(error); drawing the placeholder") }
            } else { result.warnings.append("\(url.path): app icon not found; drawing the placeholder") }
        }
        return TemplateContext(notification: job.notification, appName: job.project.appName, appIconSource: iconSource, device: job.device,
                               appearance: job.appearance, locale: job.language, attachmentSources: sources)
    }

    /// `--template`, else the template of the category's extension: `Templates/ID.html` (or the
    /// category's `template`) in the project, then among the repository's stock templates.
    private func customViewSource(_ job: Job, ext: ContentExtension?, category: NotificationCategory?,
                                  result: inout MockupResult) throws -> (ContentStage.CustomView?, String?) {
        if let template = job.options.template {
            guard let data = FileManager.default.contents(atPath: template.path) else {
                throw TemplateError(file: template.path, line: 0, message: "no such template file")
            }
            return (.init(source: String(decoding: data, as: UTF8.self), file: template.path), template.path)
        }
        guard let ext, let id = job.notification.category else { return (nil, nil) }
        let name = (category?.template ?? id) + ".html"
        for folder in job.stage.templateFolders {
            let file = folder.appendingPathComponent(name)
            if let data = FileManager.default.contents(atPath: file.path) {
                return (.init(source: String(decoding: data, as: UTF8.self), file: file.path), file.path)
            }
        }
        result.warnings.append("\(ext.file) claims category \"\(id)\" but there is no Templates/\(name); drawing the system's default expanded look")
        return (nil, nil)
    }

    /// The banner's thumbnail: the first image attachment (unless ThumbnailHidden), clipped to its
    /// ClippingRect, at its ThumbnailTime frame, aspect-filled to 38 pt.
    private func thumbnail(for n: DeliveredNotification, job: Job, result: inout MockupResult) -> String? {
        guard let a = n.attachments.first, a.kind == .image, !a.thumbnailHidden else { return nil }
        let side = 38 * job.device.scale
        let clip = a.clippingRect.map { Thumbnailer.ClippingRect(x: $0[0], y: $0[1], width: $0[2], height: $0[3]) } ?? .full
        let frame = Int(a.thumbnailTime)
        let key = "\(a.path)|\(a.bytes.count)|\(side)|\(clip)|\(frame)"
        let src = "media/\(a.identifier)-thumbnail@\(job.device.scale)x.png"
        do {
            let bytes: [UInt8]
            if let known = thumbnails[key] { bytes = known } else {
                let image = try Thumbnailer.thumbnail(a.bytes, width: side, height: side, fit: .fill, clip: clip, frame: frame)
                bytes = try PNGCodec.encode(image, scale: job.device.scale)
                thumbnails[key] = bytes
            }
            try images.register(src, bytes: bytes, fileName: src, identity: key)
            return src
        } catch {
            result.warnings.append("\(a.path): no thumbnail: \(error)")
            return nil
        }
    }

    /// A template's own image: a `data:image/…;base64` URL, or a file inside the media roots.
    static func resolveTemplateImage(_ src: String, project: Project) -> (bytes: [UInt8], fileName: String?, identity: String)? {
        if src.lowercased().hasPrefix("data:image/"), let comma = src.firstIndex(of: ","), src[..<comma].lowercased().hasSuffix(";base64") {
            guard let data = Data(base64Encoded: String(src[src.index(after: comma)...]), options: .ignoreUnknownCharacters) else { return nil }
            return ([UInt8](data), nil, "data:\(data.count):\(src.suffix(32))")
        }
        guard Sanitizer.isLocalURL(src), !src.contains(":") else { return nil }
        guard let file = project.service.mediaFile(src, in: project.folder), let bytes = try? ImageFile.read(file.path) else { return nil }
        return (bytes, src, file.path)
    }

    /// Composes, styles and lays out one view, then writes its PNG and HTML. The custom view is
    /// laid out at its content's height under the device's cap; a view with no height of its own
    /// gets width × InitialContentSizeRatio, and `--show-limits` draws it whole with the cap
    /// marked — both by laying out once more with the measured height in the template data.
    private func render(_ view: ContentStage.View, name: String, context: TemplateContext, customView: ContentStage.CustomView?,
                        ratio: Double, templateFile: String?, job: Job, result: inout MockupResult) {
        do {
            var context = context
            var (composition, styled, scene) = try layout(view, context: context, customView: customView, job: job)
            if customView != nil, let box = scene.find(id: "custom-view") {
                let natural = box.contentBottom
                let height = natural > 0 ? natural : (context.device.notificationWidth * ratio * 100).rounded() / 100
                let shown = min(height, context.customView.limit)
                context.customView.clippedBy = height - shown
                if natural == 0 || context.customView.showLimits {
                    context.customView.height = height
                    (composition, styled, scene) = try layout(view, context: context, customView: customView, job: job)
                }
                result.content = ContentReport(category: context.notification.category, customViewHeight: shown,
                                               clippedBy: (context.customView.clippedBy * 100).rounded() / 100, template: templateFile)
                if context.customView.clippedBy > 0 && view == .expanded {
                    result.warnings.append("\((templateFile.map { URL(fileURLWithPath: $0).lastPathComponent }) ?? "custom view") is \(formatNumber(height)) pt tall; iOS shows \(formatNumber(shown)) pt on \(context.device.name) and clips \(formatNumber(context.customView.clippedBy)) pt")
                }
            }
            result.warnings += composition.warnings.map(\.description)
            try write(scene: scene, styled: styled, composition: composition, stem: job.stem(name), context: context, job: job, result: &result)
        } catch {
            result.errors.append("\(error)")
        }
    }

    private func layout(_ view: ContentStage.View, context: TemplateContext, customView: ContentStage.CustomView?,
                        job: Job) throws -> (ContentStage.Composition, StyledElement, Scene) {
        let images = self.images
        var composition = try job.stage.compose(view, context: context, customView: customView) {
            images.entries[$0] != nil || Sanitizer.isLocalURL($0)
        }
        let (styled, styleWarnings) = StyleResolver(sheets: composition.sheets, appearance: job.appearance)
            .resolve(composition.document.body, file: composition.document.file)
        composition.warnings += styleWarnings
        let engine = LayoutEngine(fonts: fonts) { images.size(of: $0) }
        return (composition, styled, engine.layout(styled, width: job.device.width, language: job.language))
    }

    private func write(scene: Scene, styled: StyledElement, composition: ContentStage.Composition, stem: String, context: TemplateContext,
                       job: Job, result: inout MockupResult) throws {
        for src in images.missing.sorted() {
            result.warnings.append("image \(src.prefix(80)): not an attachment, not found in \(job.project.service.mediaRoots.joined(separator: ", ")), or not a readable image")
        }
        if scene.missingGlyphs > 0 { result.warnings.append("\(scene.missingGlyphs) character(s) have no glyph in the fonts and show as boxes") }
        let background = styled.style.backgroundColor.a > 0 ? styled.style.backgroundColor : .white
        let options = job.options, folder = job.folder
        if options.formats.contains("png") {
            let painted = PNGPainter(fonts: fonts, images: images, scale: job.device.scale).paint(scene, background: background)
            result.warnings += painted.warnings
            let url = folder.appendingPathComponent(stem + ".png")
            try OutputFile.write(try PNGCodec.encode(painted.image, scale: job.device.scale, compressionLevel: options.pngCompressionLevel,
                                                     filters: options.pngFilters, opaque: background.a >= 1), to: url)
            result.outputs.append(url.path)
        }
        if options.formats.contains("html") {
            let n = context.notification
            let page = HTMLWriter.Page(title: "\(n.title.isEmpty ? context.appName : n.title) — \(job.device.name), \(job.appearance.rawValue)",
                                       body: composition.document.body, sheets: composition.sheets, appearance: job.appearance,
                                       width: job.device.width, background: background, language: job.language)
            let url = folder.appendingPathComponent(stem + ".html")
            try OutputFile.write(HTMLWriter.html(page) { $0 }, to: url)
            for entry in images.entries.values where !entry.fileName.isEmpty {
                let target = folder.appendingPathComponent(entry.fileName)
                // Every view of a payload shows the same files: each is written once per run.
                guard writtenMedia.insert("\(target.path)|\(entry.bytes.count)|\(entry.bytes.hashValue)").inserted else { continue }
                try OutputFile.write(entry.bytes, to: target)
            }
            result.outputs.append(url.path)
        }
        if options.layoutJSON {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            let url = folder.appendingPathComponent(stem + ".layout.json")
            try OutputFile.write([UInt8](try encoder.encode(scene.boxes)), to: url)
            result.outputs.append(url.path)
        }
    }
}
