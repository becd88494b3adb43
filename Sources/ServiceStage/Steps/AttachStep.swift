import ConfinedFiles
import Foundation

/// Turns a payload's media reference into a validated attachment: `http(s)` to allowed hosts
/// (downloaded, cached in the app group by content), a file inside the media roots (a relative
/// path or `file:` URL), or a `data:` URL. Nothing else is read or fetched.
final class AttachStep: @unchecked Sendable {
    let settings: ServiceSettings
    let folders: ServiceFolders
    private let lock = NSLock()
    private var current: Download?

    init(settings: ServiceSettings, folders: ServiceFolders) {
        self.settings = settings
        self.folders = folders
    }

    struct Attached { var attachment: UNNotificationAttachment; var bytes: Int; var cacheHit: Bool }

    /// The app group's download cache, held open; a link on its way is refused (a symlinked
    /// `app-group/cache` would have downloads written elsewhere).
    func cacheFolder() throws(UNError) -> ConfinedFolder {
        do { return try folders.cache() } catch {
            switch error.reason {
            case .link, .absoluteLink, .outside:
                throw UNError(.attachmentMoveIntoDataStoreFailed, "\(settings.appGroup)/cache would lead downloads outside the project (\(error.why)); nothing is cached or read from it")
            default: throw UNError(.attachmentMoveIntoDataStoreFailed, "\(settings.appGroup)/cache: \(error.why); nothing is cached or read from it")
            }
        }
    }

    func cancel() { lock.withLock { current?.cancel() } }

    func attach(_ reference: String, identifier: String, options: [AnyHashable: Any], deadline: Date) throws(UNError) -> Attached {
        let lower = reference.lowercased()
        let hint = (options[UNNotificationAttachmentOptionsTypeHintKey] as? String).flatMap(MediaType.init(uti:))
        var file: URL, bytes: [UInt8], cacheHit: Bool
        if lower.hasPrefix("http://") || lower.hasPrefix("https://") {
            (file, bytes, cacheHit) = try download(reference, hint: hint, deadline: deadline)
        } else if lower.hasPrefix("data:") {
            (file, bytes) = try inline(reference, hint: hint)
            cacheHit = false
        } else if lower.hasPrefix("file:") || !lower.contains(":") {
            (file, bytes) = try local(reference)
            cacheHit = false
            // A media file without a known extension is typed by its bytes, as a download is.
            if hint == nil, MediaType(fileExtension: file.pathExtension) == nil { (file, bytes) = try store(bytes) }
        } else {
            throw UNError(.attachmentInvalidURL, "\(reference.prefix(80)): only http(s) to allowed hosts, media files and data: URLs are attached")
        }
        let attachment = try UNNotificationAttachment(identifier: identifier, url: file, bytes: bytes, options: options)
        return Attached(attachment: attachment, bytes: bytes.count, cacheHit: cacheHit)
    }

    /// A file inside one of the media roots, read through the root (links leading out refused).
    func local(_ reference: String) throws(UNError) -> (URL, [UInt8]) {
        var path = reference
        if reference.lowercased().hasPrefix("file:") {
            guard let url = URL(string: reference), url.isFileURL else { throw UNError(.attachmentInvalidURL, "\(reference) is not a valid file URL") }
            path = url.path
        }
        let outside = "\(reference) is outside the media folders (\(settings.mediaRoots.joined(separator: ", "))); nothing was read"
        guard let file = folders.mediaFile(path) else {
            throw UNError(.attachmentInvalidURL, ([outside] + folders.mediaProblems).joined(separator: "; "))
        }
        do { return (file, try folders.media.read(file, limit: MediaType.Kind.video.cap + 1)) } catch {
            switch error.reason {
            case .missing: throw UNError(.attachmentInvalidURL, "no such file: \(reference)")
            case .outside, .absoluteLink, .link: throw UNError(.attachmentInvalidURL, outside)
            case .tooLarge: throw UNError(.attachmentInvalidFileSize, "\(reference) is over the \(MediaType.Kind.video.cap)-byte cap")
            default: throw UNError(.attachmentInvalidURL, "\(reference): \(error.why)")
            }
        }
    }

    /// `data:[type][;base64],…`, refused before decoding when it could exceed the cap.
    func inline(_ reference: String, hint: MediaType?) throws(UNError) -> (URL, [UInt8]) {
        guard let comma = reference.firstIndex(of: ",") else { throw UNError(.attachmentInvalidURL, "data: URL without a comma") }
        let header = reference[..<comma].lowercased(), body = reference[reference.index(after: comma)...]
        // The cap of the declared kind (data:image/… → 10 MB), else the largest.
        let declared = header.dropFirst(5).split(separator: "/").first.flatMap { MediaType.Kind(rawValue: $0 == "video" ? "video" : String($0)) }
        let cap = (hint?.kind ?? declared)?.cap ?? MediaType.Kind.video.cap
        guard body.utf8.count / 4 * 3 <= cap else {
            throw UNError(.attachmentInvalidFileSize, "data: URL holds about \(body.utf8.count / 4 * 3) bytes, over the \(cap)-byte cap; not decoded")
        }
        guard header.hasSuffix(";base64"), let data = Data(base64Encoded: String(body), options: .ignoreUnknownCharacters) else {
            throw UNError(.attachmentInvalidURL, "data: URLs must be base64")
        }
        return try store([UInt8](data))
    }

    /// Content-addressed: objects/<sha256>.<ext>, and urls/<sha256 of the URL> naming the object.
    func store(_ bytes: [UInt8]) throws(UNError) -> (URL, [UInt8]) {
        guard let type = MediaType(sniffing: bytes) else { throw UNError(.attachmentUnrecognizedType, "not an image, audio or movie file") }
        let ext = MediaType.known.first { $0.uti == type.uti }?.extensions.first ?? "bin"
        let cache = try cacheFolder()
        let name = "objects/\(SHA256.hex(bytes)).\(ext)"
        do {
            if !cache.isFile(name) { try cache.write(bytes, to: name) }
        } catch { throw UNError(.attachmentMoveIntoDataStoreFailed, error.description) }
        return (cache.url.appendingPathComponent(name), bytes)
    }

    func download(_ reference: String, hint: MediaType?, deadline: Date) throws(UNError) -> (URL, [UInt8], Bool) {
        guard let url = URL(string: reference), let host = url.host else { throw UNError(.attachmentInvalidURL, "\(reference) is not a valid URL") }
        guard isAllowed(url) else {
            throw UNError(.attachmentInvalidURL, "host \(host)\(url.port.map { ":\($0)" } ?? "") is not in allowedHosts of pushpreview.json; nothing was fetched")
        }
        let cache = try cacheFolder()
        let index = "urls/\(SHA256.hex(Array(reference.utf8)))"
        // An index entry names an object by its hash; anything else (a path) is not followed.
        if let name = (try? cache.read(index, limit: 128)).map({ String(decoding: $0, as: UTF8.self) }), Self.isObjectName(name),
           let bytes = try? cache.read("objects/\(name)", limit: MediaType.Kind.video.cap) {
            return (cache.url.appendingPathComponent("objects/\(name)"), bytes, true)
        }
        let cap = (hint ?? MediaType(fileExtension: url.pathExtension))?.kind.cap ?? MediaType.Kind.video.cap
        let allowedHosts = settings.allowedHosts
        let download = Download(cap: cap) { AttachStep.isAllowed($0, allowedHosts) }
        lock.withLock { current = download }
        defer { lock.withLock { current = nil } }
        // The deadline's expiry cancels the download; the timeout is only a backstop after it
        // (FoundationNetworking rounds timeouts down to whole seconds).
        let body: [UInt8]
        do { body = try download.run(url, timeout: deadline.timeIntervalSinceNow + 1) } catch {
            switch error {
            case .http(let status): throw UNError(.attachmentInvalidURL, "\(reference): the server answered HTTP \(status)")
            case .tooLarge(let n): throw UNError(.attachmentInvalidFileSize, "\(reference): stopped at \(n) bytes, over the \(cap)-byte cap")
            case .hostNotAllowed(let to): throw UNError(.attachmentInvalidURL, "\(reference) redirects to \(to), which is not an allowed host")
            case .transport(let why): throw UNError(.attachmentInvalidURL, "\(reference): \(why)")
            case .cancelled: throw UNError(.attachmentInvalidURL, "\(reference): download cancelled (time budget)")
            }
        }
        let (file, bytes) = try store(body)
        try? cache.write(file.lastPathComponent, to: index)
        return (file, bytes, false)
    }

    func isAllowed(_ url: URL) -> Bool { Self.isAllowed(url, settings.allowedHosts) }

    /// `<64 hex digits>.<ext>`, as `store` names objects.
    static func isObjectName(_ name: String) -> Bool {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 2 && parts[0].count == 64 && parts[0].allSatisfy(\.isHexDigit) && parts[0].allSatisfy(\.isASCII)
            && (1...5).contains(parts[1].count) && parts[1].allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
    }

    /// A host is allowed by name, or by name:port when the list gives a port.
    static func isAllowed(_ url: URL, _ hosts: [String]) -> Bool {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", let host = url.host?.lowercased() else { return false }
        return hosts.contains { entry in
            let e = entry.lowercased()
            return e == host || (url.port.map { e == "\(host):\($0)" } ?? false)
        }
    }
}
