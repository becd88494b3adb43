import CShim

/// A decoded image: 8-bit straight-alpha RGBA, rows top to bottom, no padding.
public struct RGBAImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public var pixels: [UInt8]

    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height * 4, "pixel buffer does not match \(width)x\(height)")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// A solid image, handy for placeholders and tests.
    public init(width: Int, height: Int, filledWith rgba: (UInt8, UInt8, UInt8, UInt8)) {
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for i in stride(from: 0, to: pixels.count, by: 4) {
            pixels[i] = rgba.0; pixels[i + 1] = rgba.1; pixels[i + 2] = rgba.2; pixels[i + 3] = rgba.3
        }
        self.init(width: width, height: height, pixels: pixels)
    }

    public func pixel(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        let i = (y * width + x) * 4
        return (pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
    }
}

/// EXIF orientation (TIFF tag 0x0112): how the stored pixels must be turned to be upright.
public enum Orientation: Int, Sendable {
    case up = 1, upMirrored, down, downMirrored, leftMirrored, right, rightMirrored, left

    /// Orientations 5–8 store the image on its side.
    public var swapsAxes: Bool { rawValue >= 5 }

    /// The upright image.
    public func apply(to image: RGBAImage) -> RGBAImage {
        if self == .up { return image }
        let (w, h) = (image.width, image.height)
        let (ow, oh) = swapsAxes ? (h, w) : (w, h)
        var out = [UInt8](repeating: 0, count: image.pixels.count)
        image.pixels.withUnsafeBytes { src in
            out.withUnsafeMutableBytes { dst in
                let s = src.bindMemory(to: UInt32.self), d = dst.bindMemory(to: UInt32.self)
                for y in 0..<oh {
                    for x in 0..<ow {
                        let (sx, sy): (Int, Int)
                        switch self {
                        case .up: (sx, sy) = (x, y)
                        case .upMirrored: (sx, sy) = (w - 1 - x, y)
                        case .down: (sx, sy) = (w - 1 - x, h - 1 - y)
                        case .downMirrored: (sx, sy) = (x, h - 1 - y)
                        case .leftMirrored: (sx, sy) = (y, x)
                        case .right: (sx, sy) = (y, h - 1 - x)
                        case .rightMirrored: (sx, sy) = (w - 1 - y, h - 1 - x)
                        case .left: (sx, sy) = (w - 1 - y, x)
                        }
                        d[y * ow + x] = s[sy * w + sx]
                    }
                }
            }
        }
        return RGBAImage(width: ow, height: oh, pixels: out)
    }
}

extension RGBAImage {
    /// From cairo's premultiplied native-endian ARGB32 rows.
    public init(argb32: [UInt8], width: Int, height: Int, stride: Int) {
        var rgba = [UInt8](repeating: 0, count: width * height * 4)
        rgba.withUnsafeMutableBufferPointer { out in
            shim_argb32_to_rgba(argb32, Int32(width), Int32(height), Int32(stride), out.baseAddress)
        }
        self.init(width: width, height: height, pixels: rgba)
    }

    /// To cairo's premultiplied native-endian ARGB32, rows `stride` bytes apart.
    public func argb32(stride: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: stride * height)
        out.withUnsafeMutableBufferPointer { buffer in
            shim_rgba_to_argb32(pixels, Int32(width), Int32(height), buffer.baseAddress, Int32(stride))
        }
        return out
    }
}
