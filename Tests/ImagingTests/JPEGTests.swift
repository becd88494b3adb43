import Testing
import Imaging

/// JPEGs made by the tests themselves through libjpeg's encoder: orientation, CMYK, progressive,
/// truncation, empty and hostile headers.
struct JPEGTests {
    static let upright = quadrants(width: 64, height: 32)

    /// The stored image for each EXIF orientation: which colours sit at its TL, TR, BL, BR corners
    /// when the upright picture is red, green / blue, white.
    static let stored: [(Orientation, [Named])] = [
        (.up, [.red, .green, .blue, .white]),
        (.upMirrored, [.green, .red, .white, .blue]),
        (.down, [.white, .blue, .green, .red]),
        (.downMirrored, [.blue, .white, .red, .green]),
        (.leftMirrored, [.red, .blue, .green, .white]),
        (.right, [.green, .white, .red, .blue]),
        (.rightMirrored, [.white, .green, .blue, .red]),
        (.left, [.blue, .red, .white, .green]),
    ]

    static func storedImage(_ cornerColours: [Named], sideways: Bool) -> RGBAImage {
        let (w, h) = sideways ? (32, 64) : (64, 32)
        let colour: [Named: (UInt8, UInt8, UInt8)] = [.red: (255, 0, 0), .green: (0, 255, 0), .blue: (0, 0, 255), .white: (255, 255, 255)]
        var px = [UInt8](repeating: 255, count: w * h * 4)
        for y in 0..<h {
            for x in 0..<w {
                let c = colour[cornerColours[(y < h / 2 ? 0 : 2) + (x < w / 2 ? 0 : 1)]]!
                let i = (y * w + x) * 4
                px[i] = c.0; px[i + 1] = c.1; px[i + 2] = c.2
            }
        }
        return RGBAImage(width: w, height: h, pixels: px)
    }

    @Test(arguments: 1...8)
    func appliesExifOrientation(_ tag: Int) throws {
        let (orientation, cornerColours) = Self.stored[tag - 1]
        var options = JPEGCodec.Options()
        options.orientation = orientation
        let data = try JPEGCodec.encode(Self.storedImage(cornerColours, sideways: orientation.swapsAxes), options: options)
        let source = try ImageSource(data)
        #expect(source.orientation == orientation)
        let image = try source.decodeUpright()
        #expect(image.width == 64 && image.height == 32, "orientation \(tag) gave \(image.width)x\(image.height)")
        #expect(corners(image) == [.red, .green, .blue, .white], "orientation \(tag)")
    }

    @Test(arguments: [false, true])
    func decodesCMYK(adobeInverted: Bool) throws {
        // Ink for a mid orange: C 0, M 50%, Y 100%, K 0 -> RGB about (255, 128, 0).
        let ink: [UInt8] = [0, 128, 255, 0]
        let stored = adobeInverted ? ink.map { 255 - $0 } : ink
        let pixels = (0..<(16 * 16)).flatMap { _ in stored }
        var options = JPEGCodec.Options()
        options.cmyk = true
        options.adobeInverted = adobeInverted
        let data = try JPEGCodec.encode(RGBAImage(width: 16, height: 16, pixels: pixels), options: options)
        #expect(try JPEGCodec.header(data).isCMYK)
        let p = try JPEGCodec.decode(data).0.pixel(x: 8, y: 8)
        #expect(abs(Int(p.r) - 255) <= 6 && abs(Int(p.g) - 127) <= 6 && abs(Int(p.b) - 0) <= 6, "got \(p)")
    }

    @Test func decodesProgressiveAndGrayscale() throws {
        var options = JPEGCodec.Options()
        options.progressive = true
        let progressive = try JPEGCodec.encode(Self.upright, options: options)
        #expect(try JPEGCodec.header(progressive).progressive)
        #expect(corners(try JPEGCodec.decode(progressive).0) == [.red, .green, .blue, .white])

        options = JPEGCodec.Options()
        options.grayscale = true
        let gray = try JPEGCodec.decode(JPEGCodec.encode(RGBAImage(width: 8, height: 8, filledWith: (200, 200, 200, 255)), options: options)).0
        let p = gray.pixel(x: 4, y: 4)
        #expect(p.r == p.g && p.g == p.b && abs(Int(p.r) - 200) <= 2 && p.a == 255)
    }

    @Test func scalesInTheDCTDomain() throws {
        let data = try JPEGCodec.encode(quadrants(width: 800, height: 600))
        for reduction in [1, 2, 4, 8] {
            let (image, _) = try JPEGCodec.decode(data, reduction: reduction)
            #expect(image.width == (800 + reduction - 1) / reduction && image.height == (600 + reduction - 1) / reduction)
        }
    }

    @Test(arguments: [false, true])
    func truncatedFilesAreErrorsInStrictMode(progressive: Bool) throws {
        var options = JPEGCodec.Options()
        options.progressive = progressive
        let data = try JPEGCodec.encode(quadrants(width: 256, height: 256), options: options)
        for cut in 1...10 {
            let truncated = Array(data.prefix(data.count * cut / 11))
            #expect(throws: ImagingError.self, "cut at \(truncated.count) of \(data.count)") { try JPEGCodec.decode(truncated) }
            // Lenient mode pads with grey instead, for callers that ask for it.
            var lenient = ImageLimits()
            lenient.strict = false
            if cut > 3 { _ = try? JPEGCodec.decode(truncated, limits: lenient) }
        }
    }

    @Test func refusesEmptyAndGarbage() {
        #expect(throws: ImagingError.empty) { try JPEGCodec.decode([]) }
        #expect(throws: ImagingError.unrecognizedFormat) { try ImageSource([1, 2, 3, 4, 5, 6, 7, 8]) }
        #expect(throws: ImagingError.self) { try JPEGCodec.decode([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10]) }
    }

    @Test func refusesHugeHeaderBeforeAllocating() throws {
        // A real 8x8 JPEG with its SOF0 dimensions rewritten to 60000x60000.
        var data = try JPEGCodec.encode(RGBAImage(width: 8, height: 8, filledWith: (10, 20, 30, 255)))
        let sof = try #require((0..<data.count - 1).first { data[$0] == 0xFF && data[$0 + 1] == 0xC0 })
        for (offset, byte) in [(5, 0xEA), (6, 0x60), (7, 0xEA), (8, 0x60)] { data[sof + offset] = UInt8(byte) }
        do {
            _ = try Thumbnailer.thumbnail(data, width: 120, height: 120)
            Issue.record("a 60000x60000 JPEG was accepted")
        } catch {
            guard case .overLimit(let why) = error else { Issue.record("expected overLimit, got \(error)"); return }
            #expect(why.contains("60000x60000"))
        }
    }
}
