import Foundation

/// Turns a payload's media reference into a validated attachment: `http(s)` to allowed hosts
/// (downloaded, cached in the app group by content), a file inside the media roots (a relative
/// path or `file:` URL), or a `data:` URL. Nothing else is read or fetched.
final class AttachStep: @unchecked Sendable {
    let settings: ServiceSettings
    let projectFolder: URL
    private let lock = NSLock()
    private var current: Download?

    init(settings: ServiceSettings, projectFolder: URL) {
        self.settings = settings
        self.projectFolder = projectFolder
    }

    struct Attached { var attachment: UNNotificationAttachment; var bytes: Int; var cacheHit: Bool }

    /// The app group's download cache, which must resolve inside the project (a symlinked
    /// `app-group/cache` would have downloads written elsewhere).
    func cacheFolder() throws(UNError) -> URL {
        guard let folder = ServiceSettings.projectFile(settings.appGroup + "/cache", in: projectFolder) else {
            throw UNError(.attachmentMoveIntoDataStoreFailed, "\(settings.appGroup)/cache lies outside the project (a symlink?); nothing is cached or read from it")
        }
        return folder
    }

    func cancel() { lock.withLock { current?.cancel() } }

    func attach(_ reference: String, identifier: String, options: [AnyHashable: Any], deadline: Date) throws(UNError) -> Attached {
        let lower = reference.lowercased()
        let hint = (options[UNNotificationAttachmentOptionsTypeHintKey] as? String).flatMap(MediaType.init(uti:))
        let file: URL, bytes: Int, cacheHit: Bool
        if lower.hasPrefix("http://") || lower.hasPrefix("https://") {
            (file, bytes, cacheHit) = try download(reference, hint: hint, deadline: deadline)
        } else if lower.hasPrefix("data:") {
            (file, bytes) = try inline(reference, hint: hint)
            cacheHit = false
        } else if lower.hasPrefix("file:") || !lower.contains(":") {
            file = try local(reference)
            bytes = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
            cacheHit = false
        } else {
            throw UNError(.attachmentInvalidURL, "\(reference.prefix(80)): only http(s) to allowed hosts, media files and data: URLs are attached")
        }
        let attachment: UNNotificationAttachment
        do { attachment = try UNNotificationAttachment(identifier: identifier, url: file, options: options) }
        catch let error as UNError { throw error }
        catch { throw UNError(.attachmentInvalidURL, "\(error)") }
        return Attached(attachment: attachment, bytes: bytes, cacheHit: cacheHit)
    }

    /// A file inside one of the media roots, symlinks resolved first.
    func local(_ reference: String) throws(UNError) -> URL {
        var path = reference
        if reference.lowercased().hasPrefix("file:") {
            guard let url = URL(string: reference), url.isFileURL else { throw UNError(.attachmentInvalidURL, "\(reference) is not a valid file URL") }
            path = url.path
        }
        guard let file = settings.mediaFile(path, in: projectFolder) else {
            throw UNError(.attachmentInvalidURL, "\(reference) is outside the media folders (\(settings.mediaRoots.joined(separator: ", "))); nothing was read")
        }
        guard FileManager.default.fileExists(atPath: file.path) else { throw UNError(.attachmentInvalidURL, "no such file: \(reference)") }
        return file
    }

    /// `data:[type][;base64],…`, refused before decoding when it could exceed the cap.
    func inline(_ reference: String, hint: MediaType?) throws(UNError) -> (URL, Int) {
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
    func store(_ bytes: [UInt8]) throws(UNError) -> (URL, Int) {
        guard let type = MediaType(sniffing: bytes) else { throw UNError(.attachmentUnrecognizedType, "not an image, audio or movie file") }
        let ext = MediaType.known.first { $0.uti == type.uti }?.extensions.first ?? "bin"
        let file = try cacheFolder().appendingPathComponent("objects/\(SHA256.hex(bytes)).\(ext)")
        do {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            if !FileManager.default.fileExists(atPath: file.path) { try Data(bytes).write(to: file, options: .atomic) }
        } catch { throw UNError(.attachmentMoveIntoDataStoreFailed, "\(error.localizedDescription)") }
        return (file, bytes.count)
    }

    func download(_ reference: String, hint: MediaType?, deadline: Date) throws(UNError) -> (URL, Int, Bool) {
        guard let url = URL(string: reference), let host = url.host else { throw UNError(.attachmentInvalidURL, "\(reference) is not a valid URL") }
        guard isAllowed(url) else {
            throw UNError(.attachmentInvalidURL, "host \(host)\(url.port.map { ":\($0)" } ?? "") is not in allowedHosts of pushpreview.json; nothing was fetched")
        }
        let cache = try cacheFolder()
        let index = cache.appendingPathComponent("urls/\(SHA256.hex(Array(reference.utf8)))")
        // An index entry names an object by its hash; anything else (a path) is not followed.
        if let name = try? String(contentsOf: index, encoding: .utf8), Self.isObjectName(name),
           FileManager.default.fileExists(atPath: cache.appendingPathComponent("objects/\(name)").path) {
            let file = cache.appendingPathComponent("objects/\(name)")
            return (file, (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0, true)
        }
        let cap = (hint ?? MediaType(fileExtension: url.pathExtension))?.kind.cap ?? MediaType.Kind.video.cap
        let temp = FileManager.default.temporaryDirectory.appendingPathComponent("pushpreview-\(UUID().uuidString).download")
        defer { try? FileManager.default.removeItem(at: temp) }
        let allowedHosts = settings.allowedHosts
        let download = Download(to: temp, cap: cap) { AttachStep.isAllowed($0, allowedHosts) }
        lock.withLock { current = download }
        defer { lock.withLock { current = nil } }
        // The deadline's expiry cancels the download; the timeout is only a backstop after it
        // (FoundationNetworking rounds timeouts down to whole seconds).
        do { _ = try download.run(url, timeout: deadline.timeIntervalSinceNow + 1) } catch {
            switch error {
            case .http(let status): throw UNError(.attachmentInvalidURL, "\(reference): the server answered HTTP \(status)")
            case .tooLarge(let n): throw UNError(.attachmentInvalidFileSize, "\(reference): stopped at \(n) bytes, over the \(cap)-byte cap")
            case .hostNotAllowed(let to): throw UNError(.attachmentInvalidURL, "\(reference) redirects to \(to), which is not an allowed host")
            case .transport(let why): throw UNError(.attachmentInvalidURL, "\(reference): \(why)")
            case .cancelled: throw UNError(.attachmentInvalidURL, "\(reference): download cancelled (time budget)")
            }
        }
        let bytes = [UInt8]((try? Data(contentsOf: temp)) ?? Data())
        let (file, size) = try store(bytes)
        try? FileManager.default.createDirectory(at: index.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? file.lastPathComponent.write(to: index, atomically: true, encoding: .utf8)
        return (file, size, false)
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
