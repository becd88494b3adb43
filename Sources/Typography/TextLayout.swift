internal import CPango
import Checked

/// The Pango side of a paragraph: the same `Paragraph` always gives the same layout, so layout
/// measures it and the painter rebuilds it to draw, with nothing C-shaped in between.
extension FontSystem {
    public func measure(_ paragraph: Paragraph) -> TextMetrics {
        let layout = makeLayout(paragraph)
        defer { cpango_unref(UnsafeMutableRawPointer(layout)) }
        var m = metrics(of: layout)
        let lines = lineBoxes(layout, paragraph)
        m.height = lines.height
        m.baseline = lines.first?.baseline ?? 0
        // Blink puts letter-spacing after every letter, the last one too; Pango drops it at line ends.
        if m.width > 0, let spacing = paragraph.runs.map(\.style.letterSpacing).max(), spacing > 0 { m.width += spacing }
        return m
    }

    /// Draws the paragraph with its top-left at (x, y) in the cairo context's user space.
    ///
    /// Glyphs are stamped from cached coverage masks at quarter-pixel positions, as Chromium
    /// does (cairo 1.16 would put its own glyph images on whole device pixels). Colour emoji are
    /// bitmaps and are drawn by Pango.
    public func draw(_ paragraph: Paragraph, cairo: OpaquePointer, x: Double, y: Double) {
        let p = withFallbackRuns(paragraph)
        let layout = makeLayout(p, fallbackRuns: false)
        defer { cpango_unref(UnsafeMutableRawPointer(layout)) }
        let scale = Double(PANGO_SCALE)
        let baselines = lineBoxes(layout, paragraph).baselines
        let x = x + overflowShift(layout, p)
        guard let iter = pango_layout_get_iter(layout) else { return }
        defer { pango_layout_iter_free(iter) }
        cairo_save(cairo)
        cairo_new_path(cairo)
        repeat {
            guard let run = pango_layout_iter_get_run_readonly(iter), let item = run.pointee.item,
                  let glyphs = run.pointee.glyphs, let font = item.pointee.analysis.font,
                  let line = pango_layout_iter_get_line_readonly(iter) else { continue }
            var logical = PangoRectangle()
            pango_layout_iter_get_run_extents(iter, nil, &logical)
            let baseline = baselines[Int(line.pointee.start_index)] ?? Double(pango_layout_iter_get_baseline(iter)) / scale
            let runX = x + Double(logical.x) / scale, runY = y + baseline
            let look = RunLook(item.pointee.analysis.extra_attrs)
            cairo_set_source_rgba(cairo, look.color.r, look.color.g, look.color.b, look.color.a)
            if fallback(of: font) == .emoji || !glyphMasks.draw(glyphs, font: font, color: look.color, cairo: cairo, x: runX, y: runY) {
                cairo_move_to(cairo, runX, runY)
                pango_cairo_show_glyph_string(cairo, font, glyphs)
                cairo_new_path(cairo)
            }
            if look.underline || look.strikethrough {
                let metrics = pango_font_get_metrics(font, nil)
                let width = Double(logical.width) / scale
                // Blink's placement: an underline a gap of max(1, ⌈thickness/2⌉) below the
                // baseline; a line-through at the font's rounded strikeout position; whole pixels.
                if look.underline {
                    let thickness = max(1, (Double(pango_font_metrics_get_underline_thickness(metrics)) / scale).rounded())
                    cairo_rectangle(cairo, runX, runY + max(1, (thickness / 2).rounded(.up)), width, thickness)
                }
                if look.strikethrough {
                    let thickness = max(1, (Double(pango_font_metrics_get_strikethrough_thickness(metrics)) / scale).rounded())
                    let position = (Double(pango_font_metrics_get_strikethrough_position(metrics)) / scale).rounded()
                    cairo_rectangle(cairo, runX, runY - position - thickness, width, thickness)
                }
                cairo_fill(cairo)
                pango_font_metrics_unref(metrics)
            }
        } while pango_layout_iter_next_run(iter) != 0
        cairo_restore(cairo)
    }


    /// The fallback a run's font stands for, by its family; remembered per font, which is held
    /// (a font the font map freed could come back at the same address as another).
    func fallback(of font: UnsafeMutablePointer<PangoFont>) -> Fallback? {
        let key = Int(bitPattern: font)
        if let known = fontFallbacks[key] { return known }
        let description = pango_font_describe(font)
        defer { pango_font_description_free(description) }
        let family = pango_font_description_get_family(description).map { String(cString: $0) } ?? ""
        let value: Fallback? = family.localizedCaseInsensitiveContains("emoji") ? .emoji
            : family.hasPrefix("Noto Sans CJK") ? .script(FontSystem.cjkFamily)
            : FontSystem.scriptFaces.first { family.hasPrefix($0.family) }.map { .script($0.family) }
        fontFallbacks[key] = .some(value)
        if heldFonts.insert(font).inserted { g_object_ref(UnsafeMutableRawPointer(font)) }
        return value
    }

    /// A Pango font description of the style's font (the caller frees it).
    func fontDescription(_ style: TextStyle) -> OpaquePointer {
        let description = pango_font_description_new()!
        pango_font_description_set_family(description, style.family)
        pango_font_description_set_absolute_size(description, style.size * Double(PANGO_SCALE))
        pango_font_description_set_weight(description, PangoWeight(UInt32(clamping: style.weight)))
        pango_font_description_set_style(description, style.italic ? PANGO_STYLE_ITALIC : PANGO_STYLE_NORMAL)
        return description
    }

    /// Pango's own (unrounded) ascent and descent.
    func pangoMetrics(_ style: TextStyle) -> (ascent: Double, descent: Double) {
        let key = "\(style.family)|\(style.size)|\(style.weight)|\(style.italic)"
        if let known = pangoMetricsCache[key] { return known }
        let description = fontDescription(style)
        let metrics = pango_context_get_metrics(context(language: "en", rightToLeft: false), description, pango_language_from_string("en"))
        let scale = Double(PANGO_SCALE)
        let ascent = Double(pango_font_metrics_get_ascent(metrics)) / scale
        let descent = Double(pango_font_metrics_get_descent(metrics)) / scale
        pango_font_metrics_unref(metrics)
        pango_font_description_free(description)
        pangoMetricsCache[key] = (ascent, descent)
        return (ascent, descent)
    }

    private func metrics(of layout: OpaquePointer) -> TextMetrics {
        var ink = PangoRectangle(), logical = PangoRectangle()
        pango_layout_get_extents(layout, &ink, &logical)
        let scale = Double(PANGO_SCALE)
        return TextMetrics(width: Double(logical.width) / scale, height: Double(logical.height) / scale,
                           lineCount: Int(pango_layout_get_line_count(layout)),
                           baseline: Double(pango_layout_get_baseline(layout)) / scale,
                           missingGlyphs: Int(pango_layout_get_unknown_glyphs_count(layout)),
                           ellipsized: pango_layout_is_ellipsized(layout) != 0)
    }


    /// Blink sizes each inline box by the font that draws it (lineBoxes); Pango centres every run's
    /// leading on that run's font. So runs in a fallback font become runs of their own, named by
    /// the script's face after the text's (as the pages we write list them, so no other loaded
    /// face draws them: DejaVu Sans Mono covers Hebrew and Arabic too), with their own line height:
    /// with a fixed line-height, smaller by how much the fallback font's ascent−descent differs
    /// from the text font's; with `normal`, the fallback font's own normal height.
    private func withFallbackRuns(_ p: Paragraph) -> Paragraph {
        guard p.runs.contains(where: { $0.text.unicodeScalars.contains { $0.fallback != nil } }) else { return p }
        var out = p
        out.runs = []
        for run in p.runs {
            guard let lineHeight = run.style.lineHeight, run.text.unicodeScalars.contains(where: { $0.fallback != nil }) else {
                out.runs.append(run)
                continue
            }
            func style(for fallback: Fallback?) -> TextStyle {
                guard let fallback else { return run.style }
                let text = pangoMetrics(run.style), f = pangoFallbackMetrics(fallback, run.style)
                var s = run.style
                s.family += ", " + (fallback.family ?? "Noto Color Emoji")
                // Under a fixed line-height Blink's line box is the text font's strut. Pango centres
                // each run's leading on its own font, so a Hebrew or Arabic run's box is raised until
                // it coincides with the text font's, even on a line with no other text.
                if run.style.lineHeightIsFixed && fallback != .emoji {
                    s.pangoRise = ((text.ascent - text.descent) - (f.ascent - f.descent)) / 2
                    return s
                }
                s.pangoLineHeight = run.style.lineHeightIsFixed ? lineHeight - abs((f.ascent - f.descent) - (text.ascent - text.descent))
                                                                : fallbackMetrics(fallback, run.style).normalLineHeight
                return s
            }
            var current = "", currentClass: Fallback?
            for c in run.text {
                // Blink shapes a script run with the primary font first and falls back per character,
                // so spaces between Hebrew or Arabic words keep the text font's width; only emoji
                // sequences hold their spaces.
                let cls = c.unicodeScalars.lazy.compactMap(\.fallback).first
                    ?? (currentClass == .emoji && c.unicodeScalars.allSatisfy { $0.properties.isWhitespace } ? currentClass : nil)
                if cls != currentClass && !current.isEmpty {
                    out.runs.append(.init(current, style: style(for: currentClass)))
                    current = ""
                }
                current.append(c)
                currentClass = cls
            }
            if !current.isEmpty { out.runs.append(.init(current, style: style(for: currentClass))) }
        }
        return out
    }

    /// Pango's ascent and descent of the face that draws `fallback` at this size.
    private func pangoFallbackMetrics(_ fallback: Fallback, _ style: TextStyle) -> (ascent: Double, descent: Double) {
        switch fallback {
        case .emoji: return emojiExtents(style)
        case .script(let family):
            var probe = style
            probe.family = family
            return pangoMetrics(probe)
        }
    }

    /// Emoji are measured, since the bitmap strike's metrics are scaled by fontconfig.
    func emojiExtents(_ style: TextStyle) -> (ascent: Double, descent: Double) {
        let key = "emoji|\(style.size)"
        if let known = pangoMetricsCache[key] { return known }
        var probe = style
        probe.lineHeight = nil
        probe.lineHeightIsFixed = false
        let layout = makeLayout(Paragraph(runs: [.init("😀", style: probe)]), fallbackRuns: false)
        var ink = PangoRectangle(), logical = PangoRectangle()
        pango_layout_get_extents(layout, &ink, &logical)
        let baseline = Double(pango_layout_get_baseline(layout)) / Double(PANGO_SCALE)
        cpango_unref(UnsafeMutableRawPointer(layout))
        let value = (baseline, Double(logical.height) / Double(PANGO_SCALE) - baseline)
        pangoMetricsCache[key] = value
        return value
    }

    /// The paragraph laid out by Pango, with a reference for the caller to release. Layouts are
    /// cached: measuring, placing objects and drawing a paragraph shape its text once.
    func makeLayout(_ p0: Paragraph, fallbackRuns: Bool = true) -> OpaquePointer {
        let p = fallbackRuns ? withFallbackRuns(p0) : p0
        if let cached = layouts[p] { g_object_ref(UnsafeMutableRawPointer(cached)); return cached }
        let layout = pango_layout_new(context(language: p.language, rightToLeft: p.rightToLeft))!
        // U+2028 instead of \n: Pango counts line limits per paragraph.
        let text = p.text.replacingNewlines()
        pango_layout_set_text(layout, text, -1)
        let scale = Double(PANGO_SCALE)
        if let width = p.width, p.wraps || p.maxLines != nil {
            pango_layout_set_width(layout, Int32(saturating: width * scale, rounded: .down))
            pango_layout_set_wrap(layout, p.breaksAll ? PANGO_WRAP_CHAR : p.breaksWords ? PANGO_WRAP_WORD_CHAR : PANGO_WRAP_WORD)
        }
        switch p.alignment {
        case .left: pango_layout_set_alignment(layout, PANGO_ALIGN_LEFT)
        case .center: pango_layout_set_alignment(layout, PANGO_ALIGN_CENTER)
        case .right: pango_layout_set_alignment(layout, PANGO_ALIGN_RIGHT)
        case .justify:
            // The last line, which is not justified, starts at the start edge: the right one in rtl.
            pango_layout_set_alignment(layout, p.rightToLeft ? PANGO_ALIGN_RIGHT : PANGO_ALIGN_LEFT)
            pango_layout_set_justify(layout, 1)
            if p.justifiesLastLine { pango_layout_set_justify_last_line(layout, 1) }
        }
        pango_layout_set_auto_dir(layout, 0)

        let list = pango_attr_list_new()
        // A word broken to fit a line gets no hyphen: Pango adds one unless told, a browser never
        // does without `hyphens: auto`.
        if p.breaksWords || p.breaksAll, let noHyphens = pango_attr_insert_hyphens_new(0) { pango_attr_list_insert(list, noHyphens) }
        for attribute in LineBreakTailoring.attributes(text) { pango_attr_list_insert(list, attribute) }
        var start = 0
        for run in p.runs {
            let length = run.text.replacingNewlines().utf8.count
            defer { start += length }
            guard length > 0 else { continue }
            // An object's extents are its shape's: no line-height leading on it.
            let isObject = p.objects.contains { $0.byteOffset == start }
            for attribute in attributes(for: run.style, lineHeight: p.lineHeight, leading: !isObject) {
                attribute.pointee.start_index = UInt32(start)
                attribute.pointee.end_index = UInt32(start + length)
                pango_attr_list_insert(list, attribute)
            }
        }
        for object in p.objects {
            var logical = PangoRectangle(x: 0, y: pangoUnits(-object.ascent), width: pangoUnits(object.width),
                                         height: pangoUnits(object.ascent + object.descent))
            var ink = logical
            if let shape = pango_attr_shape_new(&ink, &logical) {
                shape.pointee.start_index = UInt32(object.byteOffset)
                shape.pointee.end_index = UInt32(object.byteOffset + 3) // U+FFFC is three UTF-8 bytes
                pango_attr_list_insert(list, shape)
            }
        }
        pango_layout_set_attributes(layout, list)
        pango_attr_list_unref(list)
        if let lines = p.maxLines {
            pango_layout_set_height(layout, Int32(clamping: -lines))
            pango_layout_set_ellipsize(layout, lines == 1 && !p.wraps && cutsLogicalStart(layout, rightToLeft: p.rightToLeft) ? PANGO_ELLIPSIZE_START : PANGO_ELLIPSIZE_END)
        }
        // An unwrapped line is still centred or right-aligned in its box (CSS Text 3 §6.1) when it
        // fits: Pango aligns only within a width, so give it one that cannot make the line wrap.
        if !p.wraps, p.maxLines == nil, let width = p.width, p.alignment == .center || p.alignment == .right {
            var logical = PangoRectangle()
            pango_layout_get_extents(layout, nil, &logical)
            let box = Int32(saturating: width * scale, rounded: .down)
            if logical.width < box - 2 {
                pango_layout_set_width(layout, box)
                pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
            }
        }
        if layouts.count >= 512 {
            for old in layouts.values { cpango_unref(UnsafeMutableRawPointer(old)) }
            layouts.removeAll()
            lineBoxCache.removeAll()
        }
        layouts[p] = layout
        g_object_ref(UnsafeMutableRawPointer(layout))
        return layout
    }

    /// How far an unwrapped right-to-left paragraph wider than its box is moved: such a line is
    /// start-aligned (CSS Text 3 §6.1), its right edge on the box's and the overflow on the left,
    /// where Pango, given no width that would not wrap it, starts it at 0.
    private func overflowShift(_ layout: OpaquePointer, _ p: Paragraph) -> Double {
        guard p.rightToLeft, !p.wraps, p.maxLines == nil, let width = p.width, pango_layout_get_width(layout) == -1 else { return 0 }
        var logical = PangoRectangle()
        pango_layout_get_extents(layout, nil, &logical)
        let overflow = Double(logical.x + logical.width) / Double(PANGO_SCALE) - width
        return overflow > 0 ? -overflow : 0
    }

    /// Blink cuts an overflowing line at its visual end edge (CSS Overflow 3 §5.1), Pango at the text's
    /// logical end: the same unless the run at that edge is text in the other direction beginning the
    /// paragraph (English in an rtl box, Hebrew in an ltr one), whose logical start is there instead.
    private func cutsLogicalStart(_ layout: OpaquePointer, rightToLeft: Bool) -> Bool {
        let width = pango_layout_get_width(layout)
        pango_layout_set_width(layout, -1)
        defer { pango_layout_set_width(layout, width) }
        guard let line = pango_layout_get_line_readonly(layout, 0) else { return false }
        var runs: [UnsafeMutablePointer<PangoItem>] = []
        var node = line.pointee.runs
        while let n = node {
            if let item = n.pointee.data?.assumingMemoryBound(to: PangoGlyphItem.self).pointee.item { runs.append(item) }
            node = n.pointee.next
        }
        guard let edge = rightToLeft ? runs.first : runs.last else { return false }
        return edge.pointee.offset == 0 && (edge.pointee.analysis.level % 2 == 1) != rightToLeft
    }

    /// The first and last lines' baselines from the paragraph's top, where drawing puts them (Blink's).
    public func baselines(_ paragraph: Paragraph) -> (first: Double, last: Double) {
        let p = withFallbackRuns(paragraph)
        let layout = makeLayout(p, fallbackRuns: false)
        defer { cpango_unref(UnsafeMutableRawPointer(layout)) }
        let lines = lineBoxes(layout, paragraph)
        return (lines.first?.baseline ?? 0, lines.last?.baseline ?? 0)
    }

    /// Where each inline object's margin box starts, relative to the paragraph's top-left.
    public func objectOrigins(_ paragraph: Paragraph) -> [Int: (x: Double, y: Double)] {
        guard !paragraph.objects.isEmpty else { return [:] }
        let p = withFallbackRuns(paragraph)
        let layout = makeLayout(p, fallbackRuns: false)
        defer { cpango_unref(UnsafeMutableRawPointer(layout)) }
        let scale = Double(PANGO_SCALE)
        let baselines = lineBoxes(layout, paragraph).baselines
        var out: [Int: (x: Double, y: Double)] = [:]
        let shift = overflowShift(layout, p)
        guard let iter = pango_layout_get_iter(layout) else { return [:] }
        defer { pango_layout_iter_free(iter) }
        repeat {
            guard let line = pango_layout_iter_get_line_readonly(iter) else { continue }
            let start = Int(line.pointee.start_index), end = start + Int(line.pointee.length)
            let baseline = baselines[start] ?? Double(pango_layout_iter_get_baseline(iter)) / scale
            for object in paragraph.objects where object.byteOffset >= start && object.byteOffset < end {
                var pos = PangoRectangle()
                pango_layout_index_to_pos(layout, Int32(object.byteOffset), &pos)
                // The leading edge; in right-to-left text that is the right side.
                let x = Double(pos.width < 0 ? pos.x + pos.width : pos.x) / scale
                out[object.byteOffset] = (x + shift, baseline - object.ascent)
            }
        } while pango_layout_iter_next_line(iter) != 0
        return out
    }

    private func attributes(for s: TextStyle, lineHeight: Double?, leading: Bool = true) -> [UnsafeMutablePointer<PangoAttribute>] {
        func u16(_ v: Double) -> UInt16 { UInt16(saturating: v * 65535, rounded: .toNearestOrAwayFromZero) }
        var list: [UnsafeMutablePointer<PangoAttribute>?] = [
            pango_attr_family_new(s.family),
            pango_attr_size_new_absolute(pangoUnits(s.size)),
            pango_attr_weight_new(PangoWeight(UInt32(clamping: s.weight))),
            pango_attr_style_new(s.italic ? PANGO_STYLE_ITALIC : PANGO_STYLE_NORMAL),
            pango_attr_foreground_new(u16(s.color.r), u16(s.color.g), u16(s.color.b)),
            pango_attr_foreground_alpha_new(u16(s.color.a)),
        ]
        if s.letterSpacing != 0 { list.append(pango_attr_letter_spacing_new(pangoUnits(s.letterSpacing))) }
        if s.underline { list.append(pango_attr_underline_new(PANGO_UNDERLINE_SINGLE)) }
        if s.lineThrough { list.append(pango_attr_strikethrough_new(1)) }
        if s.pangoRise != 0 { list.append(pango_attr_rise_new(pangoUnits(s.pangoRise))) }
        if leading, let lineHeight = s.pangoLineHeight ?? s.lineHeight ?? lineHeight { list.append(pango_attr_line_height_new_absolute(pangoUnits(lineHeight))) }
        return list.compactMap { $0 }
    }
}

/// A run's colour and decorations, read back from the attributes Pango attached to it.
struct RunLook {
    var color = RGBA.black
    var underline = false, strikethrough = false

    init(_ attributes: UnsafeMutablePointer<GSList>?) {
        var node = attributes
        while let n = node {
            if let raw = n.pointee.data {
                let attribute = raw.assumingMemoryBound(to: PangoAttribute.self)
                switch attribute.pointee.klass.pointee.type {
                case PANGO_ATTR_FOREGROUND:
                    let c = raw.assumingMemoryBound(to: PangoAttrColor.self).pointee.color
                    color = RGBA(Double(c.red) / 65535, Double(c.green) / 65535, Double(c.blue) / 65535, color.a)
                case PANGO_ATTR_FOREGROUND_ALPHA:
                    color.a = Double(raw.assumingMemoryBound(to: PangoAttrInt.self).pointee.value) / 65535
                case PANGO_ATTR_UNDERLINE:
                    underline = raw.assumingMemoryBound(to: PangoAttrInt.self).pointee.value != 0
                case PANGO_ATTR_STRIKETHROUGH:
                    strikethrough = raw.assumingMemoryBound(to: PangoAttrInt.self).pointee.value != 0
                default: break
                }
            }
            node = n.pointee.next
        }
    }
}


extension String {
    /// Bytes the text takes in the paragraph Pango sees (newlines become U+2028, 3 bytes).
    public var pangoByteCount: Int { utf8.count + utf8.lazy.filter { $0 == 0x0A }.count * 2 }

    func replacingNewlines() -> String {
        var out = String.UnicodeScalarView()
        for scalar in unicodeScalars { out.append(scalar == "\n" ? "\u{2028}" : scalar) }
        return String(out)
    }
}

/// A length in Pango units (1/1024 px), saturated: Pango keeps them in 32 bits.
func pangoUnits(_ v: Double) -> Int32 { Int32(saturating: v * Double(PANGO_SCALE), rounded: .toNearestOrAwayFromZero) }

extension FontSystem {
    /// A `line-clamp`ed paragraph as Blink ends it: the lines broken as if unclamped, the text cut after
    /// the last shown line's own content (its trailing spaces dropped) and an ellipsis put after that, so it
    /// follows the last whole word that fits; only when the ellipsis itself does not fit is the line cut
    /// inside a word (the paragraph keeps `maxLines`, which ellipsizes there). Pango alone would fill
    /// the last line with the rest of the text and cut it wherever the width ends. Nil when the
    /// paragraph has no more lines than it may show.
    public func clampedAtLineEnd(_ p: Paragraph) -> Paragraph? {
        guard let lines = p.maxLines, p.wraps, p.width != nil else { return nil }
        var unclamped = p
        unclamped.maxLines = nil
        let layout = makeLayout(unclamped)
        defer { cpango_unref(UnsafeMutableRawPointer(layout)) }
        guard Int(pango_layout_get_line_count(layout)) > lines, let line = pango_layout_get_line_readonly(layout, Int32(lines - 1)) else { return nil }
        let cut = Int(line.pointee.start_index + line.pointee.length)
        var out = p
        out.runs = []
        var offset = 0
        for run in p.runs {
            let length = run.text.replacingNewlines().utf8.count
            defer { offset += length }
            guard offset < cut else { break }
            guard offset + length > cut else { out.runs.append(run); continue }
            // Byte `cut` starts the next line: always a character boundary in Pango's text.
            var kept = run
            let text = run.text.replacingNewlines()
            kept.text = String(decoding: text.utf8.prefix(cut - offset), as: UTF8.self).replacingOccurrences(of: "\u{2028}", with: "\n")
            out.runs.append(kept)
        }
        while let last = out.runs.last, last.text.hasSuffix(" ") || last.text.hasSuffix("\n") || last.text.isEmpty {
            if !last.text.isEmpty { out.runs[out.runs.count - 1].text.removeLast() }
            if out.runs[out.runs.count - 1].text.isEmpty { out.runs.removeLast() }
        }
        guard !out.runs.isEmpty else { return nil }
        out.runs[out.runs.count - 1].text += "\u{2026}"
        let end = out.runs.reduce(0) { $0 + $1.text.replacingNewlines().utf8.count }
        out.objects = p.objects.filter { $0.byteOffset + 3 <= end }
        return out
    }
}
