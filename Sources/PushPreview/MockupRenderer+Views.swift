import Checked
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

/// The parts of a view: its data, the custom view's template, the banner thumbnail, and
/// composing, laying out and writing it.
extension MockupRenderer {
    /// Registers the attachments and the app icon, and builds the template data.
    func makeContext(_ job: Job, result: inout MockupResult) throws -> TemplateContext {
        var sources: [TemplateContext.AttachmentSource] = []
        for attachment in job.notification.attachments {
            let ext = URL(fileURLWithPath: attachment.path).pathExtension.lowercased()
            var src = "media/\(attachment.identifier).\(ext.isEmpty ? "img" : ext)", bytes = attachment.bytes, duration: Double?
            if attachment.kind != .image {
                // A video shows its poster frame, and both show their duration; a file FFmpeg
                // cannot read is the placeholder, and said.
                let media = self.media(attachment, job: job)
                duration = media.duration
                if let problem = media.problem { result.warnings.append("\(attachment.path): \(problem)") }
                guard let poster = media.poster else { sources.append(.init(duration: duration)); continue }
                src = "media/\(attachment.identifier)-poster@\(job.device.scale)x.png"
                bytes = poster
            }
            do { try images.register(src, bytes: bytes, fileName: src, identity: attachment.kind == .image ? attachment.path : src + "|" + attachment.path) } catch {
                throw ConfigError("\(attachment.path): \(error)")
            }
            let size = images.size(of: src)!
            sources.append(.init(src: src, width: Int(saturating: size.width), height: Int(saturating: size.height), duration: duration))
        }
        var iconSource: String?
        // The app's own fonts (UIAppFonts, `fonts`), known by their own family names.
        for file in job.project.fonts where !fonts.addFace(file: file.path, family: nil) {
            let why = FileManager.default.fileExists(atPath: file.path) ? "is not a font file fontconfig can read" : "does not exist"
            result.warnings.append("\(file.path): the app's font \(why); text in it is drawn in Inter")
        }
        // The app icon for the appearance (a dark one where the icon set has it).
        if let problem = job.project.appIconProblem { result.warnings.append(problem.description) }
        if let icon = job.project.appIcon {
            let url = icon.file(for: job.appearance)
            if let image = icon.image(for: job.appearance) {
                let src = Self.appIconSource + image.extension
                do {
                    try images.register(src, bytes: image.bytes, fileName: src, identity: image.identity)
                    iconSource = src
                } catch { result.warnings.append("\(url.path): app icon not usable: \(error); drawing the placeholder") }
            } else { result.warnings.append("\(url.path): app icon not found; drawing the placeholder") }
        }
        // The app's name as the device shows it: CFBundleDisplayName from InfoPlist.strings, per locale.
        let appName = localizer(job).find(key: "CFBundleDisplayName", table: "InfoPlist")?.text ?? job.project.appName
        var context = TemplateContext(notification: job.notification, appName: appName, appIconSource: iconSource, device: job.device,
                                      appearance: job.appearance, locale: job.language, attachmentSources: sources)
        context.textSize = job.textSize
        // A communication notification's avatar: the group's image, else the sender's; else the monogram.
        if let c = job.notification.communication, let image = c.groupImage ?? c.senderImage {
            let ext = URL(fileURLWithPath: image.path).pathExtension.lowercased()
            let src = "media/avatar.\(ext.isEmpty ? "img" : ext)"
            do {
                try images.register(src, bytes: image.bytes, fileName: src, identity: image.path)
                context.avatarSource = src
            } catch { result.warnings.append("\(image.path): the \(c.groupImage != nil ? "group" : "sender")'s image is not usable: \(error); drawing the monogram") }
        }
        switch job.notification.interruptionLevel {
        case .timeSensitive: context.levelLabel = systemString("Time Sensitive", job: job, result: &result)
        case .critical: context.levelLabel = systemString("Critical Alert", job: job, result: &result)
        case .active, .passive: break
        }
        return context
    }

    /// What iOS itself writes (a level's label, a stack's summary), in the job's locale, from
    /// `Templates/system/strings`; a locale it lacks is said and shown in English.
    func systemString(_ key: String, args: [String] = [], job: Job, result: inout MockupResult) -> String {
        let strings = Localizer.shared(folders: [templates.appendingPathComponent("system/strings")], locale: job.language)
        let found = strings.resolve(key: key, args: args)
        if found.fellBack || found.source == nil {
            let note = "PushPreview has no \(job.language) words for the system's \"\(key)\"; drawn as \"\(found.text)\""
            if !result.warnings.contains(note) { result.warnings.append(note) }
        }
        return found.text
    }

    /// The optional whole-screen views asked for (`--view`): the notification (or the stack) on
    /// the Lock Screen, rising from the bottom, and in Notification Center, listed under the clock.
    func screens(_ context: TemplateContext, name prefix: String, base: MockupResult, job: Job) -> [MockupResult] {
        RenderOptions.optionalViews.filter(job.options.extraViews.contains).map { view in
            var result = base
            result.view = prefix + view
            var c = context
            c.lockScreen = lockScreen(job)
            if view == "notification-center" {
                c.lockScreen?.centerTitle = systemString("Notification Center", job: job, result: &result)
            }
            render(.lockScreen, name: result.view, context: c, customView: nil, ratio: 1, templateFile: nil, job: job, result: &result)
            return result
        }
    }

    /// The Lock Screen's date and clock, at Apple's demo time (9:41 on Tuesday 9 January 2007),
    /// in the job's locale, so that every run draws the same page.
    func lockScreen(_ job: Job) -> TemplateContext.LockScreen {
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
        return .init(date: date, clock: clock, device: job.device)
    }

    /// `--template`, else the template of the category's extension: `Templates/ID.html` (or the
    /// category's `template`) in the project, then among the share folder's stock templates; and
    /// the name the report gives it.
    func customViewSource(_ job: Job, ext: ContentExtension?, category: NotificationCategory?,
                                  result: inout MockupResult) throws -> (ContentStage.CustomView?, String?) {
        if let template = job.options.template {
            guard let data = FileManager.default.contents(atPath: template.path) else {
                throw TemplateError(file: template.path, line: 0, message: "no such template file")
            }
            return (.init(source: String(decoding: data, as: UTF8.self), file: template.path), template.path)
        }
        guard let ext, let id = job.notification.category else { return (nil, nil) }
        let name = (category?.template ?? id) + ".html"
        for (index, folder) in job.stage.templateFolders.enumerated() {
            let file = folder.appendingPathComponent(name)
            if let data = FileManager.default.contents(atPath: file.path) {
                // Reported as the project names it (Templates/ID.html, or stock/NAME.html among
                // the share folder's), not by where the project or the tool happen to be.
                return (.init(source: String(decoding: data, as: UTF8.self), file: file.path), index == 0 ? "Templates/\(name)" : name)
            }
        }
        result.warnings.append("\(ext.file) claims category \"\(id)\" but there is no Templates/\(name); drawing the system's default expanded look")
        return (nil, nil)
    }

    /// A video's poster frame (at ThumbnailTime seconds, else the first), as a PNG that fits the
    /// platter at the device's scale, and a video's or audio file's duration; decoded once per run.
    func media(_ a: Attachment, job: Job) -> MediaPoster {
        let side = Int(saturating: job.device.notificationWidth, rounded: .up) * job.device.scale
        let key = "\(a.path)|\(a.bytes.count)|\(side)|\(a.thumbnailTime)"
        if let known = posters.value(key) { return known }
        var out = MediaPoster()
        do {
            out.duration = try MediaFile.info(a.bytes).duration
            if a.kind == .video {
                let frame = try MediaFile.poster(a.bytes, at: a.thumbnailTime > 0 ? a.thumbnailTime : nil, maxWidth: side, maxHeight: side * 2)
                out.poster = try PNGCodec.encode(frame, scale: job.device.scale)
            }
        } catch {
            out.problem = a.kind == .video ? "no poster frame: \(error); drawing the placeholder" : "no duration: \(error)"
        }
        posters.insert(out, for: key, cost: key.utf8.count + (out.poster?.count ?? 0) + (out.problem?.utf8.count ?? 0))
        return out
    }

    /// The banner's thumbnail: the first image attachment or video poster (unless ThumbnailHidden),
    /// clipped to its ClippingRect, at its ThumbnailTime frame, aspect-filled to 32 pt.
    func thumbnail(for n: DeliveredNotification, job: Job, result: inout MockupResult) -> String? {
        guard let a = n.attachments.first, a.kind != .audio, !a.thumbnailHidden else { return nil }
        let side = 32 * job.device.scale
        let clip = a.clippingRect.map { Thumbnailer.ClippingRect(x: $0[0], y: $0[1], width: $0[2], height: $0[3]) } ?? .full
        // A GIF's ThumbnailTime is a frame number; a video's poster is already the frame at its time.
        let frame = a.kind == .image ? max(0, Int(saturating: a.thumbnailTime)) : 0
        let key = "\(a.path)|\(a.bytes.count)|\(side)|\(clip)|\(frame)|\(a.thumbnailTime)"
        let src = "media/\(a.identifier)-thumbnail@\(job.device.scale)x.png"
        do {
            let bytes: [UInt8]
            if let known = thumbnails.value(key) { bytes = known } else {
                let source = a.kind == .image ? a.bytes : media(a, job: job).poster
                guard let source else { return nil } // the long-look already said why
                let image = try Thumbnailer.thumbnail(source, width: side, height: side, fit: .fill, clip: clip, frame: frame)
                bytes = try PNGCodec.encode(image, scale: job.device.scale)
                thumbnails.insert(bytes, for: key, cost: key.utf8.count + bytes.count)
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
        guard let path = templateURL(src, project: project), !path.hasPrefix("data:"), let file = project.service.mediaFile(path, in: project.folder),
              let bytes = try? ImageFile.read(file.path) else { return nil }
        return (bytes, path, file.path)
    }

    /// What a template may show: a `data:` image, or a relative path to a file inside the media
    /// roots (decoded and normalized, as the sanitizer then writes it); nil for anything else.
    static func templateURL(_ src: String, project: Project) -> String? {
        guard let local = Sanitizer.localURL(src) else { return nil }
        if local.lowercased().hasPrefix("data:image/") { return local }
        return project.service.mediaFile(local, in: project.folder) != nil ? local : nil
    }

    /// Composes, styles and lays out one view, then writes its PNG and HTML. The custom view is
    /// laid out at its content's height under the device's cap; a view with no height of its own
    /// gets width × InitialContentSizeRatio, and `--show-limits` draws it whole with the cap
    /// marked — both by laying out once more with the measured height in the template data.
    func render(_ view: ContentStage.View, name: String, context: TemplateContext, customView: ContentStage.CustomView?,
                        ratio: Double, templateFile: String?, job: Job, result: inout MockupResult) {
        let subject = "\(templateFile.map { job.project.relativePath(URL(fileURLWithPath: $0)) } ?? "the system templates") for \(job.stem(name))"
        activity?("laying out \(subject)")
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
            // A key the template data lacks is said once per template and payload, not on every view.
            result.warnings += composition.warnings.map(\.description).filter { !$0.hasSuffix(ContentStage.missingKeyNote) || saidForPayload.insert($0).inserted }
            activity?("painting \(subject)")
            try write(scene: scene, styled: styled, composition: composition, stem: job.stem(name), context: context, job: job, result: &result)
        } catch {
            result.errors.append("\(error)")
        }
    }

    func layout(_ view: ContentStage.View, context: TemplateContext, customView: ContentStage.CustomView?,
                        job: Job) throws -> (ContentStage.Composition, StyledElement, Scene) {
        let images = self.images
        var composition = try job.stage.compose(view, context: context, customView: customView) {
            images.entries[$0] != nil ? $0 : Self.templateURL($0, project: job.project)
        }
        composition.warnings += loadFontFaces(composition.sheets, job: job)
        let (styled, styleWarnings) = StyleResolver(sheets: composition.sheets, appearance: job.appearance)
            .resolve(composition.document.body, file: composition.document.file, fonts: fonts)
        composition.warnings += styleWarnings
        let engine = LayoutEngine(fonts: fonts) { images.size(of: $0) }
        return (composition, styled, engine.layout(styled, width: job.device.width, language: job.language))
    }

    /// The templates' @font-face files: each `url()` a file inside the media roots (the rule
    /// images follow), loaded into the fonts under the rule's family name; the page links a copy.
    func loadFontFaces(_ sheets: [Stylesheet], job: Job) -> [TemplateWarning] {
        var warnings: [TemplateWarning] = []
        for sheet in sheets {
            for face in sheet.fontFaces {
                let files = face.sources.compactMap { src in Sanitizer.localURL(src).flatMap { job.project.service.mediaFile($0, in: job.project.folder) }.map { (src, $0) } }
                    .filter { FileManager.default.fileExists(atPath: $0.1.path) }
                if let (src, file) = files.first(where: { fonts.addFace(file: $0.1.path, family: face.family) }) {
                    let key = job.project.folder.path + "|" + src
                    fontFaces.insert(file, for: key, cost: key.utf8.count + file.path.utf8.count)
                } else {
                    warnings.append(TemplateWarning(file: sheet.file, line: face.line, message: files.isEmpty
                        ? "@font-face \"\(face.family)\": \(face.sources.joined(separator: ", ")) is not a file inside the media roots (\(job.project.service.mediaRoots.joined(separator: ", ")))"
                        : "@font-face \"\(face.family)\": \(files.map { job.project.relativePath($0.1) }.joined(separator: ", ")) is not a font file fontconfig can read"))
                }
            }
        }
        return warnings
    }

    /// The file a page shows for `src`, written once per output folder and named by its content
    /// (`media/<hash>.<ext>`, beside the payload folders), so that one icon or photo shown by every
    /// page of a gallery is stored once. The app icon is stored at the largest size a view draws it.
    func sharedMedia(_ src: String, _ entry: ImageStore.Entry, job: Job) throws -> String {
        let key = "\(job.options.outputFolder.path)|\(images.identity(of: src) ?? src)|\(src)|\(job.device.scale)"
        if let known = mediaNames.value(key) { return known }
        var bytes = entry.bytes, ext = URL(fileURLWithPath: entry.fileName).pathExtension.lowercased()
        let side = Self.largestIconPoints * job.device.scale
        if src.hasPrefix(Self.appIconSource), entry.source.uprightSize.width > side || entry.source.uprightSize.height > side {
            bytes = try PNGCodec.encode(try Thumbnailer.thumbnail(entry.bytes, width: side, height: side, fit: .fit), scale: job.device.scale)
            ext = "png"
        }
        let name = try sharedFile(bytes, extension: ext.isEmpty ? "img" : ext, job: job)
        mediaNames.insert(name, for: key, cost: key.utf8.count + name.utf8.count)
        return name
    }

    /// A @font-face file's copy beside the pages, read and hashed once per run.
    func sharedFont(_ file: URL, job: Job) throws -> String {
        let key = "font|\(job.options.outputFolder.path)|\(file.path)"
        if let known = mediaNames.value(key) { return known }
        guard let bytes = FileManager.default.contents(atPath: file.path) else { throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: file.path]) }
        let name = try sharedFile([UInt8](bytes), extension: file.pathExtension.lowercased(), job: job)
        mediaNames.insert(name, for: key, cost: key.utf8.count + name.utf8.count)
        return name
    }

    /// `media/<hash>.<ext>` in the output folder, written once.
    func sharedFile(_ bytes: [UInt8], extension ext: String, job: Job) throws -> String {
        let name = "media/\(SHA256.hex(bytes).prefix(20)).\(ext)"
        let target = job.options.outputFolder.appendingPathComponent(name)
        if !FileManager.default.fileExists(atPath: target.path) { try OutputFile.write(bytes, to: target) }
        return name
    }

    /// Where the app icon is registered, and the largest it is drawn (the banner's, in points).
    static let appIconSource = "media/app-icon."
    static let largestIconPoints = 38

    func write(scene: Scene, styled: StyledElement, composition: ContentStage.Composition, stem: String, context: TemplateContext,
                       job: Job, result: inout MockupResult) throws {
        for src in images.missing.sorted() {
            result.warnings.append("image \(src.prefix(80)): not an attachment, not found in \(job.project.service.mediaRoots.joined(separator: ", ")), or not a readable image")
        }
        for family in scene.unknownFamilies {
            result.warnings.append("font-family \(family.replacingOccurrences(of: ",", with: ", ")): no loaded font provides it; drawn in Inter (add the app's fonts: UIAppFonts in its Xcode project, \"fonts\" in pushpreview.json, or --font-dir)")
        }
        if scene.truncatedParagraphs > 0 {
            result.warnings.append("a paragraph is longer than \(Paragraph.maxCharacters) characters; only its first \(Paragraph.maxCharacters) are laid out")
        }
        if scene.missingGlyphs > 0 { result.warnings.append("\(scene.missingGlyphs) character(s) have no glyph in the fonts and show as boxes") }
        let background = styled.style.backgroundColor.a > 0 ? styled.style.backgroundColor : .white
        let options = job.options, folder = job.folder
        if options.formats.contains("png") {
            let painted = try PNGPainter(fonts: fonts, images: images, scale: job.device.scale)
                .paintPNG(scene, background: background, compressionLevel: options.pngCompressionLevel, filters: options.pngFilters)
            result.warnings += painted.warnings
            let url = folder.appendingPathComponent(stem + ".png")
            try OutputFile.write(painted.png, to: url)
            result.outputs.append(url.path)
        }
        if options.formats.contains("html") {
            let n = context.notification
            var page = HTMLWriter.Page(title: "\(n.title.isEmpty ? context.appName : n.title) — \(job.device.name), \(job.appearance.rawValue)",
                                       body: composition.document.body, sheets: composition.sheets, appearance: job.appearance,
                                       width: job.device.width, background: background, language: job.language)
            for src in composition.sheets.flatMap(\.fontFaces).flatMap(\.sources) {
                if let file = fontFaces.value(job.project.folder.path + "|" + src) { page.fontFiles[src] = "../" + (try sharedFont(file, job: job)) }
            }
            let url = folder.appendingPathComponent(stem + ".html")
            var shared: [String: String] = [:]
            for (src, entry) in images.entries where !entry.fileName.isEmpty { shared[src] = "../" + (try sharedMedia(src, entry, job: job)) }
            try OutputFile.write(HTMLWriter.html(page) { shared[$0] ?? $0 }, to: url)
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
