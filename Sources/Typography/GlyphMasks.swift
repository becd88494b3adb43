internal import CPango
import Checked

/// Glyph coverage masks, each drawn once per font, glyph, device scale and quarter-pixel offset,
/// then stamped wherever the glyph appears. This is how Chromium (Skia) draws text: horizontal
/// positions in quarter device pixels, baselines on whole device pixels. Filling every glyph's
/// outline anew was a seventh of a gallery's time.
final class GlyphMasks {
    private struct Key: Hashable { var font: Int, glyph: UInt32, scale: Double, phase: Int, luminance: Int }
    /// An A8 surface, and where its top-left lies from the glyph's origin (device pixels).
    private struct Mask { var surface: OpaquePointer?, left: Int, top: Int }

    private var masks: [Key: Mask] = [:]
    /// Fonts held so that a cached font pointer can never be reused by another font.
    private var fonts: [Int: UnsafeMutablePointer<PangoFont>] = [:]
    private let single = pango_glyph_string_new()!
    /// Past this many bytes of masks (pages of CJK text at several scales), start over.
    private let budget = 16 << 20
    /// Font sizes (device pixels) above this are not masked.
    static let largestMaskedGlyph = 256.0
    private var bytes = 0

    init() { pango_glyph_string_set_size(single, 1) }

    deinit {
        clear()
        pango_glyph_string_free(single)
    }

    /// Frees the masks and lets go of the fonts: before the font map goes (the fonts' last
    /// release reaches into it).
    func clear() {
        for mask in masks.values where mask.surface != nil { cairo_surface_destroy(mask.surface) }
        masks.removeAll()
        bytes = 0
        for font in fonts.values { cpango_unref(UnsafeMutableRawPointer(font)) }
        fonts.removeAll()
    }

    /// Draws `glyphs` of `font` with the run's origin at user-space (x, y), in the source colour
    /// already set. False when the device transform is not a plain scale (nothing drawn).
    func draw(_ glyphs: UnsafeMutablePointer<PangoGlyphString>, font: UnsafeMutablePointer<PangoFont>, color: RGBA,
              cairo: OpaquePointer, x: Double, y: Double) -> Bool {
        var m = cairo_matrix_t()
        cairo_get_matrix(cairo, &m)
        guard m.xy == 0, m.yx == 0, m.xx == m.yy, m.xx > 0 else { return false }
        // Glyphs larger than a few hundred device pixels are filled as outlines: one mask each would
        // be megabytes (Skia draws large glyphs as paths too).
        let description = pango_font_describe_with_absolute_size(font)
        let pixels = Double(pango_font_description_get_size(description)) / Double(PANGO_SCALE) * m.xx
        pango_font_description_free(description)
        guard pixels <= Self.largestMaskedGlyph else { return false }
        // A glyph no font has is drawn by Pango as a box with its code point, as browsers do.
        for i in 0..<Int(glyphs.pointee.num_glyphs) where glyphs.pointee.glyphs[i].glyph & PANGO_GLYPH_UNKNOWN_FLAG != 0 { return false }
        if bytes > budget { clear() }
        let fontKey = Int(bitPattern: font)
        if fonts[fontKey] == nil { fonts[fontKey] = font; g_object_ref(UnsafeMutableRawPointer(font)) }
        cairo_save(cairo)
        cairo_identity_matrix(cairo)
        let unit = Double(PANGO_SCALE)
        var advance = 0.0
        let luminance = MaskGamma.level(of: color)
        for i in 0..<Int(glyphs.pointee.num_glyphs) {
            let info = glyphs.pointee.glyphs[i]
            defer { advance += Double(info.geometry.width) / unit }
            if info.glyph == PANGO_GLYPH_EMPTY { continue }
            let dx = m.xx * (x + advance + Double(info.geometry.x_offset) / unit) + m.x0
            let dy = m.yy * (y + Double(info.geometry.y_offset) / unit) + m.y0
            let quarters = Int(saturating: dx * 4 + 0.5, rounded: .down)
            let (px, phase) = (quarters >> 2, quarters & 3)
            let key = Key(font: fontKey, glyph: info.glyph, scale: m.xx, phase: phase, luminance: luminance)
            let mask = masks[key] ?? make(key, font: font)
            guard let surface = mask.surface else { continue }
            cairo_mask_surface(cairo, surface, Double(px + mask.left), dy.rounded() + Double(mask.top))
        }
        cairo_restore(cairo)
        return true
    }

    private func make(_ key: Key, font: UnsafeMutablePointer<PangoFont>) -> Mask {
        var ink = PangoRectangle()
        pango_font_get_glyph_extents(font, key.glyph, &ink, nil)
        let unit = Double(PANGO_SCALE), s = key.scale, offset = Double(key.phase) / 4
        guard ink.width > 0, ink.height > 0 else { masks[key] = Mask(surface: nil, left: 0, top: 0); return masks[key]! }
        // Two device pixels of margin: outlines may reach past the reported ink box.
        let left = Int(saturating: Double(ink.x) / unit * s + offset, rounded: .down) - 2
        let top = Int(saturating: Double(ink.y) / unit * s, rounded: .down) - 2
        let right = Int(saturating: Double(ink.x + ink.width) / unit * s + offset, rounded: .up) + 2
        let bottom = Int(saturating: Double(ink.y + ink.height) / unit * s, rounded: .up) + 2
        let surface = cairo_image_surface_create(CAIRO_FORMAT_A8, Int32(clamping: right - left), Int32(clamping: bottom - top))!
        let cr = cairo_create(surface)!
        cairo_translate(cr, offset - Double(left), -Double(top))
        cairo_scale(cr, s, s)
        single.pointee.glyphs[0] = PangoGlyphInfo(glyph: key.glyph, geometry: PangoGlyphGeometry(width: 0, x_offset: 0, y_offset: 0), attr: PangoGlyphVisAttr())
        pango_cairo_glyph_string_path(cr, font, single)
        cairo_fill(cr)
        cairo_destroy(cr)
        cairo_surface_flush(surface)
        MaskGamma.table(level: key.luminance).apply(to: surface)
        cairo_surface_mark_dirty(surface)
        let mask = Mask(surface: surface, left: left, top: top)
        masks[key] = mask
        bytes += Int(cairo_image_surface_get_stride(surface)) * (bottom - top)
        return mask
    }
}
