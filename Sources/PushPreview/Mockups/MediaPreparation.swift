import Checked
import ConfinedFiles
import ContentStage
import Diagnostics
import Foundation
import Imaging
import Rendering
import ServiceStage
import Templating

/// The images a page shows, registered in its image store before it is laid out: the
/// attachments (a video as its poster frame), the app icon for the appearance, a sender's
/// avatar, the banner's thumbnail, and the template's own images (resolved when the page asks).
/// What is costly to make (posters, thumbnails) is kept across payloads within a budget of bytes.
final class MediaPreparation {
    let images: ImageStore
    /// Banner thumbnails already made (PNGs of a few kB), by attachment, size and options.
    private var thumbnails = BoundedCache<String, [UInt8]>(budget: 2 << 20)
    /// Video posters (PNGs up to a few hundred kB) and media durations already read, by file, size and time.
    private var posters = BoundedCache<String, MediaPoster>(budget: 8 << 20)
    struct MediaPoster { var poster: [UInt8]?; var duration: Double?; var problem: String? }
    /// The wallpaper or app screen cropped to a screen (a JPEG of a few hundred kB), by image and size.
    private var wallpapers = BoundedCache<String, [UInt8]>(budget: 8 << 20)

    /// Where the app icon is registered (drawn at most `icon.size` of the chrome's metrics).
    static let appIconSource = "media/app-icon."

    init(pixelCache: PixelCache) {
        images = ImageStore(pixelCache: pixelCache)
    }

    /// A new page: nothing registered, and the template's own images looked up in `project`.
    func beginPage(_ project: Project) {
        images.beginPage()
        images.resolver = { src in Self.resolveTemplateImage(src, project: project) }
    }

    /// Every attachment as the page shows it; a video or audio file FFmpeg cannot read is the
    /// placeholder, and said. Throws when an image attachment cannot be registered.
    /// `prefix` keeps apart the images an SDK's content view downloads itself (`view-`).
    func attachments(_ attachments: [Attachment], prefix: String = "", job: MockupRenderer.Job, result: inout MockupResult) throws(ConfigError) -> [TemplateContext.AttachmentSource] {
        var sources: [TemplateContext.AttachmentSource] = []
        for attachment in attachments {
            let ext = URL(fileURLWithPath: attachment.path).pathExtension.lowercased()
            var src = "media/\(prefix)\(attachment.identifier).\(ext.isEmpty ? "img" : ext)", bytes = attachment.bytes, duration: Double?
            if attachment.kind != .image {
                // A video shows its poster frame, and both show their duration.
                let media = self.media(attachment, job: job)
                duration = media.duration
                if let problem = media.problem { result.findings.append(Diagnostic(.warning, code: .media, file: attachment.path, problem)) }
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
        return sources
    }

    /// The app icon for the appearance (a dark one where the icon set has it); nil, and said,
    /// when the placeholder is drawn.
    func appIcon(_ job: MockupRenderer.Job, result: inout MockupResult) -> String? {
        if let problem = job.project.appIconProblem { result.findings.append(problem) }
        guard let icon = job.project.appIcon else { return nil }
        let url = icon.file(for: job.appearance)
        guard let image = icon.image(for: job.appearance, in: job.project.inputs) else {
            result.findings.append(Diagnostic(.warning, code: .iconPlaceholder, file: url.path, "app icon not found; drawing the placeholder"))
            return nil
        }
        let src = Self.appIconSource + image.extension
        do {
            try images.register(src, bytes: image.bytes, fileName: src, identity: image.identity)
            return src
        } catch {
            result.findings.append(Diagnostic(.warning, code: .iconPlaceholder, file: url.path, "app icon not usable: \(error); drawing the placeholder"))
            return nil
        }
    }

    /// A communication notification's avatar: the group's image, else the sender's; nil (the
    /// monogram) without one, or when it cannot be read (said).
    func avatar(_ job: MockupRenderer.Job, result: inout MockupResult) -> String? {
        guard let c = job.notification.communication, let image = c.groupImage ?? c.senderImage else { return nil }
        let ext = URL(fileURLWithPath: image.path).pathExtension.lowercased()
        let src = "media/avatar.\(ext.isEmpty ? "img" : ext)"
        do {
            try images.register(src, bytes: image.bytes, fileName: src, identity: image.path)
            return src
        } catch {
            result.findings.append(Diagnostic(.warning, code: .picture, file: image.path, "the \(c.groupImage != nil ? "group" : "sender")'s image is not usable: \(error); drawing the monogram"))
            return nil
        }
    }

    /// The wallpaper a person named (`--wallpaper`, else the project's `"wallpaper"`), cropped to
    /// the device's screen as iOS crops it (scaled to fill, centred) at the device's scale; nil
    /// without one, or when it cannot be read now (said, and PushPreview's own drawn).
    func wallpaper(_ job: MockupRenderer.Job, result: inout MockupResult) -> String? {
        // Known by content: `--wallpaper`'s digest was taken when the run began (the file is read
        // again only to crop it); the project's is read and hashed per job, so one edited while
        // serve runs is cropped again.
        if let w = job.options.wallpaper { return screenPicture(w, as: "wallpaper", job: job, result: &result) }
        guard let url = job.project.wallpaper else { return nil }
        return screenPicture(NamedPicture(path: url.path, digest: nil), as: "wallpaper", read: { try job.project.inputs.read(url, limit: NamedPicture.byteLimit) },
                             job: job, result: &result)
    }

    /// The app screen the banner comes down over (`--backdrop app:FILE`), cropped as the wallpaper.
    func appScreen(_ job: MockupRenderer.Job, result: inout MockupResult) -> String? {
        job.options.appScreen.flatMap { screenPicture($0, as: "app screen", job: job, result: &result) }
    }

    /// A picture for a whole screen, cropped to the device's and registered as the page's
    /// `media/NAME-WxH.jpg`; nil (said) when it cannot be read now. `digest` nil: read to know it.
    private func screenPicture(_ picture: NamedPicture, as what: String, read: (() throws -> [UInt8])? = nil,
                               job: MockupRenderer.Job, result: inout MockupResult) -> String? {
        let read = read ?? { try TrustedFiles.read(URL(fileURLWithPath: picture.path), limit: NamedPicture.byteLimit) }
        let scale = Double(job.device.scale)
        let width = Int(saturating: job.device.width * scale, rounded: .toNearestOrAwayFromZero)
        let height = Int(saturating: job.device.height * scale, rounded: .toNearestOrAwayFromZero)
        let src = "media/\(what.replacingOccurrences(of: " ", with: "-"))-\(width)x\(height).jpg"
        do {
            var bytes = picture.digest == nil ? try read() : nil
            let key = "\(picture.digest ?? SHA256.hex(bytes!))|\(width)x\(height)"
            let cropped: [UInt8]
            if let known = wallpapers.value(key) { cropped = known } else {
                if bytes == nil { bytes = try read() }
                cropped = try JPEGCodec.encode(try Thumbnailer.thumbnail(bytes!, width: width, height: height, fit: .fill))
                wallpapers.insert(cropped, for: key, cost: cropped.count)
            }
            try images.register(src, bytes: cropped, fileName: src, identity: key)
            return src
        } catch {
            result.findings.append(Diagnostic(.warning, code: .picture, file: picture.path, "the \(what) is not usable now: \(error); drawing \(what == "wallpaper" ? "PushPreview's own" : "the wallpaper")"))
            return nil
        }
    }

    /// A video's poster frame (at ThumbnailTime seconds, else the first), as a PNG that fits the
    /// platter at the device's scale, and a video's or audio file's duration; decoded once per run.
    func media(_ a: Attachment, job: MockupRenderer.Job) -> MediaPoster {
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
    func thumbnail(for n: DeliveredNotification, job: MockupRenderer.Job, result: inout MockupResult) -> String? {
        guard let a = n.attachments.first, a.kind != .audio, !a.thumbnailHidden else { return nil }
        let side = Int(job.chrome["thumbnail.size"].rounded(.up)) * job.device.scale
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
            result.findings.append(Diagnostic(.warning, code: .media, file: a.path, "no thumbnail: \(error)"))
            return nil
        }
    }

    /// A template's own image: a `data:image/…;base64` URL, or a file inside the media roots.
    static func resolveTemplateImage(_ src: String, project: Project) -> (bytes: [UInt8], fileName: String?, identity: String)? {
        if src.lowercased().hasPrefix("data:image/"), let comma = src.firstIndex(of: ","), src[..<comma].lowercased().hasSuffix(";base64") {
            guard let data = Data(base64Encoded: String(src[src.index(after: comma)...]), options: .ignoreUnknownCharacters) else { return nil }
            return ([UInt8](data), nil, "data:\(data.count):\(src.suffix(32))")
        }
        guard let path = templateURL(src, project: project), !path.hasPrefix("data:"), let file = project.serviceFolders.mediaFile(path),
              let opened = try? project.serviceFolders.media.open(file), let bytes = try? ImageFile.read(opened) else { return nil }
        return (bytes, path, file.path)
    }

    /// What a template may show: a `data:` image, or a relative path to a file inside the media
    /// roots (decoded and normalized, as the sanitizer then writes it); nil for anything else.
    static func templateURL(_ src: String, project: Project) -> String? {
        guard let local = Sanitizer.localURL(src) else { return nil }
        if local.lowercased().hasPrefix("data:image/") { return local }
        return project.serviceFolders.mediaFile(local) != nil ? local : nil
    }
}
