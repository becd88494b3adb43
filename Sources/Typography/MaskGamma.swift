internal import CPango
import Checked
import Foundation

/// How Skia makes a glyph's coverage look on screen: the coverage is raised by a contrast that
/// fades as the text gets lighter, then corrected so that blending in sRGB gives what blending
/// in a space of the given gamma would (Skia's mask gamma, with Chromium's Linux settings). The
/// correction depends on the text's luminance, in eight levels, as Skia keeps it. Measured on 16
/// text-heavy fixtures against Chromium's pictures: gamma 1.2 with contrast 0.2 (Chromium's Linux
/// values) is closer on every one than plain coverage (4% less difference in all), and than 1.0,
/// 1.4 or 2.2 and contrast 0, 0.1, 0.3 or 0.5.
enum MaskGamma {
    static let levels = 8
    static let gamma = 1.2
    static let contrast = 0.2

    /// The luminance level of a text colour (0 black … levels - 1 white).
    static func level(of color: RGBA) -> Int {
        let luminance = 0.3 * color.r + 0.59 * color.g + 0.11 * color.b
        return Int(saturating: min(max(luminance, 0), 1) * Double(levels - 1), rounded: .toNearestOrAwayFromZero)
    }

    struct Table {
        var values: [UInt8]

        func apply(to surface: OpaquePointer) {
            guard let data = cairo_image_surface_get_data(surface) else { return }
            let stride = Int(cairo_image_surface_get_stride(surface)), height = Int(cairo_image_surface_get_height(surface))
            for i in 0..<(stride * height) { data[i] = values[Int(data[i])] }
        }
    }

    private static let tables: [Table] = (0..<levels).map { table(luminance: Double($0) / Double(levels - 1)) }

    static func table(level: Int) -> Table { tables[min(max(level, 0), levels - 1)] }

    /// For text of luminance `src` over its guessed opposite: the coverage that, blended in sRGB,
    /// gives the blend in linear-ish light that `gamma` describes.
    private static func table(luminance src: Double) -> Table {
        let dst = 1 - src
        let linearSource = pow(src, gamma), linearDestination = pow(dst, gamma)
        let adjusted = contrast * linearDestination
        let values = (0..<256).map { i -> UInt8 in
            let raw = Double(i) / 255
            let coverage = raw + (1 - raw) * adjusted * raw
            guard abs(src - dst) >= 1.0 / 256 else { return UInt8(saturating: coverage * 255, rounded: .toNearestOrAwayFromZero) }
            let out = pow(linearSource * coverage + (1 - coverage) * linearDestination, 1 / gamma)
            return UInt8(saturating: min(max((out - dst) / (src - dst), 0), 1) * 255, rounded: .toNearestOrAwayFromZero)
        }
        return Table(values: values)
    }
}
