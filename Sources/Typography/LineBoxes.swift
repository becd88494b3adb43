internal import CPango

/// The vertical side of a paragraph, as Blink lays it out (CSS 2.1 §10.8): Pango breaks the
/// lines and places glyphs along them; how tall each line box is and where its baseline sits
/// come from Blink's rounded font metrics (FaceMetrics), not from Pango's.
extension FontSystem {
    /// One line box: its top from the paragraph's top, its baseline, keyed by its first byte.
    struct LineBox {
        var start: Int
        var top: Double, baseline: Double, height: Double
    }

    /// One line of a laid-out paragraph: the byte it starts at in the text Pango lays out, its box
    /// from the paragraph's top, and how wide its content is.
    public struct Line: Sendable, Equatable {
        public var start: Int
        public var top: Double, height: Double
        public var width: Double
    }

    /// The paragraph's lines as measure() lays them out, for laying them out apart (beside floats).
    public func lines(_ paragraph: Paragraph) -> [Line] {
        let layout = makeLayout(paragraph)
        defer { cpango_unref(UnsafeMutableRawPointer(layout)) }
        let boxes = lineBoxes(layout, paragraph)
        var widths: [Int: Double] = [:]
        if let iter = pango_layout_get_iter(layout) {
            defer { pango_layout_iter_free(iter) }
            repeat {
                guard let line = pango_layout_iter_get_line_readonly(iter) else { continue }
                var logical = PangoRectangle()
                pango_layout_iter_get_line_extents(iter, nil, &logical)
                widths[Int(line.pointee.start_index)] = Double(logical.width) / Double(PANGO_SCALE)
            } while pango_layout_iter_next_line(iter) != 0
        }
        return boxes.map { Line(start: $0.start, top: $0.top, height: $0.height, width: widths[$0.start] ?? 0) }
    }

    /// CSS `line-height: normal` for this style's first available font.
    public func normalLineHeight(_ style: TextStyle) -> Double { faceMetrics(style).normalLineHeight }

    /// What picks a face and its size.
    struct FaceKey: Hashable {
        var family: String, size: Double, weight: Int, italic: Bool
        var device: DeviceScale
    }

    /// Blink's metrics of the face Pango chooses first for this style, at its size.
    public func faceMetrics(_ style: TextStyle) -> FaceMetrics.Scaled {
        let key = FaceKey(family: style.family, size: style.size, weight: style.weight, italic: style.italic, device: style.deviceScale)
        if let known = metricsCache[key] { return known }
        let description = fontDescription(style)
        defer { pango_font_description_free(description) }
        var face: FaceMetrics?
        if let font = pango_context_load_font(context(language: "en", rightToLeft: false), description) {
            face = FaceMetrics { tag in sfntTable(font, tag) }
            // Held: the font map frees a font nobody holds, and caches here know fonts by address.
            if heldFonts.insert(font).inserted == false { cpango_unref(UnsafeMutableRawPointer(font)) }
        }
        // Every sfnt has head and hhea; a face without them is measured by Pango instead.
        let value = (face ?? pangoFace(style)).scaled(to: style.size, on: style.deviceScale)
        metricsCache[key] = value
        return value
    }

    /// Pango's metrics as a face's, for a font whose tables cannot be read.
    private func pangoFace(_ style: TextStyle) -> FaceMetrics {
        let m = pangoMetrics(style)
        return FaceMetrics(unitsPerEm: style.size, ascender: m.ascent, descender: m.descent, lineGap: 0, xHeight: nil)
    }

    /// Blink's metrics of the face that draws `fallback` at this style's size.
    func fallbackMetrics(_ fallback: Fallback, _ style: TextStyle) -> FaceMetrics.Scaled {
        switch fallback {
        case .emoji:
            let m = emojiExtents(style)
            return FaceMetrics(unitsPerEm: 1, ascender: m.ascent, descender: m.descent, lineGap: 0, xHeight: nil).scaled(to: 1, on: style.deviceScale)
        case .script(let family):
            var probe = style
            probe.family = family
            return faceMetrics(probe)
        }
    }

    /// The line boxes of a laid-out paragraph (CSS 2.1 §10.8.1): each inline box reaches its
    /// font's rounded ascent plus half-leading above the baseline and the rest of its line height
    /// below; a line box runs from the highest top to the lowest bottom, the strut included.
    /// Fallback fonts count only under `line-height: normal`; inline objects by their margin boxes.
    func lineBoxes(_ layout: OpaquePointer, _ p: Paragraph) -> [LineBox] {
        if let known = lineBoxCache[p] { return known }
        let boxes = measureLineBoxes(layout, p)
        lineBoxCache[p] = boxes
        return boxes
    }

    private func measureLineBoxes(_ layout: OpaquePointer, _ p: Paragraph) -> [LineBox] {
        var styles: [(start: Int, end: Int, style: TextStyle)] = []
        var offset = 0
        for run in p.runs {
            let n = run.text.replacingNewlines().utf8.count
            styles.append((offset, offset + n, run.style))
            offset += n
        }
        let strutStyle = p.strut ?? p.runs.first?.style ?? TextStyle()
        let strut = faceMetrics(strutStyle).inlineBox(lineHeight: strutStyle.lineHeight ?? normalLineHeight(strutStyle))
        var reach: [Int: (above: Double, below: Double)] = [:], order: [Int] = []
        guard let iter = pango_layout_get_iter(layout) else { return [] }
        defer { pango_layout_iter_free(iter) }
        repeat {
            guard let line = pango_layout_iter_get_line_readonly(iter) else { continue }
            let key = Int(line.pointee.start_index)
            if reach[key] == nil { reach[key] = strut; order.append(key) }
            guard let run = pango_layout_iter_get_run_readonly(iter), let item = run.pointee.item, let font = item.pointee.analysis.font else { continue }
            let start = Int(item.pointee.offset)
            let box: (above: Double, below: Double)
            if let object = p.objects.first(where: { $0.byteOffset == start }) {
                box = (object.ascent, object.descent)
            } else if let style = styles.first(where: { $0.start <= start && start < $0.end })?.style {
                if let fallback = fallback(of: font), !style.lineHeightIsFixed {
                    let f = fallbackMetrics(fallback, style)
                    box = f.inlineBox(lineHeight: f.normalLineHeight)
                } else {
                    box = faceMetrics(style).inlineBox(lineHeight: style.lineHeight ?? normalLineHeight(style))
                }
            } else { continue }
            let known = reach[key]!
            reach[key] = (max(known.above, box.above), max(known.below, box.below))
        } while pango_layout_iter_next_run(iter) != 0
        var top = 0.0
        return order.map { key in
            let r = reach[key]!
            defer { top += r.above + r.below }
            return LineBox(start: key, top: top, baseline: top + r.above, height: r.above + r.below)
        }
    }

    /// The bytes of one sfnt table of the face that draws `font`; nil when it has none.
    private func sfntTable(_ font: UnsafeMutablePointer<PangoFont>, _ tag: String) -> [UInt8]? {
        guard let hb = pango_font_get_hb_font(font), let face = hb_font_get_face(hb) else { return nil }
        let code = tag.utf8.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        guard let blob = hb_face_reference_table(face, code) else { return nil }
        defer { hb_blob_destroy(blob) }
        var length: UInt32 = 0
        guard let data = hb_blob_get_data(blob, &length), length > 0 else { return nil }
        return data.withMemoryRebound(to: UInt8.self, capacity: Int(length)) { Array(UnsafeBufferPointer(start: $0, count: Int(length))) }
    }
}

extension Array where Element == FontSystem.LineBox {
    /// Each line's baseline by its first byte.
    var baselines: [Int: Double] { Dictionary(map { ($0.start, $0.baseline) }, uniquingKeysWith: { a, _ in a }) }
    var height: Double { last.map { $0.top + $0.height } ?? 0 }
}

extension FontSystem {
    /// What `ch` and `ex` stand for in this style's first available face (CSS Values 4 §6.1.1),
    /// as Blink takes them: the advance of "0", and OS/2's x-height or, when the face gives none,
    /// the top of its "x".
    public func fontRelativeUnits(_ style: TextStyle) -> (ch: Double, ex: Double) {
        var plain = style
        plain.letterSpacing = 0
        plain.lineHeight = nil
        plain.lineHeightIsFixed = false
        let zero = measure(Paragraph(runs: [.init("0", style: plain)])).width
        if let xHeight = faceMetrics(style).xHeight { return (zero, xHeight) }
        let layout = makeLayout(Paragraph(runs: [.init("x", style: plain)]), fallbackRuns: false)
        defer { cpango_unref(UnsafeMutableRawPointer(layout)) }
        var ink = PangoRectangle()
        pango_layout_get_extents(layout, &ink, nil)
        return (zero, Double(pango_layout_get_baseline(layout) - ink.y) / Double(PANGO_SCALE))
    }
}
