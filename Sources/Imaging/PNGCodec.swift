import CShim

/// libpng, through the C shim: every colour type and depth in, RGBA8 out; deterministic RGBA8 writing.
public enum PNGCodec {
    public static func size(_ data: [UInt8], limits: ImageLimits = .standard) throws(ImagingError) -> (width: Int, height: Int) {
        try limits.checkFileSize(data.count)
        var info = shim_image_info()
        var shimLimits = limits.shim
        guard shim_png_read_header(data, data.count, &shimLimits, &info) == 0 else { throw shimError(info, .png) }
        return (Int(info.width), Int(info.height))
    }

    /// Palettes, tRNS and interlacing expanded, 16-bit channels scaled to 8, no gamma applied.
    public static func decode(_ data: [UInt8], limits: ImageLimits = .standard) throws(ImagingError) -> RGBAImage {
        let (w, h) = try size(data, limits: limits)
        try limits.checkOutput(width: w, height: h)
        var info = shim_image_info()
        var shimLimits = limits.shim
        var pixels = [UInt8](repeating: 0, count: w * h * 4)
        let rc = pixels.withUnsafeMutableBufferPointer { out in
            shim_png_decode(data, data.count, &shimLimits, out.baseAddress, out.count, &info)
        }
        guard rc == 0 else { throw shimError(info, .png) }
        return RGBAImage(width: w, height: h, pixels: pixels)
    }

    /// Writes RGBA with no time chunk (so identical pixels give identical bytes) and, for a
    /// `scale` above 1, a pHYs chunk of 72 dpi × scale so viewers show @2x/@3x images at point size.
    /// `strategy` is zlib's (nil: its default; 3 = Z_RLE). With `opaque`, the alpha channel
    /// (all 255) is left out: RGB, a quarter less to compress.
    public static func encode(_ image: RGBAImage, scale: Int = 1, compressionLevel: Int = 6, filters: Int32 = 0,
                              strategy: Int32? = nil, opaque: Bool = false) throws(ImagingError) -> [UInt8] {
        let pixelsPerMetre = UInt32((Double(72 * scale) / 0.0254).rounded())
        var out: UnsafeMutablePointer<UInt8>?
        var size = 0
        var error = [CChar](repeating: 0, count: Int(SHIM_ERR_LEN))
        guard shim_png_encode(image.pixels, Int32(image.width), Int32(image.height), image.width * 4, 0, Int32(compressionLevel),
                              filters, strategy ?? -1, opaque ? 1 : 0, pixelsPerMetre, &out, &size, &error) == 0 else {
            throw .encodingFailed(errorText(error))
        }
        return takeShimBuffer(out, size)
    }

    /// An opaque image straight from cairo's ARGB32 rows (B, G, R, A in memory on little-endian
    /// machines; premultiplying changes nothing when alpha is 255), written as RGB with its data
    /// deflated by libdeflate: zlib was the largest cost of a gallery. `compressionLevel` is
    /// libdeflate's (1–12).
    public static func encodeOpaqueBGRA(_ rows: UnsafePointer<UInt8>, width: Int, height: Int, stride: Int, scale: Int = 1,
                                        compressionLevel: Int = 6) throws(ImagingError) -> [UInt8] {
        let pixelsPerMetre = UInt32((Double(72 * scale) / 0.0254).rounded())
        var out: UnsafeMutablePointer<UInt8>?
        var size = 0
        var error = [CChar](repeating: 0, count: Int(SHIM_ERR_LEN))
        guard shim_png_encode_bgrx_deflate(rows, Int32(width), Int32(height), stride, Int32(compressionLevel), pixelsPerMetre, &out, &size, &error) == 0 else {
            throw .encodingFailed(errorText(error))
        }
        return takeShimBuffer(out, size)
    }
}
