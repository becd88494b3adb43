internal import CPango
import Checked
import Foundation
import Layout
import Styling

// Gradients and shadows, the parts of paint cairo has no single call for.

/// The CSS gradient line (Images 3 §3.1.1): through the box centre at `angle`, long enough
/// that the corners get the first and last colours.
func paintGradient(_ g: LinearGradient, _ cr: OpaquePointer, width w: Double, height h: Double, radii: [Double]) {
    let a = g.angle * Double.pi / 180
    let dx = sin(a), dy = -cos(a)
    let length = abs(w * dx) + abs(h * dy)
    let pattern = cairo_pattern_create_linear(w / 2 - dx * length / 2, h / 2 - dy * length / 2, w / 2 + dx * length / 2, h / 2 + dy * length / 2)
    for stop in g.resolvedStops {
        cairo_pattern_add_color_stop_rgba(pattern, stop.position, stop.color.r, stop.color.g, stop.color.b, stop.color.a)
    }
    roundedRect(cr, 0, 0, w, h, radii)
    cairo_set_source(cr, pattern)
    cairo_fill(cr)
    cairo_pattern_destroy(pattern)
}

/// Outer box shadows (Backgrounds 3 §7.1), the first on top: the spread shape blurred with a
/// Gaussian of σ = blur / 2 (three box blurs), drawn only outside the border box.
func paintShadows(_ box: SceneBox, _ cr: OpaquePointer, scale: Double) {
    let (w, h) = (box.frame.width, box.frame.height)
    for shadow in box.shadows.reversed() where shadow.color.a > 0 {
        let sigma = shadow.blur / 2
        let pad = (3 * sigma).rounded(.up)
        let sw = w + 2 * shadow.spread, sh = h + 2 * shadow.spread
        guard sw > 0, sh > 0 else { continue }
        // A mask of more than a few megapixels (a huge blur or spread) is blurred at a coarser
        // resolution and scaled up, as Skia does: a wide blur has no fine detail to lose.
        let fullArea = (sw + 2 * pad) * scale * (sh + 2 * pad) * scale
        let maskScale = scale / max(1, (fullArea / ShadowMasks.maxPixels).squareRoot())
        let pw = Int32(saturating: (sw + 2 * pad) * maskScale, rounded: .up), ph = Int32(saturating: (sh + 2 * pad) * maskScale, rounded: .up)
        guard pw > 0, ph > 0 else { continue }
        let radii = box.radii.map { $0 > 0 ? max(0, $0 + shadow.spread) : 0 }
        // The same card casts the same shadow on every page: its blurred mask is made once.
        let key = "\(pw)x\(ph)|\(sw),\(sh),\(pad)|\(radii)|\(sigma)|\(maskScale)"
        let stride = Int(cairo_format_stride_for_width(CAIRO_FORMAT_A8, pw))
        let bytes = ShadowMasks.shared.mask(key) {
            guard let mask = cairo_image_surface_create(CAIRO_FORMAT_A8, pw, ph) else { return [] }
            defer { cairo_surface_destroy(mask) }
            let mcr = cairo_create(mask)!
            cairo_scale(mcr, maskScale, maskScale)
            roundedRect(mcr, pad, pad, sw, sh, radii)
            cairo_set_source_rgba(mcr, 0, 0, 0, 1)
            cairo_fill(mcr)
            cairo_destroy(mcr)
            cairo_surface_flush(mask)
            let data = cairo_image_surface_get_data(mask)!
            blurA8(data, width: Int(pw), height: Int(ph), stride: stride, sigma: sigma * maskScale)
            return Array(UnsafeBufferPointer(start: data, count: stride * Int(ph)))
        }
        guard bytes.count == stride * Int(ph) else { continue }
        bytes.withUnsafeBufferPointer { buffer in
            // cairo only reads a mask source: the cached bytes are lent, not copied.
            let mask = cairo_image_surface_create_for_data(UnsafeMutablePointer(mutating: buffer.baseAddress), CAIRO_FORMAT_A8, pw, ph, Int32(stride))!
            cairo_surface_set_device_scale(mask, maskScale, maskScale)
            cairo_save(cr)
            // Not under the box itself: clip to everything outside its border box.
            cairo_set_fill_rule(cr, CAIRO_FILL_RULE_EVEN_ODD)
            cairo_rectangle(cr, -10_000, -10_000, 20_000 + w, 20_000 + h)
            roundedRect(cr, 0, 0, w, h, box.radii)
            cairo_clip(cr)
            setColor(cr, shadow.color)
            cairo_mask_surface(cr, mask, shadow.x - shadow.spread - pad, shadow.y - shadow.spread - pad)
            cairo_restore(cr)
            cairo_surface_finish(mask)
            cairo_surface_destroy(mask)
        }
    }
}

/// Blurred shadow masks by shape, shared by every painter of the process (bounded; output
/// never depends on what is cached).
final class ShadowMasks: @unchecked Sendable {
    static let shared = ShadowMasks()
    /// The most pixels one mask is blurred at.
    static let maxPixels = 4_000_000.0
    private let lock = NSLock()
    private var masks: [String: [UInt8]] = [:]
    private var bytes = 0

    func mask(_ key: String, make: () -> [UInt8]) -> [UInt8] {
        if let known = lock.withLock({ masks[key] }) { return known }
        let made = make()
        lock.withLock {
            bytes += made.count
            if bytes > 64 << 20 { masks.removeAll(); bytes = made.count }
            masks[key] = made
        }
        return made
    }
}

/// Three box blurs approximate a Gaussian of `sigma` pixels (the widths from Kovesi's
/// "boxes for Gauss"), horizontally then vertically, in place.
func blurA8(_ data: UnsafeMutablePointer<UInt8>, width: Int, height: Int, stride: Int, sigma: Double) {
    guard sigma > 0.5 else { return }
    let n = 3.0
    var lower = Int(saturating: (12 * sigma * sigma / n + 1).squareRoot())
    if lower % 2 == 0 { lower -= 1 }
    let m = Int(saturating: (12 * sigma * sigma - n * Double(lower) * Double(lower) - 4 * n * Double(lower) - 3 * n) / (-4 * Double(lower) - 4), rounded: .toNearestOrAwayFromZero)
    let radii = (0..<3).map { ($0 < m ? lower : lower + 2) / 2 }
    var line = [Int](repeating: 0, count: max(width, height))
    for r in radii where r > 0 {
        let window = 2 * r + 1
        for y in 0..<height { // horizontal
            let row = data + y * stride
            for x in 0..<width { line[x] = Int(row[x]) }
            var sum = 0
            for x in -r...r { sum += x >= 0 && x < width ? line[x] : 0 }
            for x in 0..<width {
                row[x] = UInt8((sum + window / 2) / window)
                let add = x + r + 1, drop = x - r
                sum += (add < width ? line[add] : 0) - (drop >= 0 ? line[drop] : 0)
            }
        }
        for x in 0..<width { // vertical
            for y in 0..<height { line[y] = Int(data[y * stride + x]) }
            var sum = 0
            for y in -r...r { sum += y >= 0 && y < height ? line[y] : 0 }
            for y in 0..<height {
                data[y * stride + x] = UInt8((sum + window / 2) / window)
                let add = y + r + 1, drop = y - r
                sum += (add < height ? line[add] : 0) - (drop >= 0 ? line[drop] : 0)
            }
        }
    }
}
