/// Separable resampling with a tent filter widened to the scale factor when shrinking, so a
/// 6000-pixel photo averages every source pixel into its thumbnail instead of skipping most of
/// them (which is what aliases). Works on premultiplied values so transparent edges stay clean.
public enum Resampler {
    /// A rectangle in source pixels; may be fractional.
    public struct Rect: Sendable, Equatable {
        public var x, y, width, height: Double
        public init(x: Double, y: Double, width: Double, height: Double) {
            self.x = x; self.y = y; self.width = width; self.height = height
        }
    }

    public static func resample(_ image: RGBAImage, from rect: Rect, toWidth width: Int, height: Int) -> RGBAImage {
        precondition(width > 0 && height > 0 && rect.width > 0 && rect.height > 0)
        let columns = weights(count: width, start: rect.x, extent: rect.width, limit: image.width)
        let rows = weights(count: height, start: rect.y, extent: rect.height, limit: image.height)
        let firstRow = rows.map(\.first).min()!
        let lastRow = rows.map { $0.first + $0.weights.count - 1 }.max()!

        // Horizontal pass: only the source rows the vertical pass will read.
        let bandHeight = lastRow - firstRow + 1
        var band = [Float](repeating: 0, count: bandHeight * width * 4)
        image.pixels.withUnsafeBufferPointer { src in
            band.withUnsafeMutableBufferPointer { dst in
                for row in 0..<bandHeight {
                    let srcRow = (firstRow + row) * image.width * 4
                    for (x, column) in columns.enumerated() {
                        var r: Float = 0, g: Float = 0, b: Float = 0, a: Float = 0
                        for (k, weight) in column.weights.enumerated() {
                            let i = srcRow + (column.first + k) * 4
                            let alpha = Float(src[i + 3]) * weight
                            r += Float(src[i]) * alpha; g += Float(src[i + 1]) * alpha; b += Float(src[i + 2]) * alpha
                            a += alpha
                        }
                        let o = (row * width + x) * 4
                        dst[o] = r; dst[o + 1] = g; dst[o + 2] = b; dst[o + 3] = a
                    }
                }
            }
        }

        // Vertical pass, then back to straight alpha.
        var out = [UInt8](repeating: 0, count: width * height * 4)
        band.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for (y, row) in rows.enumerated() {
                    for x in 0..<width {
                        var r: Float = 0, g: Float = 0, b: Float = 0, a: Float = 0
                        for (k, weight) in row.weights.enumerated() {
                            let i = ((row.first - firstRow + k) * width + x) * 4
                            r += src[i] * weight; g += src[i + 1] * weight; b += src[i + 2] * weight; a += src[i + 3] * weight
                        }
                        let o = (y * width + x) * 4
                        if a > 0.5 {
                            dst[o] = clamp(r / a); dst[o + 1] = clamp(g / a); dst[o + 2] = clamp(b / a)
                        }
                        dst[o + 3] = clamp(a)
                    }
                }
            }
        }
        return RGBAImage(width: width, height: height, pixels: out)
    }

    private struct Taps { var first: Int; var weights: [Float] }

    /// For each output pixel, the source pixels it reads and their normalized weights.
    private static func weights(count: Int, start: Double, extent: Double, limit: Int) -> [Taps] {
        let scale = Double(count) / extent
        let radius = max(1, 1 / scale)
        return (0..<count).map { i in
            let center = start + (Double(i) + 0.5) / scale
            let lo = max(0, Int((center - radius).rounded(.down)))
            let hi = min(limit - 1, Int((center + radius).rounded(.up)))
            var taps = [Float]()
            for j in lo...max(lo, hi) {
                taps.append(Float(max(0, 1 - abs(Double(j) + 0.5 - center) / radius)))
            }
            let sum = taps.reduce(0, +)
            if sum > 0 { taps = taps.map { $0 / sum } } else { taps = [1] + Array(repeating: 0, count: taps.count - 1) }
            return Taps(first: lo, weights: taps)
        }
    }

    @inline(__always) private static func clamp(_ v: Float) -> UInt8 { UInt8(max(0, min(255, v.rounded()))) }
}
