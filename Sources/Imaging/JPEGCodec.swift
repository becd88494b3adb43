import CShim

/// libjpeg-turbo, through the C shim. DCT-domain scaling makes thumbnails of huge photos cheap.
public enum JPEGCodec {
    public struct Header: Sendable {
        public let width: Int, height: Int
        public let orientation: Orientation
        public let progressive: Bool
        public let isCMYK: Bool
    }

    public static func header(_ data: [UInt8], limits: ImageLimits = .standard) throws(ImagingError) -> Header {
        try limits.checkFileSize(data.count)
        var info = shim_image_info()
        var shimLimits = limits.shim
        guard shim_jpeg_read_header(data, data.count, 1, &shimLimits, &info) == 0 else { throw shimError(info, .jpeg) }
        return Header(width: Int(info.image_width), height: Int(info.image_height),
                      orientation: Orientation(rawValue: Int(info.orientation)) ?? .up,
                      progressive: info.progressive != 0, isCMYK: info.color_model == 2 || info.color_model == 3)
    }

    /// Decodes at 1/`reduction` size (1, 2, 4 or 8), as stored (orientation not applied).
    public static func decode(_ data: [UInt8], reduction: Int = 1, limits: ImageLimits = .standard) throws(ImagingError) -> (RGBAImage, Orientation) {
        precondition([1, 2, 4, 8].contains(reduction), "JPEG reduction must be 1, 2, 4 or 8")
        try limits.checkFileSize(data.count)
        var info = shim_image_info()
        var shimLimits = limits.shim
        guard shim_jpeg_read_header(data, data.count, Int32(reduction), &shimLimits, &info) == 0 else { throw shimError(info, .jpeg) }
        let (w, h) = (Int(info.width), Int(info.height))
        try limits.checkOutput(width: w, height: h)
        var pixels = [UInt8](repeating: 0, count: w * h * 4)
        let rc = pixels.withUnsafeMutableBufferPointer { out in
            shim_jpeg_decode(data, data.count, Int32(reduction), &shimLimits, out.baseAddress, out.count, &info)
        }
        guard rc == 0 else { throw shimError(info, .jpeg) }
        return (RGBAImage(width: w, height: h, pixels: pixels), Orientation(rawValue: Int(info.orientation)) ?? .up)
    }

    public struct Options: Sendable {
        public var quality = 90
        public var progressive = false
        public var grayscale = false
        /// Read the pixels' four bytes as C, M, Y, K ink (0 = none) and write a CMYK JPEG.
        public var cmyk = false
        /// With `cmyk`: write the inks inverted behind an Adobe marker, as Photoshop does.
        public var adobeInverted = false
        /// Writes an EXIF orientation tag when set.
        public var orientation: Orientation?
        public init() {}
    }

    /// Encodes RGBA (alpha dropped); for test images and examples.
    public static func encode(_ image: RGBAImage, options: Options = Options()) throws(ImagingError) -> [UInt8] {
        var o = shim_jpeg_options(quality: Int32(options.quality), progressive: options.progressive ? 1 : 0,
                                  cmyk: options.cmyk ? 1 : 0, orientation: Int32(options.orientation?.rawValue ?? 0),
                                  grayscale: options.grayscale ? 1 : 0, adobe_inverted: options.adobeInverted ? 1 : 0)
        var out: UnsafeMutablePointer<UInt8>?
        var size = 0
        var error = [CChar](repeating: 0, count: Int(SHIM_ERR_LEN))
        guard shim_jpeg_encode(image.pixels, Int32(image.width), Int32(image.height), &o, &out, &size, &error) == 0 else {
            throw .encodingFailed(errorText(error))
        }
        return takeShimBuffer(out, size)
    }
}
