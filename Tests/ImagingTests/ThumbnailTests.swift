import Testing
import Imaging

struct ThumbnailTests {
    @Test func fillCropsTheCentreAndFitKeepsTheAspect() throws {
        let data = try PNGCodec.encode(quadrants(width: 200, height: 100))
        let fill = try Thumbnailer.thumbnail(data, width: 50, height: 50, fit: .fill)
        #expect(fill.width == 50 && fill.height == 50)
        #expect(corners(fill) == [.red, .green, .blue, .white])
        let fit = try Thumbnailer.thumbnail(data, width: 50, height: 50, fit: .fit)
        #expect(fit.width == 50 && fit.height == 25)
    }

    @Test func clippingRectSelectsAQuadrant() throws {
        let data = try PNGCodec.encode(quadrants(width: 200, height: 100))
        let clip = Thumbnailer.ClippingRect(x: 0.5, y: 0.5, width: 0.5, height: 0.5)
        let thumb = try Thumbnailer.thumbnail(data, width: 20, height: 10, clip: clip)
        #expect(corners(thumb) == [.white, .white, .white, .white])
        #expect(throws: ImagingError.self) {
            try Thumbnailer.thumbnail(data, width: 20, height: 10, clip: .init(x: 2, y: 0, width: 1, height: 1))
        }
    }

    @Test func downscalingAveragesInsteadOfAliasing() throws {
        // One-pixel black and white stripes average to grey; point sampling would give black or white.
        let w = 600, h = 40
        var px = [UInt8](repeating: 255, count: w * h * 4)
        for y in 0..<h { for x in stride(from: 0, to: w, by: 2) { let i = (y * w + x) * 4; px[i] = 0; px[i + 1] = 0; px[i + 2] = 0 } }
        let thumb = Resampler.resample(RGBAImage(width: w, height: h, pixels: px), from: .init(x: 0, y: 0, width: Double(w), height: Double(h)), toWidth: 37, height: 4)
        for x in 0..<37 {
            #expect(abs(Int(thumb.pixel(x: x, y: 2).r) - 128) <= 8, "column \(x): \(thumb.pixel(x: x, y: 2).r)")
            #expect(thumb.pixel(x: x, y: 2).a == 255, "opaque stays opaque")
        }
    }

    @Test func halfTransparentEdgesKeepTheirColour() throws {
        // Left half red at alpha 128, right half transparent black. Premultiplied averaging keeps
        // the edge pure red with less alpha; straight averaging would darken it towards black.
        let (w, h) = (16, 4)
        var px = [UInt8](repeating: 0, count: w * h * 4)
        for y in 0..<h { for x in 0..<8 { let i = (y * w + x) * 4; px[i] = 255; px[i + 3] = 128 } }
        let out = Resampler.resample(RGBAImage(width: w, height: h, pixels: px), from: .init(x: 0, y: 0, width: 16, height: 4), toWidth: 4, height: 1)
        #expect(out.pixel(x: 0, y: 0) == (255, 0, 0, 128))
        let edge = out.pixel(x: 1, y: 0)
        #expect(edge.r == 255 && edge.g == 0 && edge.a > 0 && edge.a < 128, "edge: \(edge)")
        #expect(out.pixel(x: 3, y: 0).a == 0)
    }

    @Test func largeJPEGUsesDCTScaling() throws {
        let data = try JPEGCodec.encode(quadrants(width: 1600, height: 1200))
        let thumb = try Thumbnailer.thumbnail(data, width: 120, height: 120)
        #expect(thumb.width == 120 && corners(thumb) == [.red, .green, .blue, .white])
    }

    @Test func pngRoundTripIsDeterministicAndCarriesScale() throws {
        let image = quadrants(width: 30, height: 20)
        let a = try PNGCodec.encode(image, scale: 3), b = try PNGCodec.encode(image, scale: 3)
        #expect(a == b)
        #expect(try PNGCodec.decode(a) == image)
        let text = String(decoding: a, as: UTF8.self)
        #expect(text.contains("pHYs") && !text.contains("tIME"))
        #expect(try PNGCodec.decode(PNGCodec.encode(image, compressionLevel: 1)) == image)
    }

    /// cairo's B, G, R, A rows of an opaque page, written by the fast encoder: the same pixels back
    /// through libpng, the scale kept, the same bytes every time, a stride wider than the row.
    @Test func opaqueBGRAEncodesTheSamePixels() throws {
        let image = quadrants(width: 30, height: 20)
        let stride = 30 * 4 + 8
        var bgra = [UInt8](repeating: 0xEE, count: stride * 20)
        for y in 0..<20 { for x in 0..<30 {
            let p = image.pixel(x: x, y: y), i = y * stride + x * 4
            bgra[i] = p.b; bgra[i + 1] = p.g; bgra[i + 2] = p.r; bgra[i + 3] = 255
        } }
        let a = try PNGCodec.encodeOpaqueBGRA(bgra, width: 30, height: 20, stride: stride, scale: 3)
        let b = try PNGCodec.encodeOpaqueBGRA(bgra, width: 30, height: 20, stride: stride, scale: 3)
        #expect(a == b && String(decoding: a, as: UTF8.self).contains("pHYs"))
        let back = try PNGCodec.decode(a)
        #expect(back.width == 30 && back.height == 20)
        #expect((0..<20).allSatisfy { y in (0..<30).allSatisfy { x in
            let p = image.pixel(x: x, y: y), q = back.pixel(x: x, y: y)
            return (p.r, p.g, p.b, UInt8(255)) == (q.r, q.g, q.b, q.a)
        } })
    }

    /// The fast encoder on what stresses it, each read back by libpng: noise (all literals, no
    /// runs), flat colour (Up rows), runs of zeros of every length around deflate's 258-byte
    /// match limit, one-pixel-wide and one-row images, and an image of several strips (blocks).
    @Test func opaqueEncoderRoundTripsHardPatterns() throws {
        var seed: UInt32 = 7
        func noise() -> UInt8 { seed = seed &* 1_664_525 &+ 1_013_904_223; return UInt8(truncatingIfNeeded: seed >> 24) }
        typealias Pattern = (name: String, width: Int, height: Int, pixel: (Int, Int) -> (UInt8, UInt8, UInt8))
        let patterns: [Pattern] = [
            ("noise", 97, 61, { _, _ in (noise(), noise(), noise()) }),
            ("flat", 200, 300, { _, _ in (211, 217, 228) }),
            ("runs", 700, 40, { x, y in x % (y * 17 + 2) == 0 ? (0, 0, 0) : (9, 9, 9) }),
            ("gradient", 1300, 420, { x, y in (UInt8(x & 255), UInt8(y & 255), UInt8((x + y) & 255)) }),
            ("column", 1, 900, { _, y in (UInt8(y & 255), 0, 255) }),
            ("row", 3000, 1, { x, _ in (UInt8(x / 12 & 255), 7, 7) }),
        ]
        for p in patterns {
            var bgra = [UInt8](repeating: 0, count: p.width * p.height * 4)
            var expected = [UInt8](repeating: 255, count: p.width * p.height * 4)
            for y in 0..<p.height { for x in 0..<p.width {
                let (r, g, b) = p.pixel(x, y), i = (y * p.width + x) * 4
                bgra[i] = b; bgra[i + 1] = g; bgra[i + 2] = r; bgra[i + 3] = 255
                expected[i] = r; expected[i + 1] = g; expected[i + 2] = b
            } }
            let png = try PNGCodec.encodeOpaqueBGRA(bgra, width: p.width, height: p.height, stride: p.width * 4)
            #expect(try PNGCodec.decode(png).pixels == expected, "\(p.name)")
            if p.name == "flat" { #expect(png.count < 2_000, "flat colour compresses: \(png.count) bytes") }
        }
    }

    /// To cairo's premultiplied ARGB32: an opaque row (the fast path) and a translucent one.
    @Test func argb32PremultipliesTranslucentRowsOnly() {
        let image = RGBAImage(width: 3, height: 2, pixels: [10, 20, 30, 255, 200, 100, 0, 255, 1, 2, 3, 255,
                                                            200, 100, 50, 128, 255, 255, 255, 0, 90, 60, 30, 255])
        let words = image.argb32(stride: 16).withUnsafeBytes { Array($0.bindMemory(to: UInt32.self)) }
        #expect(words == [0xFF0A_141E, 0xFFC8_6400, 0xFF01_0203, 0,
                          0x8064_3219, 0x0000_0000, 0xFF5A_3C1E, 0])
    }

    @Test func refusesTruncatedPNG() throws {
        let data = try PNGCodec.encode(quadrants(width: 64, height: 64))
        for cut in [9, 20, 33, 60, data.count / 2, data.count - 13] {
            #expect(throws: ImagingError.self, "cut at \(cut)") { try PNGCodec.decode(Array(data.prefix(cut))) }
        }
    }
}
