import Checked
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
        let columns = Taps(count: width, start: rect.x, extent: rect.width, limit: image.width)
        let rows = Taps(count: height, start: rect.y, extent: rect.height, limit: image.height)
        let firstRow = rows.first.min()!
        let lastRow = zip(rows.first, rows.count).map { $0 + $1 - 1 }.max()!

        // Horizontal pass over only the source rows the vertical pass reads, premultiplied.
        let bandHeight = lastRow - firstRow + 1
        var band = [Float](repeating: 0, count: bandHeight * width * 4)
        image.pixels.withUnsafeBufferPointer { src in
            band.withUnsafeMutableBufferPointer { dst in
                columns.weights.withUnsafeBufferPointer { weights in
                    for row in 0..<bandHeight {
                        let srcRow = (firstRow + row) * image.width * 4
                        var o = row * width * 4
                        for x in 0..<width {
                            var r: Float = 0, g: Float = 0, b: Float = 0, a: Float = 0
                            var i = srcRow + columns.first[x] * 4
                            var w = columns.offset[x]
                            for _ in 0..<columns.count[x] {
                                let alpha = Float(src[i + 3]) * weights[w]
                                r += Float(src[i]) * alpha; g += Float(src[i + 1]) * alpha; b += Float(src[i + 2]) * alpha
                                a += alpha
                                i += 4; w += 1
                            }
                            dst[o] = r; dst[o + 1] = g; dst[o + 2] = b; dst[o + 3] = a
                            o += 4
                        }
                    }
                }
            }
        }

        // Vertical pass, then back to straight alpha.
        var out = [UInt8](repeating: 0, count: width * height * 4)
        band.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                rows.weights.withUnsafeBufferPointer { weights in
                    let rowStride = width * 4
                    for y in 0..<height {
                        let base = (rows.first[y] - firstRow) * rowStride
                        for x in 0..<width {
                            var r: Float = 0, g: Float = 0, b: Float = 0, a: Float = 0
                            var i = base + x * 4
                            var w = rows.offset[y]
                            for _ in 0..<rows.count[y] {
                                let k = weights[w]
                                r += src[i] * k; g += src[i + 1] * k; b += src[i + 2] * k; a += src[i + 3] * k
                                i += rowStride; w += 1
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
        }
        return RGBAImage(width: width, height: height, pixels: out)
    }

    /// For each output pixel, the source pixels it reads (`first`, `count`) and their normalized
    /// weights (at `offset` in the flat `weights`).
    private struct Taps {
        var first: [Int] = [], count: [Int] = [], offset: [Int] = []
        var weights: [Float] = []

        init(count n: Int, start: Double, extent: Double, limit: Int) {
            let scale = Double(n) / extent
            let radius = max(1, 1 / scale)
            for i in 0..<n {
                let center = start + (Double(i) + 0.5) / scale
                let lo = max(0, min(limit - 1, Int(saturating: center - radius, rounded: .down)))
                let hi = max(lo, min(limit - 1, Int(saturating: center + radius, rounded: .up)))
                let taps = (lo...hi).map { Float(max(0, 1 - abs(Double($0) + 0.5 - center) / radius)) }
                let sum = taps.reduce(0, +)
                first.append(lo); count.append(taps.count); offset.append(weights.count)
                weights += sum > 0 ? taps.map { $0 / sum } : [1] + Array(repeating: 0, count: taps.count - 1)
            }
        }
    }

    /// Round half up by truncation: `rounded()` calls into libm per channel and showed in profiles.
    @inline(__always) private static func clamp(_ v: Float) -> UInt8 { UInt8(max(0, min(255, v)) + 0.5) }
}
