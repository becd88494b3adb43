import Foundation
import Payload
import Formats

/// What a push SDK's own content view reads when it is shown (CleverTap's carousel, Braze's Push
/// Story): its data — a JSON object in a string key when the SDK reads one, else the payload —
/// and the images it downloads itself, through the same downloads, hosts and cache as
/// attachments. Runs whether or not the service extension ran: the content extension does.
struct ContentViewStep {
    let settings: ServiceSettings
    let folders: ServiceFolders

    /// Images a view downloads at most: a story has a handful of pages and a mock-up draws the
    /// first two; a payload naming thousands would spend the budget on what is never seen.
    static let maxImages = 10

    /// The payload's paths the SDKs' views download images from: media, but read (not attachments).
    static func imagePaths(_ userInfo: @autoclosure () -> JSONValue, settings: ServiceSettings) -> [String] {
        let views = settings.sdks.compactMap(\.contentView)
        guard !views.isEmpty else { return [] }
        let data = userInfo()
        return views.flatMap { $0.imagePaths(in: data) }
    }

    func run(_ note: inout DeliveredNotification) {
        guard let (sdk, view) = settings.sdks.lazy.compactMap({ sdk in sdk.contentView.map { (sdk, $0) } }).first else { return }
        let said = sdk.said(view.source)
        var data = note.userInfo
        if let key = view.dataKeys.first(where: { k in note.userInfo.contains { $0.key == k } }) {
            if let text = note.userInfo.first(where: { $0.key == key })?.value.string, let object = try? JSONParser.parse(Array(text.utf8), file: key), case .object(let members) = object {
                data = members
            } else {
                note.trace.steps.append(.init(step: "view", outcome: "failed", message: "\(key) is not a JSON object in a string; the view reads the payload's own keys, \(said)"))
            }
        }
        let deadline = Date().addingTimeInterval(settings.timeBudget)
        let attach = AttachStep(settings: settings, folders: folders)
        var images: [Attachment] = []
        let paths = view.imagePaths(in: .object(data))
        if paths.count > Self.maxImages {
            note.trace.steps.append(.init(step: "view", outcome: "partly read", message: "the payload names \(paths.count) images; the first \(Self.maxImages) are downloaded, \(said)"))
        }
        for path in paths.prefix(Self.maxImages) {
            guard let value = KeyPath(path).lookup(in: JSONValue.object(data)).value as? JSONValue, case .string(let reference) = value, !reference.isEmpty else { continue }
            let started = Date()
            func step(_ outcome: String, _ bytes: Int, _ message: String) {
                note.trace.steps.append(.init(step: "view", outcome: outcome, ms: (Date().timeIntervalSince(started) * 1000).rounded(), bytes: bytes, message: "\(path): \(message), \(said)"))
            }
            do {
                let a = try attach.attach(reference, identifier: path, options: [:], deadline: deadline)
                guard let type = MediaType(uti: a.attachment.type), type.kind == .image else {
                    step("failed", a.bytes, "\(reference.prefix(80)) is not an image; the view leaves it out"); continue
                }
                images.append(Attachment(identifier: path, kind: .image, uti: a.attachment.type, path: a.attachment.url.path, bytes: a.attachment.bytes))
                step(a.cacheHit ? "cache hit" : "downloaded", a.bytes, String(reference.prefix(120)))
            } catch {
                step(error.code.outcome, 0, "\(error.message); the view leaves it out")
            }
        }
        var variants: [String: String] = [:]
        for key in view.variantKeys {
            let text: String?
            switch KeyPath(key).lookup(in: JSONValue.object(data)).value as? JSONValue {
            case .string(let s)?: text = s
            case .number(let n)? where n == n.rounded() && abs(n) < 1e9: text = String(Int(n))
            case .bool(let b)?: text = b ? "1" : "0"
            default: text = nil
            }
            if let text, !text.isEmpty, text.utf8.count <= 64, text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }) { variants[key] = text }
        }
        note.contentView = .init(sdk: sdk.name, template: view.template, variants: variants, data: data, images: images)
    }
}
