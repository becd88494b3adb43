/// Attachment types iOS accepts (UNNotificationAttachment's table), recognized from the bytes.
public struct MediaType: Sendable, Equatable {
    public enum Kind: String, Sendable, Codable {
        case image, audio, video
        /// Apple's caps: image 10 MB, audio 5 MB, movie 50 MB.
        public var cap: Int {
            switch self {
            case .image: return 10_000_000
            case .audio: return 5_000_000
            case .video: return 50_000_000
            }
        }
    }
    public var uti: String
    public var kind: Kind

    static let known: [(uti: String, kind: Kind, extensions: [String])] = [
        ("public.jpeg", .image, ["jpg", "jpeg"]), ("public.png", .image, ["png"]), ("com.compuserve.gif", .image, ["gif"]),
        ("public.aiff-audio", .audio, ["aif", "aiff"]), ("com.microsoft.waveform-audio", .audio, ["wav"]),
        ("public.mp3", .audio, ["mp3"]), ("public.mpeg-4-audio", .audio, ["m4a"]),
        ("public.mpeg", .video, ["mpg", "mpeg"]), ("public.mpeg-2-video", .video, ["mp2"]),
        ("public.mpeg-4", .video, ["mp4", "m4v"]), ("public.avi", .video, ["avi"]),
    ]

    public init?(uti: String) {
        guard let k = Self.known.first(where: { $0.uti == uti }) else { return nil }
        self.init(uti: k.uti, kind: k.kind)
    }
    init(uti: String, kind: Kind) { self.uti = uti; self.kind = kind }

    public init?(fileExtension: String) {
        guard let k = Self.known.first(where: { $0.extensions.contains(fileExtension.lowercased()) }) else { return nil }
        self.init(uti: k.uti, kind: k.kind)
    }

    /// From the first bytes; names and Content-Type headers are not trusted.
    public init?(sniffing b: [UInt8]) {
        func at(_ offset: Int, _ text: String) -> Bool {
            let t = Array(text.utf8)
            return b.count >= offset + t.count && Array(b[offset..<offset + t.count]) == t
        }
        if b.starts(with: [0xFF, 0xD8, 0xFF]) { self.init(uti: "public.jpeg", kind: .image) }
        else if b.starts(with: [0x89, 0x50, 0x4E, 0x47]) { self.init(uti: "public.png", kind: .image) }
        else if at(0, "GIF87a") || at(0, "GIF89a") { self.init(uti: "com.compuserve.gif", kind: .image) }
        else if at(0, "FORM") && (at(8, "AIFF") || at(8, "AIFC")) { self.init(uti: "public.aiff-audio", kind: .audio) }
        else if at(0, "RIFF") && at(8, "WAVE") { self.init(uti: "com.microsoft.waveform-audio", kind: .audio) }
        else if at(0, "RIFF") && at(8, "AVI ") { self.init(uti: "public.avi", kind: .video) }
        else if at(0, "ID3") || (b.count > 1 && b[0] == 0xFF && b[1] & 0xE0 == 0xE0) { self.init(uti: "public.mp3", kind: .audio) }
        else if at(4, "ftyp") {
            let brand = b.count >= 12 ? String(decoding: b[8..<12], as: UTF8.self) : ""
            if brand.hasPrefix("M4A") || brand.hasPrefix("M4B") { self.init(uti: "public.mpeg-4-audio", kind: .audio) }
            else { self.init(uti: "public.mpeg-4", kind: .video) }
        }
        else if b.starts(with: [0, 0, 1, 0xBA]) || b.starts(with: [0, 0, 1, 0xB3]) { self.init(uti: "public.mpeg", kind: .video) }
        else { return nil }
    }
}
