import Checked
/// Decodes any supported image upright and scales it to a size in pixels, the way iOS draws an
/// attachment thumbnail: an optional normalized clipping rect first, then aspect-fill or aspect-fit.
public enum Thumbnailer {
    public enum Fit: String, Sendable, CaseIterable {
        /// Cover the target, cropping the centre (`object-fit: cover`).
        case fill
        /// Fit inside the target; the result may be smaller on one axis (`object-fit: contain`).
        case fit
    }

    /// A rectangle in unit coordinates (0...1) of the upright image, as
    /// `UNNotificationAttachmentOptionsThumbnailClippingRectKey`.
    public struct ClippingRect: Sendable, Equatable {
        public var x, y, width, height: Double
        public init(x: Double, y: Double, width: Double, height: Double) {
            self.x = x; self.y = y; self.width = width; self.height = height
        }
        public static let full = ClippingRect(x: 0, y: 0, width: 1, height: 1)
    }

    public static func thumbnail(_ data: [UInt8], width: Int, height: Int, fit: Fit = .fill,
                                 clip: ClippingRect = .full, frame: Int = 0,
                                 limits: ImageLimits = .standard) throws(ImagingError) -> RGBAImage {
        guard width > 0, height > 0 else { throw .overLimit("thumbnail size must be at least 1x1, got \(width)x\(height)") }
        try limits.checkOutput(width: width, height: height)
        let source = try ImageSource(data, limits: limits)
        let (uw, uh) = source.uprightSize

        // The clipping rect, in upright source pixels.
        let x0 = min(max(clip.x, 0), 1), y0 = min(max(clip.y, 0), 1)
        let x1 = min(max(clip.x + clip.width, 0), 1), y1 = min(max(clip.y + clip.height, 0), 1)
        guard x1 > x0, y1 > y0 else {
            throw .overLimit("clipping rect \(clip.x),\(clip.y),\(clip.width),\(clip.height) leaves nothing of the image")
        }
        let region = Resampler.Rect(x: x0 * Double(uw), y: y0 * Double(uh),
                                    width: (x1 - x0) * Double(uw), height: (y1 - y0) * Double(uh))

        let scale = fit == .fill ? max(Double(width) / region.width, Double(height) / region.height)
                                 : min(Double(width) / region.width, Double(height) / region.height)
        let (outW, outH) = fit == .fill ? (width, height)
            : (max(1, Int(saturating: region.width * scale, rounded: .toNearestOrAwayFromZero)), max(1, Int(saturating: region.height * scale, rounded: .toNearestOrAwayFromZero)))

        let image = try source.decodeUpright(scale: scale, frame: frame)
        // Decoding may have been reduced; map the region onto the decoded pixels.
        let fx = Double(image.width) / Double(uw), fy = Double(image.height) / Double(uh)
        var visible = Resampler.Rect(x: region.x * fx, y: region.y * fy, width: region.width * fx, height: region.height * fy)
        if fit == .fill { // crop the centre of the region to the target's aspect ratio
            let cropW = Double(outW) / scale * fx, cropH = Double(outH) / scale * fy
            visible = Resampler.Rect(x: visible.x + (visible.width - cropW) / 2, y: visible.y + (visible.height - cropH) / 2,
                                     width: cropW, height: cropH)
        }
        return Resampler.resample(image, from: visible, toWidth: outW, height: outH)
    }
}

/// An encoded image whose header has been read: its format, upright size and orientation.
public struct ImageSource: Sendable {
    public let format: ImageFormat
    public let width: Int, height: Int
    public let orientation: Orientation
    public let frameCount: Int
    let data: [UInt8]
    let limits: ImageLimits

    public init(_ data: [UInt8], limits: ImageLimits = .standard) throws(ImagingError) {
        try limits.checkFileSize(data.count)
        guard let format = ImageFormat(sniffing: data) else { throw .unrecognizedFormat }
        self.format = format
        self.data = data
        self.limits = limits
        switch format {
        case .jpeg:
            let h = try JPEGCodec.header(data, limits: limits)
            (width, height, orientation, frameCount) = (h.width, h.height, h.orientation, 1)
        case .png:
            let s = try PNGCodec.size(data, limits: limits)
            (width, height, orientation, frameCount) = (s.width, s.height, .up, 1)
        case .gif:
            let h = try GIFCodec.header(data, limits: limits)
            (width, height, orientation, frameCount) = (h.width, h.height, .up, h.frames)
        }
    }

    public var uprightSize: (width: Int, height: Int) { orientation.swapsAxes ? (height, width) : (width, height) }

    /// The upright image; a JPEG is decoded at the smallest DCT reduction that still covers `scale`.
    public func decodeUpright(scale: Double = 1, frame: Int = 0) throws(ImagingError) -> RGBAImage {
        switch format {
        case .jpeg:
            let reduction = [8, 4, 2].first { 1 / Double($0) >= scale * 0.999 } ?? 1
            let (image, orientation) = try JPEGCodec.decode(data, reduction: reduction, limits: limits)
            return orientation.apply(to: image)
        case .png:
            return try PNGCodec.decode(data, limits: limits)
        case .gif:
            return try GIFCodec.decode(data, frame: frame, limits: limits)
        }
    }
}
