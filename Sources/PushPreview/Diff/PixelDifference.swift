import Checked
import Foundation
import Imaging

/// Two mock-ups compared pixel by pixel. Pixels count as different by YIQ colour distance (the
/// metric pixelmatch uses) above a threshold, so anti-aliasing noise is not a change; sizes that
/// differ compare over the larger canvas, where a pixel only one side has is a difference.
struct PixelDifference {
    /// Share of pixels that differ, 0...1.
    var share: Double
    /// When some differ: the after image faded to grey with the differing pixels red, as opaque
    /// B, G, R, A rows (what the mock-ups' own PNG encoder takes), `width` × `height`.
    var highlight: (bgra: [UInt8], width: Int, height: Int)?

    /// `threshold` 0...1: how far apart two colours must be to count (0.1 in pixelmatch).
    static func compare(_ a: RGBAImage, _ b: RGBAImage, threshold: Double) -> PixelDifference {
        let w = max(a.width, b.width), h = max(a.height, b.height)
        guard w > 0, h > 0 else { return PixelDifference(share: 0, highlight: nil) }
        let limit = 35215 * threshold * threshold
        var out = [UInt8](repeating: 255, count: w * h * 4)
        var differing = 0
        a.pixels.withUnsafeBufferPointer { pa in
            b.pixels.withUnsafeBufferPointer { pb in
                out.withUnsafeMutableBufferPointer { po in
                    guard let pixelsA = pa.baseAddress, let pixelsB = pb.baseAddress, let o = po.baseAddress else { return }
                    // Mock-ups are mostly flat colour: the faded value of the last pixel is kept.
                    var last: (UInt32, UInt8) = (0, faded(0, 0, 0, 0))
                    for y in 0..<h {
                        let rowA = y < a.height ? pixelsA + y * a.width * 4 : nil
                        let rowB = y < b.height ? pixelsB + y * b.width * 4 : nil
                        let target = o + y * w * 4
                        // Identical rows (most of them) need no colour distance.
                        let sameRow = a.width == b.width && rowA != nil && rowB != nil && memcmp(rowA!, rowB!, w * 4) == 0
                        for x in 0..<w {
                            let t = target + x * 4
                            if let rowB, x < b.width {
                                let q = rowB + x * 4
                                var kept = sameRow
                                if !kept, let rowA, x < a.width {
                                    let p = rowA + x * 4
                                    kept = (p[0] == q[0] && p[1] == q[1] && p[2] == q[2] && p[3] == q[3]) || delta(p, q) <= limit
                                }
                                if kept {
                                    let packed = UInt32(q[0]) | UInt32(q[1]) << 8 | UInt32(q[2]) << 16 | UInt32(q[3]) << 24
                                    if packed != last.0 { last = (packed, faded(q[0], q[1], q[2], q[3])) }
                                    t[0] = last.1; t[1] = last.1; t[2] = last.1
                                    continue
                                }
                            }
                            differing += 1
                            t[0] = 0; t[1] = 0; t[2] = 255  // B, G, R: red
                        }
                    }
                }
            }
        }
        guard differing > 0 else { return PixelDifference(share: 0, highlight: nil) }
        return PixelDifference(share: Double(differing) / Double(w * h), highlight: (out, w, h))
    }

    /// A pixel on white, to grey, faded to 30% of its darkness.
    static func faded(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8) -> UInt8 {
        let (r, g, b) = onWhite(r, g, b, a)
        let grey = 0.299 * r + 0.587 * g + 0.114 * b
        return UInt8(saturating: 255 - (255 - grey) * 0.3, rounded: .toNearestOrAwayFromZero)
    }

    static func onWhite(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8) -> (Double, Double, Double) {
        let alpha = Double(a) / 255
        return (255 + (Double(r) - 255) * alpha, 255 + (Double(g) - 255) * alpha, 255 + (Double(b) - 255) * alpha)
    }

    /// Squared YIQ distance of two R, G, B, A pixels blended on white (0...35215).
    static func delta(_ p: UnsafePointer<UInt8>, _ q: UnsafePointer<UInt8>) -> Double {
        let (r1, g1, b1) = onWhite(p[0], p[1], p[2], p[3]), (r2, g2, b2) = onWhite(q[0], q[1], q[2], q[3])
        let y = (0.29889531 * r1 + 0.58662247 * g1 + 0.11448223 * b1) - (0.29889531 * r2 + 0.58662247 * g2 + 0.11448223 * b2)
        let i = (0.59597799 * r1 - 0.27417610 * g1 - 0.32180189 * b1) - (0.59597799 * r2 - 0.27417610 * g2 - 0.32180189 * b2)
        let qq = (0.21147017 * r1 - 0.52261711 * g1 + 0.31114694 * b1) - (0.21147017 * r2 - 0.52261711 * g2 + 0.31114694 * b2)
        return 0.5053 * y * y + 0.299 * i * i + 0.1957 * qq * qq
    }
}
