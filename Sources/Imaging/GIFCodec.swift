import CShim

/// giflib, through the C shim: frame N of an animated GIF, composed with disposal and transparency.
public enum GIFCodec {
    public static func header(_ data: [UInt8], limits: ImageLimits = .standard) throws(ImagingError) -> (width: Int, height: Int, frames: Int) {
        try limits.checkFileSize(data.count)
        var info = shim_image_info()
        var shimLimits = limits.shim
        guard shim_gif_read_header(data, data.count, &shimLimits, &info) == 0 else { throw shimError(info, .gif) }
        return (Int(info.width), Int(info.height), Int(info.frame_count))
    }

    public static func decode(_ data: [UInt8], frame: Int = 0, limits: ImageLimits = .standard) throws(ImagingError) -> RGBAImage {
        let head = try header(data, limits: limits)
        guard frame >= 0, frame < head.frames else { throw .noSuchFrame(requested: frame, available: head.frames) }
        var info = shim_image_info()
        var shimLimits = limits.shim
        var pixels = [UInt8](repeating: 0, count: head.width * head.height * 4)
        let rc = pixels.withUnsafeMutableBufferPointer { out in
            shim_gif_decode(data, data.count, Int32(clamping: frame), &shimLimits, out.baseAddress, out.count, &info)
        }
        guard rc == 0 else { throw shimError(info, .gif) }
        return RGBAImage(width: head.width, height: head.height, pixels: pixels)
    }

    public struct Frame: Sendable {
        public var indices: [UInt8]
        public var left = 0, top = 0, width: Int, height: Int
        public var delayCentiseconds = 10
        /// 0 unspecified, 1 keep, 2 restore to background, 3 restore to previous.
        public var disposal = 0
        public var transparentIndex: Int?
        public init(indices: [UInt8], left: Int = 0, top: Int = 0, width: Int, height: Int,
                    disposal: Int = 0, transparentIndex: Int? = nil) {
            self.indices = indices; self.left = left; self.top = top; self.width = width; self.height = height
            self.disposal = disposal; self.transparentIndex = transparentIndex
        }
    }

    /// Writes an (animated) GIF89a; `palette` is RGB triples, a power of two of them (2...256).
    public static func encode(width: Int, height: Int, palette: [UInt8], frames: [Frame]) throws(ImagingError) -> [UInt8] {
        var out: UnsafeMutablePointer<UInt8>?
        var size = 0
        var error = [CChar](repeating: 0, count: Int(SHIM_ERR_LEN))
        let rc = withFrames(frames) { shimFrames in
            shim_gif_encode(Int32(width), Int32(height), palette, Int32(palette.count / 3),
                            shimFrames.baseAddress, Int32(shimFrames.count), &out, &size, &error)
        }
        guard rc == 0 else { throw .encodingFailed(errorText(error)) }
        return takeShimBuffer(out, size)
    }

    private static func withFrames<R>(_ frames: [Frame], _ body: (UnsafeBufferPointer<shim_gif_frame>) -> R) -> R {
        // Keep every frame's index buffer alive while the C side reads it.
        func nest(_ i: Int, _ built: [shim_gif_frame]) -> R {
            if i == frames.count { return built.withUnsafeBufferPointer(body) }
            let f = frames[i]
            return f.indices.withUnsafeBufferPointer { indices in
                nest(i + 1, built + [shim_gif_frame(indices: indices.baseAddress, left: Int32(f.left), top: Int32(f.top),
                                                   width: Int32(f.width), height: Int32(f.height),
                                                   delay_cs: Int32(f.delayCentiseconds), disposal: Int32(f.disposal),
                                                   transparent_index: Int32(f.transparentIndex ?? -1))])
            }
        }
        return nest(0, [])
    }
}
