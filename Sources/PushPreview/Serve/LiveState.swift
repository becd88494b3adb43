import Diagnostics
import Foundation

/// `serve`'s live state as one value — events in (files edited, a push taken, the cards a page
/// shows, pictures drawn, stop), actions out (what the drawer does next, which cards go first,
/// which pictures changed) — so its rules are tested without threads or files, as swift-nio's
/// state machines are. `LiveGallery` holds it in a `Mutex` and carries out what it says.
struct LiveState {
    /// One card of the page: a payload in one variant. Its id is what the page's `data-card`
    /// says (`Variant.cardID`); a failure drawn in no variant is its payload alone.
    struct CardKey: Hashable, Sendable {
        var payload: String
        var variant: Variant?

        init(payload: String, variant: Variant?) { self.payload = payload; self.variant = variant }
        init(_ r: MockupResult) { self.init(payload: r.payload, variant: r.variant) }
        /// nil unless `id` names a payload and a variant.
        init?(id: String) {
            guard let (payload, variant) = Variant.parse(cardID: id) else { return nil }
            self.init(payload: payload, variant: variant)
        }
        var id: String { variant?.cardID(payload: payload) ?? payload }
    }

    /// What the drawer does next.
    enum Work: Equatable {
        /// Draw what these edited paths touch.
        case edits(Set<String>)
        /// Draw the pushes waiting.
        case pushes
        /// Stop: nothing more is drawn.
        case stop
    }

    /// A picture's file stamp and the version the page's URL carries.
    struct Picture: Equatable {
        var stamp: String
        var version: String
    }

    private(set) var edits: Set<String> = []
    private(set) var pushesWaiting = false
    private(set) var stopping = false
    /// The cards the pages said they show, most recent first.
    private(set) var viewing: [CardKey] = []
    /// Each picture the page shows, by its path beneath the output folder.
    private(set) var pictures: [String: Picture] = [:]
    /// The version a picture had before it last changed, for those whose file before was kept.
    private(set) var previous: [String: String] = [:]
    /// Cards told at most: a page shows a screenful.
    static let maxViewing = 32

    // MARK: Events

    mutating func edited(_ paths: Set<String>) { edits.formUnion(paths) }
    mutating func pushTaken() { pushesWaiting = true }
    mutating func stop() { stopping = true }

    /// A page shows these cards now (in page order): they go first, ahead of what was told before.
    mutating func viewed(_ cards: [CardKey]) {
        var seen = Set<CardKey>()
        let fresh = cards.filter { seen.insert($0).inserted }.prefix(Self.maxViewing)
        viewing = Array(fresh) + viewing.filter { !seen.contains($0) }
        viewing = Array(viewing.prefix(Self.maxViewing))
    }

    /// Pictures were drawn (or found unchanged): each with its file's stamp (time and size, from
    /// a stat: no bytes are read back). Returns the pictures new or whose stamp changed, in path
    /// order; of those, the ones in `kept` (their file before was kept) have a previous version now.
    mutating func drawn(_ stamps: [String: String], kept: Set<String> = []) -> [String] {
        var changed: [String] = []
        for (path, stamp) in stamps {
            let old = pictures[path]
            guard old?.stamp != stamp else { continue }
            pictures[path] = Picture(stamp: stamp, version: Self.version(of: stamp))
            changed.append(path)
            if let old, kept.contains(path) { previous[path] = old.version }
        }
        return changed.sorted()
    }

    /// Pictures no longer listed anywhere are forgotten.
    mutating func keepOnly(_ listed: Set<String>) {
        pictures = pictures.filter { listed.contains($0.key) }
        previous = previous.filter { listed.contains($0.key) }
    }

    // MARK: Actions

    /// What the drawer does now, taking it: edits before pushes (a push is drawn with the
    /// templates as they are now), nil while there is nothing to do.
    mutating func next() -> Work? {
        if stopping { return .stop }
        if !edits.isEmpty {
            let taken = edits
            edits = []
            return .edits(taken)
        }
        if pushesWaiting {
            pushesWaiting = false
            return .pushes
        }
        return nil
    }

    /// Whether pushes should wait: edits came in (they are drawn first) or serve is stopping.
    var pushesShouldYield: Bool { stopping || !edits.isEmpty }

    /// The cards to draw first among `payloads` (nil: every payload), those a page shows, most
    /// recently told first, at most `limit`.
    func first(among payloads: Set<String>?, limit: Int) -> [CardKey] {
        Array(viewing.filter { payloads?.contains($0.payload) ?? true }.prefix(limit))
    }

    /// The versions the page's URLs carry.
    var versions: [String: String] { pictures.mapValues(\.version) }

    /// A short version from a stamp: the URL changes when the file does.
    static func version(of stamp: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a: short, stable, no need to be secret
        for byte in stamp.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return String(hash, radix: 16)
    }
}
