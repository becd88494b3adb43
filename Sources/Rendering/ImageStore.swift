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
    /// Decoded and resampled pixels by content identity, kept across pages up to `cacheBytes`.
    private var decoded: [String: RGBAImage] = [:]
    private var resampled: [String: RGBAImage] = [:]
    private var sources: [String: ImageSource] = [:]
    private var identities: [String: String] = [:]
    private var cachedBytes = 0
    public var cacheBytes = 256 << 20

    /// Finds a `src` no one registered (a template's `media/…` file or a `data:` URL): its bytes,
    /// the file name beside the page (nil: none, as for data:), and a content identity.
    public var resolver: ((String) -> (bytes: [UInt8], fileName: String?, identity: String)?)?
    /// `src`s that could not be found or read, for the mock-up's warnings.
    public private(set) var missing: Set<String> = []

    public init(limits: ImageLimits = .standard) { self.limits = limits }

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
        if let known = sources[key] { source = known } else {
            source = try ImageSource(bytes, limits: limits)
            sources[key] = source
        }
        identities[src] = key
        entries[src] = Entry(bytes: bytes, source: source, fileName: fileName)
    }

    /// Intrinsic size in CSS pixels (= image pixels, upright).
    public func size(of src: String) -> (width: Double, height: Double)? {
        guard let s = entry(src)?.source else { return nil }
        let (w, h) = s.uprightSize
        return (Double(w), Double(h))
    }

    /// The part `rect` (upright image pixels) of `src`, resampled to `width`x`height` pixels.
    public func pixels(_ src: String, rect: Resampler.Rect, width: Int, height: Int, frame: Int = 0) throws(ImagingError) -> RGBAImage? {
        guard let entry = entry(src), let identity = identities[src], width > 0, height > 0 else { return nil }
        let key = "\(identity)|\(rect.x),\(rect.y),\(rect.width),\(rect.height)|\(width)x\(height)|\(frame)"
        if let hit = resampled[key] { return hit }
        let (uw, _) = entry.source.uprightSize
        let scale = Double(width) / rect.width
        let reduction = [8, 4, 2].first { 1 / Double($0) >= scale * 0.999 } ?? 1
        let decodedKey = "\(identity)|\(reduction)|\(frame)"
        let image: RGBAImage
        if let hit = decoded[decodedKey] { image = hit } else {
            image = try entry.source.decodeUpright(scale: scale, frame: frame)
            remember(image.pixels.count)
            decoded[decodedKey] = image
        }
        let f = Double(image.width) / Double(uw)
        let out = Resampler.resample(image, from: .init(x: rect.x * f, y: rect.y * f, width: rect.width * f, height: rect.height * f),
                                     toWidth: width, height: height)
        remember(out.pixels.count)
        resampled[key] = out
        return out
    }

    /// A simple bound: past the budget, start over (output does not depend on the cache).
    private func remember(_ bytes: Int) {
        cachedBytes += bytes
        if cachedBytes > cacheBytes {
            decoded.removeAll()
            resampled.removeAll()
            cachedBytes = bytes
        }
    }
}
