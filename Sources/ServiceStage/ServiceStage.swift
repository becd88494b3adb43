import Foundation
import Imaging
import Payload

/// The Notification Service Extension stage. This first version attaches local media files;
/// decryption, localization, enrichment, downloads and the time budget come with issue 4.
public struct ServiceStage: Sendable {
    public var projectFolder: URL
    /// Folders (relative to the project) that attachments may be read from.
    public var mediaRoots: [String]
    /// Payload keys that name an attachment.
    public var mediaKeys = ["image-url", "attachment-url", "media-url"]
    /// Apple's size caps per kind.
    public static let caps: [Attachment.Kind: Int] = [.image: 10_000_000, .audio: 5_000_000, .video: 50_000_000]

    public init(projectFolder: URL, mediaRoots: [String] = ["media"]) {
        self.projectFolder = projectFolder
        self.mediaRoots = mediaRoots
    }

    public func run(_ payload: Payload) -> DeliveredNotification {
        var note = DeliveredNotification(payload: payload)
        // iOS runs the extension only for mutable-content 1 with something to show.
        let alert = payload.alert
        let hasText = [alert?.title, alert?.subtitle, alert?.body, alert?.titleLocKey, alert?.locKey].contains { $0?.isEmpty == false }
        guard payload.mutableContent, hasText else {
            note.trace.steps.append(.init(name: "service", outcome: "skipped",
                detail: payload.mutableContent ? "no title, subtitle or body" : "mutable-content is not 1"))
            return note
        }
        note.trace.level = .full
        for key in mediaKeys {
            guard let value = payload.userInfo.last(where: { $0.key == key })?.value else { continue }
            guard case .string(let reference) = value else {
                note.trace.steps.append(.init(name: "attach", outcome: "invalid URL", detail: "\(key): expected string, got \(value.typeName)"))
                note.trace.level = .textOnly
                continue
            }
            do {
                note.attachments.append(try attach(reference, identifier: "attachment-\(note.attachments.count + 1)"))
                note.trace.steps.append(.init(name: "attach", outcome: "attached", detail: reference))
            } catch {
                note.trace.steps.append(.init(name: "attach", outcome: error.code, detail: "\(reference): \(error.message)"))
                note.trace.level = .textOnly
            }
        }
        return note
    }

    public struct AttachError: Error, Equatable {
        /// `UNError`-style: invalid URL, unrecognized type, invalid file size, corrupt.
        public var code: String
        public var message: String
    }

    /// A file inside one of the media roots; nothing outside them is read.
    func attach(_ reference: String, identifier: String) throws(AttachError) -> Attachment {
        let path = reference.hasPrefix("file:") ? (URL(string: reference)?.path ?? "") : reference
        guard !path.isEmpty, !reference.contains("://") || reference.hasPrefix("file:") else {
            throw AttachError(code: "invalid URL", message: "downloads are not supported yet; use a file in \(mediaRoots.joined(separator: ", "))")
        }
        let file = (path.hasPrefix("/") ? URL(fileURLWithPath: path) : projectFolder.appendingPathComponent(path)).standardizedFileURL.resolvingSymlinksInPath()
        let roots = mediaRoots.map { projectFolder.appendingPathComponent($0).standardizedFileURL.resolvingSymlinksInPath().path + "/" }
        guard roots.contains(where: { file.path.hasPrefix($0) }) else {
            throw AttachError(code: "invalid URL", message: "\(path) is outside the media folders (\(mediaRoots.joined(separator: ", ")))")
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? nil
        guard let size else { throw AttachError(code: "invalid URL", message: "no such file: \(file.path)") }
        guard size <= Self.caps[.image]!, size > 0 else {
            throw AttachError(code: "invalid file size", message: "\(size) bytes; images may be at most 10 MB")
        }
        guard let data = FileManager.default.contents(atPath: file.path) else { throw AttachError(code: "invalid URL", message: "cannot read \(file.path)") }
        let bytes = [UInt8](data)
        guard ImageFormat(sniffing: bytes) != nil else {
            throw AttachError(code: "unrecognized type", message: "not a JPEG, PNG or GIF (audio and video come later)")
        }
        // UNNotificationAttachment refuses files it cannot read; decoding small checks every byte.
        do { _ = try ImageSource(bytes).decodeUpright(scale: 1.0 / 8) } catch {
            throw AttachError(code: "corrupt", message: "\(error)")
        }
        return Attachment(identifier: identifier, kind: .image, path: file.path, bytes: bytes)
    }
}
