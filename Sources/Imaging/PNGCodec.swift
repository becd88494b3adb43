import CShim
import Checked
import Foundation

/// libpng, through the C shim: every colour type and depth in, RGBA8 out; deterministic RGBA8 writing.
public enum PNGCodec {
    public static func size(_ data: [UInt8], limits: ImageLimits = .standard) throws(ImagingError) -> (width: Int, height: Int) {
        try limits.checkFileSize(data.count)
        var info = shim_image_info()
        var shimLimits = limits.shim
        guard shim_png_read_header(data, data.count, &shimLimits, &info) == 0 else { throw shimError(info, .png) }
        return (Int(info.width), Int(info.height))
    }

    /// A PNG's size from its first 24 bytes (signature and IHDR), without reading the rest:
    /// for listing many files. nil when they are not a PNG's.
    public static func size(ofHeader head: [UInt8]) -> (width: Int, height: Int)? {
        guard head.count >= 24, head.prefix(8).elementsEqual([137, 80, 78, 71, 13, 10, 26, 10]), head[12..<16].elementsEqual(Array("IHDR".utf8)) else { return nil }
        func be32(_ at: Int) -> Int { head[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (be32(16), be32(20))
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
    public static func encode(_ image: RGBAImage, scale: Int = 1, compressionLevel: Int = 6, filters: Int32 = 0) throws(ImagingError) -> [UInt8] {
        let pixelsPerMetre = UInt32(saturating: Double(72 * scale) / 0.0254, rounded: .toNearestOrAwayFromZero)
        var out: UnsafeMutablePointer<UInt8>?
        var size = 0
        var error = [CChar](repeating: 0, count: Int(SHIM_ERR_LEN))
        guard shim_png_encode(image.pixels, Int32(image.width), Int32(image.height), Int32(compressionLevel),
                              filters, pixelsPerMetre, &out, &size, &error) == 0 else {
            throw .encodingFailed(errorText(error))
        }
        return takeShimBuffer(out, size)
    }

    /// An opaque image straight from cairo's ARGB32 rows (B, G, R, A in memory on little-endian
    /// machines; premultiplying changes nothing when alpha is 255), written as RGB by the fast
    /// encoder in png_opaque.c: general-purpose deflate was the largest cost of a gallery.
    public static func encodeOpaqueBGRA(_ rows: UnsafePointer<UInt8>, width: Int, height: Int, stride: Int, scale: Int = 1) throws(ImagingError) -> [UInt8] {
        let pixelsPerMetre = UInt32(saturating: Double(72 * scale) / 0.0254, rounded: .toNearestOrAwayFromZero)
        var out: UnsafeMutablePointer<UInt8>?
        var size = 0
        var error = [CChar](repeating: 0, count: Int(SHIM_ERR_LEN))
        guard shim_png_encode_opaque(rows, Int32(width), Int32(height), stride, pixelsPerMetre, &out, &size, &error) == 0 else {
            throw .encodingFailed(errorText(error))
        }
        return takeShimBuffer(out, size)
    }
}
