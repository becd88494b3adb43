import Foundation
import Payload
import Formats

/// The one rule for "this payload value is media", which the service stage says of a value it
/// attached from no key and `validate` reports the same way: a `data:` image, audio or video; an
/// http(s) URL of a media file, or without a file extension at a key that names media (the bytes
/// decide its type once downloaded); a file the project's media roots hold at such a key, of a
/// media type by its extension or with none (its bytes decide). A value the settings' templates
/// read (a sender's avatar) is drawn through them.
public struct MediaRule: Sendable {
    let folders: ServiceFolders

    public init(folders: ServiceFolders) { self.folders = folders }

    /// Words that, as a part of a key, say its value is media (`rich-media`, `ct_mediaUrl`, `ab.att.url`).
    static let mediaWords: Set<String> = ["image", "img", "media", "attachment", "att", "photo", "picture", "video", "audio", "thumbnail", "poster", "gif"]

    public func isMedia(_ value: String, at path: String) -> Bool {
        let lower = value.lowercased()
        if lower.hasPrefix("data:image/") || lower.hasPrefix("data:audio/") || lower.hasPrefix("data:video/") { return true }
        if lower.hasPrefix("http://") || lower.hasPrefix("https://") {
            guard let url = URL(string: value) else { return false }
            if MediaType(fileExtension: url.pathExtension) != nil { return true }
            return url.pathExtension.isEmpty && url.path.count > 1 && Self.namesMedia(path)
        }
        // A local path counts only when a media root holds it: other strings are just text.
        guard !lower.contains(":") || lower.hasPrefix("file:"), !value.isEmpty, value.count < 1024 else { return false }
        let file = lower.hasPrefix("file:") ? URL(string: value)?.path ?? value : value
        guard let url = folders.mediaFile(file), folders.media.isFile(url) else { return false }
        // A local file may be for a template to show (a poster): only at a key that names media.
        return (MediaType(fileExtension: url.pathExtension) != nil || url.pathExtension.isEmpty) && Self.namesMedia(path)
    }

    /// Whether a template of the settings (`set`, `enrich`, `communication`) reads the key: its
    /// value is then drawn through that template (a sender's avatar), not left out.
    func readByTemplates(_ path: String) -> Bool {
        let settings = folders.settings
        let templates = (settings.set + settings.enrich.flatMap(\.set)).map(\.template) + Array(settings.communication.values)
        return templates.contains { $0.contains(path) }
    }

    /// Whether a key path has a part that names media: its words split at punctuation and case.
    static func namesMedia(_ path: String) -> Bool {
        var words: [String] = [], word = ""
        for c in path {
            if c.isLetter && !(c.isUppercase && !word.isEmpty && word.last!.isLowercase) { word.append(c) } else {
                if !word.isEmpty { words.append(word.lowercased()) }
                word = c.isLetter ? String(c) : ""
            }
        }
        if !word.isEmpty { words.append(word.lowercased()) }
        return words.contains { mediaWords.contains($0) }
    }

    /// The values of `userInfo` that are media but were attached from no key (`attachedFrom`).
    public func unattached(_ userInfo: Any, attachedFrom: Set<String>) -> [(path: String, value: String)] {
        KeyPath.strings(in: userInfo).filter { !attachedFrom.contains($0.path) && isMedia($0.value, at: $0.path) && !readByTemplates($0.path) }
    }
}

extension MediaRule {
    /// The media values of a payload that neither `mediaKeys` nor a push SDK of `settings` attaches
    /// (`validate`'s check; the service stage says the same of each as it runs).
    public func unattached(_ members: [(key: String, value: JSONValue)], settings: ServiceSettings) -> [(path: String, value: String)] {
        var userInfo: [AnyHashable: Any] = [:]
        for (key, value) in members { userInfo[key] = value.foundation }
        var paths = Set(settings.mediaKeys + ContentViewStep.imagePaths(.object(members), settings: settings))
        for sdk in settings.sdks where SDKStep(sdk: sdk).missingGateKeys(userInfo).isEmpty {
            paths.formUnion(SDKStep(sdk: sdk).media(userInfo).references.map(\.path))
        }
        return unattached(userInfo, attachedFrom: paths)
    }
}
