import Checked
import Foundation
import Imaging

/// The images a page may show, by the `src` the template uses: bytes registered by the pipeline
/// (attachments, media files, the app icon). Across pages (a worker's whole run) each image is
/// decoded once per DCT reduction and resampled once per size. Not thread-safe: one per worker.
public final class ImageStore {
    public struct Entry {
        public let bytes: [UInt8]
        public let source: ImageSource
        /// The file name the HTML page refers to, beside the page.
        public let fileName: String
    }

    public let limits: ImageLimits
    private(set) public var entries: [String: Entry] = [:]
    /// Decoded and resampled pixels by content identity, kept across pages (and shared with
    /// other workers' stores when they are given the same cache).
    public let pixelCache: PixelCache
    /// Each image's parsed header and file bytes by content identity, across pages, within
    /// 8 MB of files (a gallery's photos are a few hundred kB each).
    private var sources = BoundedCache<String, ImageSource>(budget: 8 << 20)
    private var identities: [String: String] = [:]

    /// Finds a `src` no one registered (a template's `media/…` file or a `data:` URL): its bytes,
    /// the file name beside the page (nil: none, as for data:), and a content identity.
    public var resolver: ((String) -> (bytes: [UInt8], fileName: String?, identity: String)?)?
    /// `src`s that could not be found or read, for the mock-up's warnings.
    public private(set) var missing: Set<String> = []

    public init(limits: ImageLimits = .standard, pixelCache: PixelCache = PixelCache()) { self.limits = limits; self.pixelCache = pixelCache }

    /// The entry for `src`, resolving it on first use.
    private func entry(_ src: String) -> Entry? {
        if let known = entries[src] { return known }
        guard !missing.contains(src), let found = resolver?(src) else { missing.insert(src); return nil }
        do { try register(src, bytes: found.bytes, fileName: found.fileName ?? "", identity: found.identity) } catch {
            missing.insert(src)
            return nil
        }
        return entries[src]
    }

    /// Starts a new page: forgets the `src` names, keeps the decoded pixels.
    public func beginPage() {
        entries.removeAll()
        identities.removeAll()
        missing.removeAll()
    }

    /// Registers `bytes` under `src`; throws when they are not an image this tool can read.
    /// `identity` names the content (a file path and size, say) so later pages reuse its pixels.
    public func register(_ src: String, bytes: [UInt8], fileName: String, identity: String) throws(ImagingError) {
        if entries[src] != nil { return }
        let key = "\(identity)|\(bytes.count)"
        let source: ImageSource
        if let known = sources.value(key) { source = known } else {
            source = try ImageSource(bytes, limits: limits)
            sources.insert(source, for: key, cost: bytes.count)
        }
        identities[src] = key
        entries[src] = Entry(bytes: bytes, source: source, fileName: fileName)
    }

    /// The content identity `src` was registered with (the same for the same bytes on every page).
    public func identity(of src: String) -> String? { identities[src] }

    /// Intrinsic size in CSS pixels (= image pixels, upright).
    public func size(of src: String) -> (width: Double, height: Double)? {
        guard let s = entry(src)?.source else { return nil }
        let (w, h) = s.uprightSize
        return (Double(w), Double(h))
    }

    /// The part `rect` (upright image pixels) of `src`, resampled to `width`x`height` pixels.
    public func pixels(_ src: String, rect: Resampler.Rect, width: Int, height: Int, frame: Int = 0) throws(ImagingError) -> RGBAImage? {
        guard let entry = entry(src), let identity = identities[src], width > 0, height > 0 else { return nil }
        let key = "r|\(identity)|\(rect.x),\(rect.y),\(rect.width),\(rect.height)|\(width)x\(height)|\(frame)"
        return try pixelCache.value(key) { () throws(ImagingError) in
            let (uw, _) = entry.source.uprightSize
            let scale = Double(width) / rect.width
            // Only JPEG decodes smaller (DCT scaling); other formats have one decode.
            let reduction = entry.source.format == .jpeg ? [8, 4, 2].first { 1 / Double($0) >= scale * 0.999 } ?? 1 : 1
            let image = try pixelCache.value("d|\(identity)|\(reduction)|\(frame)") { () throws(ImagingError) in
                try entry.source.decodeUpright(scale: scale, frame: frame)
            }
            let f = Double(image.width) / Double(uw)
            return Resampler.resample(image, from: .init(x: rect.x * f, y: rect.y * f, width: rect.width * f, height: rect.height * f),
                                      toWidth: width, height: height)
        }
    }
}

/// Pixels by key, for every worker of a run: each attachment is decoded once per DCT reduction
/// and resampled once per size, whichever worker needs it first, while it is among the most
/// recently used `budget` bytes of pixels; output never depends on what is cached.
public final class PixelCache: @unchecked Sendable {
    private let condition = NSCondition()
    private var images: BoundedCache<String, RGBAImage>
    private var making: Set<String> = []
    /// Counts, not keys: a list of every key made would grow with the run.
    private var decoded = 0, resampled = 0

    /// A photo decoded for @3x is some 6 MB and each size it is drawn at 4 MB more: 16 MB holds
    /// one payload's images on two devices, and those every payload shows (the app icon) stay
    /// as the most recently used. More buys little: 32 MB cost a worker drawing the Examples
    /// gallery 20 MB more PSS (make bench), for no measurable speed.
    public init(budget: Int = 16 << 20) { images = BoundedCache(budget: budget) }

    public var budget: Int { images.budget }

    /// How many decodes (`d|…` keys) and resamples (`r|…`) were made rather than found.
    public var counts: (decoded: Int, resampled: Int) {
        condition.lock()
        defer { condition.unlock() }
        return (decoded, resampled)
    }

    /// The image for `key`, made by `make` only if no worker has it or is making it now.
    public func value(_ key: String, make: () throws(ImagingError) -> RGBAImage) throws(ImagingError) -> RGBAImage {
        condition.lock()
        while true {
            if let hit = images.value(key) { condition.unlock(); return hit }
            if !making.contains(key) { break }
            condition.wait()
        }
        making.insert(key)
        condition.unlock()
        let result: Result<RGBAImage, ImagingError>
        do { result = .success(try make()) } catch { result = .failure(error) }
        condition.lock()
        making.remove(key)
        if case .success(let image) = result {
            if key.hasPrefix("d|") { decoded += 1 } else if key.hasPrefix("r|") { resampled += 1 }
            images.insert(image, for: key, cost: image.pixels.count)
        }
        condition.broadcast()
        condition.unlock()
        return try result.get()
    }
}
