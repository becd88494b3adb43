import CShim

/// Video and audio attachments, read from memory with FFmpeg's libraries through the C shim
/// (media.c): what a file holds, and the poster frame iOS shows for a video.
/// Containers: MP4/MOV/M4A, MP3, WAV, AIFF, AVI, MPEG. Video: H.264, HEVC, MPEG-4 Part 2,
/// MPEG-1/2, H.263, Motion JPEG. Every failure is `ImagingError.media` with the reason.
public enum MediaFile {
    public struct Info: Sendable, Equatable {
        /// Seconds, as the container declares it; nil when it does not say.
        public var duration: Double?
        /// The first video stream; nil for audio (cover art in an audio file is not video).
        public var video: VideoSize?
        /// An audio stream, in an audio file or beside the video.
        public var hasAudio: Bool

        public init(duration: Double?, video: VideoSize?, hasAudio: Bool) {
            self.duration = duration; self.video = video; self.hasAudio = hasAudio
        }
    }

    /// The size a player shows the video at: its sample aspect ratio and rotation applied
    /// (an iPhone's portrait video is stored landscape and turned).
    public struct VideoSize: Sendable, Equatable {
        public var width: Int, height: Int
        public init(width: Int, height: Int) { self.width = width; self.height = height }
    }

    public static func info(_ bytes: [UInt8], limits: ImageLimits = .standard) throws(ImagingError) -> Info {
        try checkFileSize(bytes.count, limits)
        var info = shim_media_info()
        var shimLimits = limits.shim
        guard shim_media_probe(bytes, bytes.count, &shimLimits, &info) == 0 else { throw .media(info.message) }
        return Info(duration: info.duration >= 0 ? info.duration : nil,
                    video: info.has_video != 0 ? VideoSize(width: Int(info.width), height: Int(info.height)) : nil,
                    hasAudio: info.has_audio != 0)
    }

    /// The frame shown at `seconds` (the last one whose time is at or before it), upright, scaled
    /// down (never up) to fit `maxWidth`×`maxHeight` with its aspect ratio kept.
    /// nil or a negative time: the first frame. A time past the end (or infinity): the last frame.
    /// NaN is refused. Decoding starts at the key frame before the time and is bounded: a file
    /// needing more than 600 frames (or 600 frames' worth of 1080p) past it is refused. With
    /// `limits.strict` (the default) a file cut short, or a frame the decoder had to patch, is too.
    public static func poster(_ bytes: [UInt8], at seconds: Double? = nil, maxWidth: Int, maxHeight: Int,
                              limits: ImageLimits = .standard) throws(ImagingError) -> RGBAImage {
        try checkFileSize(bytes.count, limits)
        if let seconds, seconds.isNaN { throw .media("the poster time is not a number") }
        guard maxWidth > 0, maxHeight > 0 else { throw .media("poster size must be at least 1x1, got \(maxWidth)x\(maxHeight)") }
        var info = shim_media_info()
        var shimLimits = limits.shim
        var rgba: UnsafeMutablePointer<UInt8>?
        let rc = shim_media_poster(bytes, bytes.count, seconds ?? -1, Int32(clamping: maxWidth), Int32(clamping: maxHeight),
                                   &shimLimits, &rgba, &info)
        let (w, h) = (Int(info.poster_width), Int(info.poster_height))
        let pixels = takeShimBuffer(rgba, rc == 0 ? w * h * 4 : 0)
        guard rc == 0 else { throw .media(info.message) }
        let stored = RGBAImage(width: w, height: h, pixels: pixels)
        let turn: Orientation = switch info.rotation { case 90: .right; case 180: .down; case 270: .left; default: .up }
        return turn.apply(to: stored)
    }

    /// A duration as iOS writes it beside media: "0:07", "1:05", "1:02:03". Whole seconds rounded
    /// to the nearest (not yet checked against a device). Negative, NaN or infinite is "0:00".
    public static func durationText(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds > 0 else { return "0:00" }
        let total = Int(min(seconds, 1e15).rounded())
        let (h, m, s) = (total / 3600, total / 60 % 60, total % 60)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return h > 0 ? "\(h):\(two(m)):\(two(s))" : "\(m):\(two(s))"
    }

    private static func checkFileSize(_ count: Int, _ limits: ImageLimits) throws(ImagingError) {
        if count == 0 { throw .media("the file is empty") }
        if count > limits.maxFileSize { throw .media("the file is \(count) bytes, over the \(limits.maxFileSize)-byte limit") }
    }
}

extension shim_media_info {
    var message: String {
        let text = withUnsafeBytes(of: error) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
        return text.isEmpty ? "unknown error" : text
    }
}
