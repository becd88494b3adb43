/// Why an image could not be read or written. Every case carries a message a user can act on.
public enum ImagingError: Error, Equatable, CustomStringConvertible {
    /// The file has no bytes.
    case empty
    /// The bytes are not a JPEG, PNG or GIF.
    case unrecognizedFormat
    /// Dimensions, pixel count or file size over the limits; refused before decoding.
    case overLimit(String)
    /// The codec refused the data: corrupt, truncated or hostile.
    case corrupt(ImageFormat, String)
    /// An animated GIF has fewer frames than the one asked for.
    case noSuchFrame(requested: Int, available: Int)
    /// Writing failed.
    case encodingFailed(String)
    /// The file does not exist or cannot be read.
    case unreadable(String)
    /// A video or audio file could not be read, or has no frame to show (MediaFile).
    case media(String)

    public var description: String {
        switch self {
        case .empty: return "the image file is empty"
        case .unrecognizedFormat: return "not a JPEG, PNG or GIF image (checked the file's first bytes)"
        case .overLimit(let why): return "image refused: \(why)"
        case .corrupt(let format, let why): return "corrupt \(format.rawValue.uppercased()) image: \(why)"
        case .noSuchFrame(let requested, let available):
            return "frame \(requested) asked for, but the GIF has \(available) frame\(available == 1 ? "" : "s") (frames count from 0)"
        case .encodingFailed(let why): return "could not encode the image: \(why)"
        case .unreadable(let path): return "\(path): no such file, or it cannot be read"
        case .media(let why): return "cannot use the video or audio file: \(why)"
        }
    }
}

/// Limits checked before any large allocation.
public struct ImageLimits: Sendable {
    public var maxWidth: Int = 16_384
    public var maxHeight: Int = 16_384
    public var maxPixels: Int = 64_000_000
    public var maxFileSize: Int = 60_000_000
    /// Working memory a decoder may use (a progressive JPEG keeps all its coefficients).
    public var maxDecoderMemory: Int = 256 << 20
    public var maxProgressiveScans: Int = 300
    /// Refuse data that a decoder would otherwise pad with grey (a truncated JPEG, say).
    public var strict: Bool = true

    public init() {}
    public static let standard = ImageLimits()
}

public enum ImageFormat: String, Sendable, CaseIterable {
    case jpeg, png, gif

    /// The format from the first bytes; names and headers are not trusted.
    public init?(sniffing bytes: some Collection<UInt8>) {
        let head = Array(bytes.prefix(8))
        if head.starts(with: [0xFF, 0xD8, 0xFF]) { self = .jpeg }
        else if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { self = .png }
        else if head.starts(with: Array("GIF87a".utf8)) || head.starts(with: Array("GIF89a".utf8)) { self = .gif }
        else { return nil }
    }
}
