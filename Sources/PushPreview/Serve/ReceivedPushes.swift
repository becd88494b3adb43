import Formats
import Foundation

/// The pushes the APNs endpoint took, newest first: each kept as `PROJECT/received/TIME-ID.apns`
/// (its body as sent, ready to move into `payloads/`) and drawn into `OUT/received/TIME-ID/`.
/// A push with the collapse ID of one shown replaces it, as iOS does. Only the newest `window`
/// are drawn; older ones stay on disk and are counted, so memory and the output folder stay
/// flat however many arrive.
struct ReceivedPushes {
    struct Entry: Sendable {
        var push: APNsEndpoint.Push
        var file: URL
        var name: String { file.deletingPathExtension().lastPathComponent }
        var received: Date
        var results: [MockupResult]?
        var drawnAt: Date?
    }

    private(set) var entries: [Entry] = []
    /// Pushes taken and kept on disk, all of them.
    private(set) var total = 0
    /// Pushes replaced by a later one with their collapse ID.
    private(set) var collapsed = 0
    let window: Int

    init(window: Int = 50) { self.window = window }

    /// Adds a push; returns the entries it pushed out (theirs outputs to remove).
    mutating func add(_ entry: Entry) -> [Entry] {
        total += 1
        var gone: [Entry] = []
        if let id = entry.push.collapseID, let i = entries.firstIndex(where: { $0.push.collapseID == id }) {
            gone.append(entries.remove(at: i))
            collapsed += 1
        }
        entries.insert(entry, at: 0)
        while entries.count > window { gone.append(entries.removeLast()) }
        return gone
    }

    /// The newest entries not drawn yet, up to `count`.
    func pending(_ count: Int) -> [Entry] { Array(entries.lazy.filter { $0.results == nil }.prefix(count)) }

    mutating func drawn(_ name: String, _ results: [MockupResult]) {
        guard let i = entries.firstIndex(where: { $0.name == name }) else { return }
        entries[i].results = results
        entries[i].drawnAt = Date()
    }

    /// What a push's card is titled by: its alert's title, else its body (the alert as a string is
    /// its body), as the person sending it wrote it; nil when it has no alert.
    static func alertTitle(_ payload: [UInt8]) -> String? {
        guard let alert = (try? JSONParser.parse(payload, file: "payload"))?["aps"]?["alert"] else { return nil }
        if let text = alert.string { return text.isEmpty ? nil : text }
        return ["title", "subtitle", "body"].lazy.compactMap { alert[$0]?.string }.first { !$0.isEmpty }
    }

    /// `TIME-ID`: sortable by arrival, unique by the apns-id.
    static func fileName(_ push: APNsEndpoint.Push, at date: Date) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "yyyyMMdd'T'HHmmss.SSS'Z'"
        return "\(f.string(from: date))-\(push.id).apns"
    }
}
