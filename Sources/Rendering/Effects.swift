internal import CPango
import Checked
import Foundation
import Layout
import Styling

// Gradients and shadows, the parts of paint cairo has no single call for.

/// Fills the box with a gradient. A large radial one on the pixel grid (the wallpaper behind every
/// view of a device) is drawn once per process into a tile and copied from it after, hit or miss
/// alike, so what is kept never changes a byte: cairo takes milliseconds a megapixel for a radial
/// gradient (a linear one costs about what the copy does).
func paintGradient(_ g: Gradient, _ cr: OpaquePointer, width w: Double, height h: Double, radii: [Double], shapes: [Double]?) {
    let pattern = gradientPattern(g, width: w, height: h)
    defer { cairo_pattern_destroy(pattern) }
    roundedRect(cr, 0, 0, w, h, radii, shapes: shapes)
    var m = cairo_matrix_t()
    cairo_get_matrix(cr, &m)
    var x = 0.0, y = 0.0
    cairo_user_to_device(cr, &x, &y)
    let tw = Int(saturating: w * m.xx, rounded: .up), th = Int(saturating: h * m.yy, rounded: .up)
    // A tile the cache cannot keep (a quarter of its budget: a whole Lock Screen) is drawn directly.
    guard case .radial = g.shape, m.xy == 0, m.yx == 0, m.xx == m.yy, m.xx > 0, x == x.rounded(), y == y.rounded(),
          (250_000...(gradientTileMegabytes << 20) / 16).contains(tw * th) else {
        cairo_set_source(cr, pattern)
        cairo_fill(cr)
        return
    }
    let stride = Int(cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, Int32(tw)))
    let tile = gradientTiles.value("\(g)|\(w)x\(h)@\(m.xx)") {
        var pixels = [UInt8](repeating: 0, count: stride * th)
        pixels.withUnsafeMutableBufferPointer { buffer in
            let surface = cairo_image_surface_create_for_data(buffer.baseAddress!, CAIRO_FORMAT_ARGB32, Int32(tw), Int32(th), Int32(stride))
            let tcr = cairo_create(surface)
            cairo_scale(tcr, m.xx, m.yy)
            cairo_set_source(tcr, pattern)
            cairo_paint(tcr)
            cairo_destroy(tcr)
            cairo_surface_finish(surface)
            cairo_surface_destroy(surface)
        }
        return pixels
    }
    tile.withUnsafeBufferPointer { buffer in
        // cairo only reads a source: the kept bytes are lent, not copied.
        let surface = cairo_image_surface_create_for_data(UnsafeMutablePointer(mutating: buffer.baseAddress!), CAIRO_FORMAT_ARGB32, Int32(tw), Int32(th), Int32(stride))
        cairo_save(cr)
        cairo_identity_matrix(cr)
        cairo_set_source_surface(cr, surface, x, y)
        cairo_fill(cr)
        cairo_restore(cr)
        cairo_surface_finish(surface)
        cairo_surface_destroy(surface)
    }
}

/// A gradient sized, placed and repeated by background-size, -position and -repeat, inside the
/// rounded border box.
func paintGradientTiles(_ g: Gradient, _ tile: (rect: Rect, repeats: Bool), _ cr: OpaquePointer, width w: Double, height h: Double, radii: [Double], shapes: [Double]?) {
    let t = tile.rect
    guard t.width >= 0.01, t.height >= 0.01 else { return }
    // Repeated: from the copy at or before the box's top-left corner to past its bottom-right.
    func starts(_ at: Double, _ size: Double, _ extent: Double) -> [Double] {
        guard tile.repeats else { return [at] }
        let first = at - (at / size).rounded(.up) * size
        let count = Int(saturating: ((extent - first) / size).rounded(.up))
        return count > 10_000 ? [at] : (0..<max(count, 1)).map { first + Double($0) * size }
    }
    let pattern = gradientPattern(g, width: t.width, height: t.height)
    defer { cairo_pattern_destroy(pattern) }
    cairo_save(cr)
    roundedRect(cr, 0, 0, w, h, radii, shapes: shapes)
    cairo_clip(cr)
    for y in starts(t.y, t.height, h) {
        for x in starts(t.x, t.width, w) {
            cairo_save(cr)
            cairo_translate(cr, x, y)
            cairo_rectangle(cr, 0, 0, t.width, t.height)
            cairo_set_source(cr, pattern)
            cairo_fill(cr)
            cairo_restore(cr)
        }
    }
    cairo_restore(cr)
}

/// Large radial gradients' tiles, by gradient, size and scale.
let gradientTiles = RasterCache<[UInt8]>(megabytes: gradientTileMegabytes) { $0.count }
let gradientTileMegabytes = 24

/// A gradient as a cairo pattern over a box of `w` × `h` (the caller destroys it). Linear: along
/// the CSS gradient line (Images 3 §3.1.1), through the centre at the angle, long enough that
/// the corners get the end colours. Radial: an ellipse (or circle) sized by its extent keyword
/// or lengths (§3.2.2), stretched from a circle.
func gradientPattern(_ g: Gradient, width w: Double, height h: Double) -> OpaquePointer {
    let pattern: OpaquePointer
    switch g.shape {
    case .linear(let angle):
        let a = angle * Double.pi / 180
        let dx = sin(a), dy = -cos(a)
        let length = abs(w * dx) + abs(h * dy)
        pattern = cairo_pattern_create_linear(w / 2 - dx * length / 2, h / 2 - dy * length / 2, w / 2 + dx * length / 2, h / 2 + dy * length / 2)
    case .radial(let circle, let size, let center):
        let cx = center[0].resolve(w) ?? w / 2, cy = center[1].resolve(h) ?? h / 2
        let (left, right, top, bottom) = (abs(cx), abs(w - cx), abs(cy), abs(h - cy))
        var (rx, ry): (Double, Double)
        switch size {
        case .closestSide: (rx, ry) = (min(left, right), min(top, bottom))
        case .farthestSide: (rx, ry) = (max(left, right), max(top, bottom))
        case .closestCorner: (rx, ry) = (min(left, right) * 2.0.squareRoot(), min(top, bottom) * 2.0.squareRoot())
        case .farthestCorner: (rx, ry) = (max(left, right) * 2.0.squareRoot(), max(top, bottom) * 2.0.squareRoot())
        case .explicit(let x, let y): (rx, ry) = (x.resolve(w) ?? 0, y.resolve(h) ?? 0)
        }
        if circle {
            switch size {
            case .closestSide: rx = min(left, right, top, bottom)
            case .farthestSide: rx = max(left, right, top, bottom)
            case .closestCorner: rx = min((left * left + top * top), (right * right + top * top), (left * left + bottom * bottom), (right * right + bottom * bottom)).squareRoot()
            case .farthestCorner: rx = max((left * left + top * top), (right * right + top * top), (left * left + bottom * bottom), (right * right + bottom * bottom)).squareRoot()
            case .explicit: break
            }
            ry = rx
        }
        rx = max(rx, 0.001); ry = max(ry, 0.001)
        pattern = cairo_pattern_create_radial(0, 0, 0, 0, 0, rx)
        var m = cairo_matrix_t()
        cairo_matrix_init_translate(&m, cx, cy)
        cairo_matrix_scale(&m, 1, ry / rx)
        cairo_matrix_invert(&m)
        cairo_pattern_set_matrix(pattern, &m)
    }
    for stop in g.resolvedStops {
        cairo_pattern_add_color_stop_rgba(pattern, stop.position, stop.color.r, stop.color.g, stop.color.b, stop.color.a)
    }
    return pattern
}

/// Draws `content` into a layer clipped to `bounds` grown by three standard deviations, blurs
/// the layer with a Gaussian of `sigma` points, and returns it as a pattern (the caller
/// destroys it): the one mechanism behind filter: blur(), text and inset shadows.
func blurredLayer(_ cr: OpaquePointer, bounds: Rect, sigma: Double, content: () -> Void) -> OpaquePointer {
    let pad = (3 * sigma).rounded(.up)
    cairo_save(cr)
    cairo_rectangle(cr, bounds.x - pad, bounds.y - pad, bounds.width + 2 * pad, bounds.height + 2 * pad)
    cairo_clip(cr)
    cairo_push_group(cr)
    content()
    let pattern = cairo_pop_group(cr)!
    cairo_restore(cr)
    var surface: OpaquePointer?
    if cairo_pattern_get_surface(pattern, &surface) == CAIRO_STATUS_SUCCESS, let surface, cairo_surface_get_type(surface) == CAIRO_SURFACE_TYPE_IMAGE {
        cairo_surface_flush(surface)
        var dx = sigma, dy = 0.0
        cairo_user_to_device_distance(cr, &dx, &dy)
        if let data = cairo_image_surface_get_data(surface) {
            boxBlur(data, width: Int(cairo_image_surface_get_width(surface)), height: Int(cairo_image_surface_get_height(surface)),
                    stride: Int(cairo_image_surface_get_stride(surface)), channels: 4, sigma: (dx * dx + dy * dy).squareRoot())
        }
        cairo_surface_mark_dirty(surface)
    }
    return pattern
}

/// `backdrop-filter`: what is already painted under the box's border box, blurred (its edges
/// repeated outwards, as Chromium does), toned (`brightness()`, `saturate()`) and painted back
/// inside the rounded box. The work is done on a grid `blurReduction` makes coarser for a wide
/// blur, cairo shrinking the backdrop (a box filter) and growing the result (bilinear), so a
/// glass platter costs about the same whatever its blur. The same backdrop under the same filter
/// (one wallpaper, device and appearance under every banner of a height) is filtered once per
/// process (`filteredBackdrop`).
func paintBackdrop(_ box: SceneBox, _ cr: OpaquePointer, sigma: Double, tone: BackdropTone) {
    guard sigma > 0 || !tone.isIdentity, let target = cairo_get_group_target(cr), cairo_surface_get_type(target) == CAIRO_SURFACE_TYPE_IMAGE,
          let source = cairo_image_surface_get_data(target) else { return }
    cairo_surface_flush(target)
    let (w, h) = (box.frame.width, box.frame.height)
    var offsetX = 0.0, offsetY = 0.0
    cairo_surface_get_device_offset(target, &offsetX, &offsetY)
    let corners = [(0.0, 0.0), (w, 0), (0, h), (w, h)].map { p -> (Double, Double) in
        var x = p.0, y = p.1
        cairo_user_to_device(cr, &x, &y)
        return (x + offsetX, y + offsetY)
    }
    let tw = Int(cairo_image_surface_get_width(target)), th = Int(cairo_image_surface_get_height(target)), ts = Int(cairo_image_surface_get_stride(target))
    let x0 = max(0, Int(saturating: corners.map(\.0).min()!, rounded: .down)), y0 = max(0, Int(saturating: corners.map(\.1).min()!, rounded: .down))
    let x1 = min(tw, Int(saturating: corners.map(\.0).max()!, rounded: .up)), y1 = min(th, Int(saturating: corners.map(\.1).max()!, rounded: .up))
    guard x1 > x0, y1 > y0 else { return }
    var dx = sigma, dy = 0.0
    cairo_user_to_device_distance(cr, &dx, &dy)
    let deviceSigma = (dx * dx + dy * dy).squareRoot()
    let factor = blurReduction(deviceSigma)
    let pad = Int(saturating: 3 * deviceSigma, rounded: .up)
    let bw = (x1 - x0 + 2 * pad + factor - 1) / factor, bh = (y1 - y0 + 2 * pad + factor - 1) / factor
    guard bw * bh <= 16_000_000 else { return }
    let stride = Int(cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, Int32(bw)))
    var pixels = [UInt8](repeating: 0, count: stride * bh)
    pixels.withUnsafeMutableBufferPointer { buffer in
        // The backdrop's own pixels, lent to cairo as a surface of their own (no device offset or
        // scale of the target's to undo), padded outwards and shrunk onto the coarser grid.
        let region = cairo_image_surface_create_for_data(source + y0 * ts + x0 * 4, CAIRO_FORMAT_ARGB32, Int32(x1 - x0), Int32(y1 - y0), Int32(ts))
        let grid = cairo_image_surface_create_for_data(buffer.baseAddress!, CAIRO_FORMAT_ARGB32, Int32(bw), Int32(bh), Int32(stride))
        let gcr = cairo_create(grid)
        let pattern = cairo_pattern_create_for_surface(region)
        var m = cairo_matrix_t(xx: Double(factor), yx: 0, xy: 0, yy: Double(factor), x0: Double(-pad), y0: Double(-pad))
        cairo_pattern_set_matrix(pattern, &m)
        cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
        cairo_pattern_set_filter(pattern, factor > 1 ? CAIRO_FILTER_GOOD : CAIRO_FILTER_NEAREST)
        cairo_set_operator(gcr, CAIRO_OPERATOR_SOURCE)
        cairo_set_source(gcr, pattern)
        cairo_paint(gcr)
        cairo_pattern_destroy(pattern)
        cairo_destroy(gcr)
        cairo_surface_flush(grid)
        cairo_surface_destroy(grid)
        cairo_surface_destroy(region)
    }
    let filtered = filteredBackdrop(pixels, key: "\(bw)x\(bh)|\(deviceSigma)|\(factor)|\(tone.brightness)|\(tone.saturate)") { p in
        p.withUnsafeMutableBufferPointer { buffer in
            boxBlur(buffer.baseAddress!, width: bw, height: bh, stride: stride, channels: 4, sigma: deviceSigma / Double(factor))
        }
        if !tone.isIdentity { applyTone(&p, tone) }
    }
    filtered.withUnsafeBufferPointer { buffer in
        // cairo only reads a source: the cached bytes are lent, not copied.
        let blurred = cairo_image_surface_create_for_data(UnsafeMutablePointer(mutating: buffer.baseAddress!), CAIRO_FORMAT_ARGB32, Int32(bw), Int32(bh), Int32(stride))
        cairo_save(cr)
        roundedRect(cr, 0, 0, w, h, box.radii, shapes: box.cornerShapes)
        cairo_clip(cr)
        cairo_identity_matrix(cr)
        cairo_translate(cr, Double(x0 - pad) - offsetX, Double(y0 - pad) - offsetY)
        cairo_scale(cr, Double(factor), Double(factor))
        cairo_set_source_surface(cr, blurred, 0, 0)
        cairo_pattern_set_extend(cairo_get_source(cr), CAIRO_EXTEND_PAD)
        cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_BILINEAR)
        cairo_paint(cr)
        cairo_restore(cr)
        cairo_surface_finish(blurred)
        cairo_surface_destroy(blurred)
    }
}

/// How many device pixels make one of the grid a blur of `sigma` pixels is worked on: halved
/// until σ is at most 4, as Skia's GPU blur does (SkGpuBlurUtils' kMaxSigma), which is what
/// Chromium draws with; a blur that wide has no detail a finer grid would keep.
func blurReduction(_ sigma: Double) -> Int {
    var factor = 1, left = sigma
    while left > 4, factor < 64 { left /= 2; factor *= 2 }
    return factor
}

/// `brightness()` then `saturate()` on premultiplied ARGB32 (B, G, R, A in memory), in sRGB
/// (Filter Effects 1 §13.2's matrices), each channel clamped to its alpha.
func applyTone(_ pixels: inout [UInt8], _ tone: BackdropTone) {
    let s = tone.saturate, b = tone.brightness
    let m = [0.213 + 0.787 * s, 0.715 - 0.715 * s, 0.072 - 0.072 * s,
             0.213 - 0.213 * s, 0.715 + 0.285 * s, 0.072 - 0.072 * s,
             0.213 - 0.213 * s, 0.715 - 0.715 * s, 0.072 + 0.928 * s].map { $0 * b }
    pixels.withUnsafeMutableBufferPointer { p in
        var i = 0
        while i + 3 < p.count {
            let a = Double(p[i + 3])
            if a > 0 {
                let bl = Double(p[i]), g = Double(p[i + 1]), r = Double(p[i + 2])
                func clamp(_ v: Double) -> UInt8 { UInt8(saturating: min(v, a), rounded: .toNearestOrAwayFromZero) }
                p[i + 2] = clamp(m[0] * r + m[1] * g + m[2] * bl)
                p[i + 1] = clamp(m[3] * r + m[4] * g + m[5] * bl)
                p[i] = clamp(m[6] * r + m[7] * g + m[8] * bl)
            }
            i += 4
        }
    }
}

/// Filtered backdrops, named by a sample of what lies behind and the filter; the whole of what
/// lies behind is compared before a kept one is used. A gallery's banners over one wallpaper are
/// filtered once per size.
struct FilteredBackdrop: Sendable { var source: [UInt8]; var filtered: [UInt8] }
let backdrops = RasterCache<FilteredBackdrop>(megabytes: 8) { 2 * $0.source.count }

func filteredBackdrop(_ source: [UInt8], key: String, filter: (inout [UInt8]) -> Void) -> [UInt8] {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    var i = 0
    while i < source.count { hash = (hash ^ UInt64(source[i])) &* 0x100_0000_01b3; i += 61 }
    return backdrops.value(key + "|\(source.count)|\(hash)", usable: { $0.source == source }) {
        var made = source
        filter(&made)
        return FilteredBackdrop(source: source, filtered: made)
    }.filtered
}

/// Inset box shadows (Backgrounds 3 §7.1.1), the first on top, inside the padding box: all
/// but the padding box shrunk by the spread and moved by the offset, blurred.
func paintInsetShadows(_ box: SceneBox, _ cr: OpaquePointer, innerRadii: [Double]) {
    let b = box.borderWidths
    let inner = Rect(x: b[3], y: b[0], width: box.frame.width - b[1] - b[3], height: box.frame.height - b[0] - b[2])
    guard inner.width > 0, inner.height > 0 else { return }
    for shadow in box.shadows.reversed() where shadow.inset && shadow.color.a > 0 {
        let reach = shadow.blur * 1.5 + abs(shadow.x) + abs(shadow.y) + abs(shadow.spread) + 1
        let layer = blurredLayer(cr, bounds: inner, sigma: shadow.blur / 2) {
            cairo_set_fill_rule(cr, CAIRO_FILL_RULE_EVEN_ODD)
            cairo_rectangle(cr, inner.x - reach, inner.y - reach, inner.width + 2 * reach, inner.height + 2 * reach)
            roundedRect(cr, inner.x + shadow.x + shadow.spread, inner.y + shadow.y + shadow.spread,
                        inner.width - 2 * shadow.spread, inner.height - 2 * shadow.spread, innerRadii.map { max(0, $0 - shadow.spread) }, shapes: box.cornerShapes)
            setColor(cr, shadow.color)
            cairo_fill(cr)
        }
        // Blurred first, clipped after: what lies outside the padding box darkens its edge.
        cairo_save(cr)
        roundedRect(cr, inner.x, inner.y, inner.width, inner.height, innerRadii, shapes: box.cornerShapes)
        cairo_clip(cr)
        cairo_set_source(cr, layer)
        cairo_paint(cr)
        cairo_pattern_destroy(layer)
        cairo_restore(cr)
    }
}

/// Outer box shadows (Backgrounds 3 §7.1), the first on top: the spread shape blurred with a
/// Gaussian of σ = blur / 2 (three box blurs), drawn only outside the border box.
func paintShadows(_ box: SceneBox, _ cr: OpaquePointer, scale: Double) {
    let (w, h) = (box.frame.width, box.frame.height)
    for shadow in box.shadows.reversed() where shadow.color.a > 0 && !shadow.inset {
        let sigma = shadow.blur / 2
        let pad = (3 * sigma).rounded(.up)
        let sw = w + 2 * shadow.spread, sh = h + 2 * shadow.spread
        guard sw > 0, sh > 0 else { continue }
        // A wide blur is worked on a coarser grid (`blurReduction`), and so is a mask of more
        // than a few megapixels (a huge spread). The blurred mask is then grown to the device's
        // scale once, when it fits, rather than by cairo at every page it is painted on.
        let fullArea = (sw + 2 * pad) * scale * (sh + 2 * pad) * scale
        let maskScale = scale / max(Double(blurReduction(sigma * scale)), (fullArea / shadowMaskMaxPixels).squareRoot())
        let paintScale = fullArea <= shadowMaskMaxPixels ? scale : maskScale
        let mw = Int32(saturating: (sw + 2 * pad) * maskScale, rounded: .up), mh = Int32(saturating: (sh + 2 * pad) * maskScale, rounded: .up)
        let pw = Int32(saturating: (sw + 2 * pad) * paintScale, rounded: .up), ph = Int32(saturating: (sh + 2 * pad) * paintScale, rounded: .up)
        guard mw > 0, mh > 0, pw > 0, ph > 0 else { continue }
        let radii = box.radii.map { $0 > 0 ? max(0, $0 + shadow.spread) : 0 }
        // The same card casts the same shadow on every page: its blurred mask is made once.
        let key = "\(pw)x\(ph)|\(sw),\(sh),\(pad)|\(radii)|\(box.cornerShapes ?? [])|\(sigma)|\(maskScale)|\(paintScale)"
        let stride = Int(cairo_format_stride_for_width(CAIRO_FORMAT_A8, pw))
        let bytes = shadowMasks.value(key) {
            guard let mask = cairo_image_surface_create(CAIRO_FORMAT_A8, mw, mh) else { return [] }
            defer { cairo_surface_destroy(mask) }
            let mcr = cairo_create(mask)!
            cairo_scale(mcr, maskScale, maskScale)
            roundedRect(mcr, pad, pad, sw, sh, radii, shapes: box.cornerShapes)
            cairo_set_source_rgba(mcr, 0, 0, 0, 1)
            cairo_fill(mcr)
            cairo_destroy(mcr)
            cairo_surface_flush(mask)
            boxBlur(cairo_image_surface_get_data(mask)!, width: Int(mw), height: Int(mh), stride: Int(cairo_image_surface_get_stride(mask)), channels: 1, sigma: sigma * maskScale)
            cairo_surface_mark_dirty(mask)
            guard let grown = cairo_image_surface_create(CAIRO_FORMAT_A8, pw, ph) else { return [] }
            defer { cairo_surface_destroy(grown) }
            let gcr = cairo_create(grown)!
            cairo_scale(gcr, paintScale / maskScale, paintScale / maskScale)
            cairo_set_source_surface(gcr, mask, 0, 0)
            cairo_pattern_set_filter(cairo_get_source(gcr), paintScale == maskScale ? CAIRO_FILTER_NEAREST : CAIRO_FILTER_BILINEAR)
            cairo_paint(gcr)
            cairo_destroy(gcr)
            cairo_surface_flush(grown)
            return Array(UnsafeBufferPointer(start: cairo_image_surface_get_data(grown)!, count: stride * Int(ph)))
        }
        guard bytes.count == stride * Int(ph) else { continue }
        bytes.withUnsafeBufferPointer { buffer in
            // cairo only reads a mask source: the cached bytes are lent, not copied.
            let mask = cairo_image_surface_create_for_data(UnsafeMutablePointer(mutating: buffer.baseAddress), CAIRO_FORMAT_A8, pw, ph, Int32(stride))!
            cairo_surface_set_device_scale(mask, paintScale, paintScale)
            cairo_save(cr)
            // Not under the box itself: clip to everything outside its border box.
            cairo_set_fill_rule(cr, CAIRO_FILL_RULE_EVEN_ODD)
            cairo_rectangle(cr, -10_000, -10_000, 20_000 + w, 20_000 + h)
            roundedRect(cr, 0, 0, w, h, box.radii, shapes: box.cornerShapes)
            cairo_clip(cr)
            setColor(cr, shadow.color)
            cairo_mask_surface(cr, mask, shadow.x - shadow.spread - pad, shadow.y - shadow.spread - pad)
            cairo_restore(cr)
            cairo_surface_finish(mask)
            cairo_surface_destroy(mask)
        }
    }
}

/// Blurred shadow masks by shape: the same card casts the same shadow on every page.
let shadowMasks = RasterCache<[UInt8]>(megabytes: 16) { $0.count }
/// The most pixels one shadow mask is blurred at.
let shadowMaskMaxPixels = 4_000_000.0

/// Three box blurs approximate a Gaussian of `sigma` pixels (the widths from Kovesi's
/// "boxes for Gauss"), horizontally then vertically, in place, on each of `channels`
/// interleaved 8-bit channels (1: an A8 mask; 4: premultiplied ARGB).
func boxBlur(_ data: UnsafeMutablePointer<UInt8>, width: Int, height: Int, stride: Int, channels: Int, sigma: Double) {
    guard sigma > 0.5 else { return }
    let n = 3.0
    var lower = Int(saturating: (12 * sigma * sigma / n + 1).squareRoot())
    if lower % 2 == 0 { lower -= 1 }
    let m = Int(saturating: (12 * sigma * sigma - n * Double(lower) * Double(lower) - 4 * n * Double(lower) - 3 * n) / (-4 * Double(lower) - 4), rounded: .toNearestOrAwayFromZero)
    // A window wider than the image averages it all: no need to go further.
    let radii = (0..<3).map { min(($0 < m ? lower : lower + 2) / 2, max(width, height)) }
    var line = [Int](repeating: 0, count: max(width, height))
    /// One box blur of `length` samples `step` bytes apart, through a running sum.
    func pass(_ first: UnsafeMutablePointer<UInt8>, length: Int, step: Int, radius r: Int) {
        let window = 2 * r + 1
        for i in 0..<length { line[i] = Int(first[i * step]) }
        var sum = 0
        for i in -r...r { sum += i >= 0 && i < length ? line[i] : 0 }
        for i in 0..<length {
            first[i * step] = UInt8((sum + window / 2) / window)
            let add = i + r + 1, drop = i - r
            sum += (add < length ? line[add] : 0) - (drop >= 0 ? line[drop] : 0)
        }
    }
    for r in radii where r > 0 {
        for channel in 0..<channels {
            for y in 0..<height { pass(data + y * stride + channel, length: width, step: channels, radius: r) }
            for x in 0..<width { pass(data + x * channels + channel, length: height, step: stride, radius: r) }
        }
    }
}
