internal import CPango
import Checked
import Imaging
import Layout
import Styling
import Typography

/// Paints a Scene with cairo (text through Pango) at a device scale, the PNG backend.
public struct PNGPainter {
    public let fonts: FontSystem
    public let images: ImageStore
    public let scale: Int

    public init(fonts: FontSystem, images: ImageStore, scale: Int) {
        self.fonts = fonts; self.images = images; self.scale = scale
    }

    /// The tallest page drawn (pt): taller than any screen, and it bounds a page's pixels.
    static let maxPageHeight = 10_000.0
    /// The most background tiles one box draws.
    static let maxTiles = 10_000

    /// Problems met while painting (an image that failed to decode), for the mock-up's report.
    public struct Result { public var image: RGBAImage; public var warnings: [String] }

    public func paint(_ scene: Scene, background: RGBA) -> Result {
        let (surface, warnings) = surface(scene, background: background)
        defer { cairo_surface_destroy(surface) }
        let stride = Int(cairo_image_surface_get_stride(surface)), w = Int(cairo_image_surface_get_width(surface)), h = Int(cairo_image_surface_get_height(surface))
        let argb = Array(UnsafeBufferPointer(start: cairo_image_surface_get_data(surface)!, count: stride * h))
        return Result(image: RGBAImage(argb32: argb, width: w, height: h, stride: stride), warnings: warnings)
    }

    /// Paints and encodes to PNG in one go. An opaque page (the usual case: a mock-up has a
    /// background) is encoded straight from cairo's rows, without an RGBA copy.
    public func paintPNG(_ scene: Scene, background: RGBA, compressionLevel: Int, filters: Int32) throws(ImagingError) -> (png: [UInt8], warnings: [String]) {
        #if _endian(little)
        if background.a >= 1 {
            let (surface, warnings) = surface(scene, background: background)
            defer { cairo_surface_destroy(surface) }
            let png = try PNGCodec.encodeOpaqueBGRA(cairo_image_surface_get_data(surface)!, width: Int(cairo_image_surface_get_width(surface)),
                                                    height: Int(cairo_image_surface_get_height(surface)), stride: Int(cairo_image_surface_get_stride(surface)),
                                                    scale: scale)
            return (png, warnings)
        }
        #endif
        let painted = paint(scene, background: background)
        return (try PNGCodec.encode(painted.image, scale: scale, compressionLevel: compressionLevel, filters: filters), painted.warnings)
    }

    private func surface(_ scene: Scene, background: RGBA) -> (OpaquePointer, [String]) {
        var warnings: [String] = []
        if scene.height > Self.maxPageHeight {
            warnings.append("the page is \(Int(saturating: scene.height)) pt tall; only its first \(Int(Self.maxPageHeight)) pt are drawn")
        }
        // Device pixels rounded to the nearest, as Chromium sizes a screenshot (a 301.2 pt page at
        // @2x is 602 rows there, not 603).
        let w = max(1, Int(saturating: min(scene.width, Self.maxPageHeight) * Double(scale), rounded: .toNearestOrAwayFromZero))
        let h = max(1, Int(saturating: min(scene.height, Self.maxPageHeight) * Double(scale), rounded: .toNearestOrAwayFromZero))
        // The pixels are ours, not cairo's: cairo clears a new surface, and an opaque background
        // is about to cover every pixel anyway (clearing was a twentieth of a gallery's time).
        let stride = Int(cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, Int32(w)))
        let pixels = background.a >= 1 ? malloc(stride * h)! : calloc(stride * h, 1)!
        let surface = cairo_image_surface_create_for_data(pixels.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32, Int32(w), Int32(h), Int32(stride))!
        cairo_surface_set_user_data(surface, surfacePixelsKey, pixels) { free($0) }
        let cr = cairo_create(surface)!
        cairo_scale(cr, Double(scale), Double(scale))
        setColor(cr, background)
        cairo_paint(cr)
        draw(scene.root, cr, &warnings)
        cairo_destroy(cr)
        cairo_surface_flush(surface)
        return (surface, warnings)
    }

    /// One box as a browser composites it: its transform; the backdrop blurred behind it; then
    /// the box and its content (blurred if it has a filter), at its opacity.
    /// `floatsPainted`: an ancestor paints the floats in it (paintContents).
    private func draw(_ box: SceneBox, _ cr: OpaquePointer, _ warnings: inout [String], floatsPainted: Bool = false) {
        cairo_save(cr)
        cairo_translate(cr, box.frame.x, box.frame.y)
        if let t = box.transform {
            // A degenerate transform (scale(0)) shows nothing; an enormous one would put cairo's
            // context in an error state and lose the rest of the page.
            var m = cairo_matrix_t(xx: t.a, yx: t.b, xy: t.c, yy: t.d, x0: t.tx, y0: t.ty), inverse = m
            guard [t.a, t.b, t.c, t.d, t.tx, t.ty].allSatisfy({ abs($0) < 1e6 }), cairo_matrix_invert(&inverse) == CAIRO_STATUS_SUCCESS,
                  abs(t.a * t.d - t.b * t.c) > 1e-9 else { return cairo_restore(cr) }
            cairo_transform(cr, &m)
        }
        if let sigma = box.backdropBlur { paintBackdrop(box, cr, sigma: sigma, tone: box.backdropTone ?? BackdropTone()) }
        if box.opacity < 1 { cairo_push_group(cr) }
        if let sigma = box.filterBlur, sigma > 0 {
            var inner = warnings
            let layer = blurredLayer(cr, bounds: visualBounds(box), sigma: sigma) { paintContents(box, cr, &inner, floatsPainted: floatsPainted) }
            warnings = inner
            cairo_set_source(cr, layer)
            cairo_paint(cr)
            cairo_pattern_destroy(layer)
        } else {
            paintContents(box, cr, &warnings, floatsPainted: floatsPainted)
        }
        if box.opacity < 1 {
            cairo_pop_group_to_source(cr)
            cairo_paint_with_alpha(cr, box.opacity)
        }
        cairo_restore(cr)
    }

    /// Shadows, backgrounds, inset shadows, borders, then the content: in-flow first, then
    /// floats, then positioned and layered boxes (CSS 2.1 Appendix E). The floats are this box's
    /// and those of the in-flow boxes in it that paint with it (no clip, layer or float of their
    /// own), so a float is above a later box its float overlaps, as in a browser.
    private func paintContents(_ box: SceneBox, _ cr: OpaquePointer, _ warnings: inout [String], floatsPainted: Bool = false) {
        let (w, h) = (box.frame.width, box.frame.height)
        paintShadows(box, cr, scale: Double(scale))
        if box.background.a > 0 {
            roundedRect(cr, 0, 0, w, h, box.radii, shapes: box.cornerShapes)
            setColor(cr, box.background)
            cairo_fill(cr)
        }
        if let gradient = box.gradient {
            if let tile = box.gradientTile { paintGradientTiles(gradient, tile, cr, width: w, height: h, radii: box.radii, shapes: box.cornerShapes) }
            else { paintGradient(gradient, cr, width: w, height: h, radii: box.radii, shapes: box.cornerShapes) }
        }
        if let background = box.backgroundImage {
            do { try drawBackground(background, box: box, cr, &warnings) } catch { warnings.append("background \(background.source): \(error)") }
        }
        if box.shadows.contains(where: \.inset) { paintInsetShadows(box, cr, innerRadii: innerRadii(box)) }
        drawBorders(box, cr)
        cairo_save(cr)
        if box.clipsContent && ClipCheck.needed(box, innerRadii: innerRadii(box)) {
            let b = box.borderWidths
            roundedRect(cr, b[3], b[0], w - b[1] - b[3], h - b[0] - b[2], innerRadii(box), shapes: box.cornerShapes)
            cairo_clip(cr)
        }
        var inFlow: [SceneItem] = [], floats: [(box: SceneBox, x: Double, y: Double)] = [], positioned: [SceneBox] = []
        for item in box.items {
            if case .box(let b) = item, b.isPositioned { positioned.append(b) }
            else if case .box(let b) = item, b.isFloat { floats.append((b, 0, 0)) }
            else { inFlow.append(item) }
        }
        func paintsWith(_ b: SceneBox) -> Bool { !b.clipsContent && !b.isFloat && !b.isPositioned && b.layering == nil && b.opacity >= 1 }
        func collectFloats(_ b: SceneBox, _ x: Double, _ y: Double) {
            for case .box(let child) in b.items where !child.isPositioned {
                if child.isFloat { floats.append((child, x, y)) } else if paintsWith(child) { collectFloats(child, x + child.frame.x, y + child.frame.y) }
            }
        }
        if floatsPainted { floats = [] } else {
            for case .box(let child) in inFlow where paintsWith(child) { collectFloats(child, child.frame.x, child.frame.y) }
        }
        // Layers in document order, wherever layout put them (absolute boxes join their
        // containing block after its in-flow content).
        if !zip(positioned, positioned.dropFirst()).allSatisfy({ $0.serial <= $1.serial }) {
            positioned = positioned.enumerated().sorted { ($0.element.serial, $0.offset) < ($1.element.serial, $1.offset) }.map(\.element)
        }
        for item in inFlow {
            switch item {
            case .box(let child): draw(child, cr, &warnings, floatsPainted: paintsWith(child))
            case .text(let text):
                paintTextShadows(text, cr)
                fonts.draw(text.paragraph, cairo: cr, x: text.frame.x, y: text.frame.y)
            case .image(let image):
                do { try drawImage(image, cr) } catch { warnings.append("image \(image.source): \(error)") }
            case .vector(let vector): paintVector(vector, cr)
            }
        }
        for float in floats {
            cairo_save(cr)
            cairo_translate(cr, float.x, float.y)
            draw(float.box, cr, &warnings)
            cairo_restore(cr)
        }
        for child in positioned { draw(child, cr, &warnings) }
        cairo_restore(cr)
    }

    /// text-shadow (Text Decoration 3 §4), the first on top: the text's own shape, moved,
    /// blurred with σ = blur / 2 and filled with the shadow's colour.
    private func paintTextShadows(_ text: SceneText, _ cr: OpaquePointer) {
        for shadow in text.shadows.reversed() where shadow.color.a > 0 {
            let bounds = Rect(x: text.frame.x + shadow.x, y: text.frame.y + shadow.y - text.frame.height / 2,
                              width: text.frame.width, height: text.frame.height * 2)
            let layer = blurredLayer(cr, bounds: bounds, sigma: shadow.blur / 2) {
                fonts.draw(text.paragraph, cairo: cr, x: text.frame.x + shadow.x, y: text.frame.y + shadow.y)
            }
            setColor(cr, shadow.color)
            cairo_mask(cr, layer)
            cairo_pattern_destroy(layer)
        }
    }

    /// The part of its own coordinates a box and everything in it can paint: for the extent
    /// of a filter's layer.
    private func visualBounds(_ box: SceneBox) -> Rect {
        var x0 = 0.0, y0 = 0.0, x1 = box.frame.width, y1 = box.frame.height
        for s in box.shadows where !s.inset {
            let reach = s.blur * 1.5 + s.spread
            x0 = min(x0, s.x - reach); y0 = min(y0, s.y - reach); x1 = max(x1, box.frame.width + s.x + reach); y1 = max(y1, box.frame.height + s.y + reach)
        }
        if !box.clipsContent {
            for item in box.items {
                let r: Rect
                switch item {
                case .box(let child): let b = visualBounds(child); r = child.transform == nil ? Rect(x: child.frame.x + b.x, y: child.frame.y + b.y, width: b.width, height: b.height) : Rect(x: -10_000, y: -10_000, width: 20_000, height: 20_000)
                case .text(let t): r = Rect(x: t.frame.x, y: t.frame.y - t.frame.height, width: t.frame.width, height: t.frame.height * 3)
                case .image(let i): r = i.frame
                case .vector(let v): r = v.frame
                }
                x0 = min(x0, r.x); y0 = min(y0, r.y); x1 = max(x1, r.x + r.width); y1 = max(y1, r.y + r.height)
            }
        }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// Borders (Backgrounds 3 §4): the ring between the outer and inner rounded rectangles;
    /// with different colours per side, each side's trapezoid inside that ring.
    private func drawBorders(_ box: SceneBox, _ cr: OpaquePointer) {
        let b = box.borderWidths
        guard b.contains(where: { $0 > 0 }) else { return }
        let (w, h) = (box.frame.width, box.frame.height)
        cairo_save(cr)
        cairo_set_fill_rule(cr, CAIRO_FILL_RULE_EVEN_ODD)
        roundedRect(cr, 0, 0, w, h, box.radii, shapes: box.cornerShapes)
        roundedRect(cr, b[3], b[0], w - b[1] - b[3], h - b[0] - b[2], innerRadii(box), shapes: box.cornerShapes)
        if Set(box.borderColors.indices.filter { b[$0] > 0 }.map { box.borderColors[$0] }).count <= 1 {
            setColor(cr, box.borderColors[b.firstIndex { $0 > 0 }!])
            cairo_fill(cr)
        } else {
            cairo_clip(cr)
            let sides: [[(Double, Double)]] = [
                [(0, 0), (w, 0), (w - b[1], b[0]), (b[3], b[0])],
                [(w, 0), (w, h), (w - b[1], h - b[2]), (w - b[1], b[0])],
                [(w, h), (0, h), (b[3], h - b[2]), (w - b[1], h - b[2])],
                [(0, h), (0, 0), (b[3], b[0]), (b[3], h - b[2])],
            ]
            for (i, points) in sides.enumerated() where b[i] > 0 {
                cairo_move_to(cr, points[0].0, points[0].1)
                for p in points.dropFirst() { cairo_line_to(cr, p.0, p.1) }
                cairo_close_path(cr)
                setColor(cr, box.borderColors[i])
                cairo_fill(cr)
            }
        }
        cairo_restore(cr)
    }

    private func innerRadii(_ box: SceneBox) -> [Double] {
        let b = box.borderWidths
        return [max(0, box.radii[0] - max(b[3], b[0])), max(0, box.radii[1] - max(b[1], b[0])),
                max(0, box.radii[2] - max(b[1], b[2])), max(0, box.radii[3] - max(b[3], b[2]))]
    }

    /// object-fit and object-position (CSS Images 3 §5.5, §5.6).
    private func drawImage(_ image: SceneImage, _ cr: OpaquePointer) throws(ImagingError) {
        let box = image.frame
        guard box.width > 0, box.height > 0, image.intrinsicWidth > 0, image.intrinsicHeight > 0 else { return }
        let (iw, ih) = (image.intrinsicWidth, image.intrinsicHeight)
        var sx = box.width / iw, sy = box.height / ih
        switch image.fit {
        case .fill: break
        case .contain: sx = min(sx, sy); sy = sx
        case .cover: sx = max(sx, sy); sy = sx
        case .none: sx = 1; sy = 1
        case .scaleDown: sx = min(1, min(sx, sy)); sy = sx
        }
        let dw = iw * sx, dh = ih * sy
        func offset(_ l: Length, _ free: Double) -> Double {
            if case .percent(let p) = l { return free * p / 100 }
            return l.resolve(free) ?? free / 2
        }
        let dest = Rect(x: box.x + offset(image.position[0], box.width - dw), y: box.y + offset(image.position[1], box.height - dh), width: dw, height: dh)
        try drawImage(image.source, into: dest, clip: box, radii: image.radii, cr)
    }

    /// Background image tiles, clipped to the border box (Backgrounds 3 §3).
    private func drawBackground(_ bg: BackgroundImage, box: SceneBox, _ cr: OpaquePointer, _ warnings: inout [String]) throws(ImagingError) {
        let clip = Rect(x: 0, y: 0, width: box.frame.width, height: box.frame.height)
        guard bg.tile.width > 0.01, bg.tile.height > 0.01 else { return }
        guard bg.repeats else { return try drawImage(bg.source, into: bg.tile, clip: clip, radii: box.radii, cr) }
        let tiles = (clip.width / bg.tile.width + 1).rounded(.up) * (clip.height / bg.tile.height + 1).rounded(.up)
        guard tiles <= Double(Self.maxTiles) else {
            return warnings.append("background \(bg.source.prefix(80)): \(Int(saturating: tiles)) tiles of \(bg.tile.width)×\(bg.tile.height) pt is more than \(Self.maxTiles); not drawn")
        }
        var y = bg.tile.y - (bg.tile.y / bg.tile.height).rounded(.up) * bg.tile.height
        while y < clip.height {
            var x = bg.tile.x - (bg.tile.x / bg.tile.width).rounded(.up) * bg.tile.width
            while x < clip.width {
                try drawImage(bg.source, into: Rect(x: x, y: y, width: bg.tile.width, height: bg.tile.height), clip: clip, radii: box.radii, cr)
                x += bg.tile.width
            }
            y += bg.tile.height
        }
    }

    /// Draws `source` scaled into `dest`, showing only what falls inside `clip` (with rounded
    /// corners). Only that part is resampled, straight to device pixels, so cairo never scales it.
    private func drawImage(_ source: String, into dest: Rect, clip box: Rect, radii: [Double], _ cr: OpaquePointer) throws(ImagingError) {
        guard let size = images.size(of: source), size.width > 0, size.height > 0 else { return }
        var ctm = cairo_matrix_t()
        cairo_get_matrix(cr, &ctm)
        if ctm.xy != 0 || ctm.yx != 0 || ctm.xx != Double(scale) || ctm.yy != Double(scale) {
            return try drawTransformedImage(source, size: size, into: dest, clip: box, radii: radii, cr, ctm: ctm)
        }
        let sx = dest.width / size.width, sy = dest.height / size.height
        var ux = 0.0, uy = 0.0
        cairo_user_to_device(cr, &ux, &uy)
        let s = Double(scale)
        let left = max(dest.x, box.x), top = max(dest.y, box.y)
        let right = min(dest.x + dest.width, box.x + box.width), bottom = min(dest.y + dest.height, box.y + box.height)
        var px0 = (ux + left * s).rounded(), py0 = (uy + top * s).rounded()
        var px1 = (ux + right * s).rounded(), py1 = (uy + bottom * s).rounded()
        // Only the device pixels the page has are resampled, however large the image is drawn.
        let target = cairo_get_target(cr)  // the page surface: device space, even inside a group
        if cairo_surface_get_type(target) == CAIRO_SURFACE_TYPE_IMAGE {
            px0 = max(px0, 0); py0 = max(py0, 0)
            px1 = min(px1, Double(cairo_image_surface_get_width(target))); py1 = min(py1, Double(cairo_image_surface_get_height(target)))
        }
        guard px1 > px0, py1 > py0 else { return }
        // Back to image pixels for exactly that device rectangle.
        let rect = Resampler.Rect(x: ((px0 - ux) / s - dest.x) / sx, y: ((py0 - uy) / s - dest.y) / sy,
                                  width: (px1 - px0) / s / sx, height: (py1 - py0) / s / sy)
        guard let pixels = try images.pixels(source, rect: rect, width: Int(saturating: px1 - px0), height: Int(saturating: py1 - py0)) else { return }
        paint(pixels, clip: box, radii: radii, cr) { surface in
            cairo_identity_matrix(cr)
            cairo_set_source_surface(cr, surface, px0, py0)
        }
    }

    /// Paints decoded pixels inside the rounded `box`; `source` makes them cairo's source,
    /// placed on the page.
    fileprivate func paint(_ pixels: RGBAImage, clip box: Rect, radii: [Double], _ cr: OpaquePointer, source: (OpaquePointer) -> Void) {
        let stride = Int(cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, Int32(pixels.width)))
        var argb = pixels.argb32(stride: stride)
        argb.withUnsafeMutableBufferPointer { buffer in
            let surface = cairo_image_surface_create_for_data(buffer.baseAddress, CAIRO_FORMAT_ARGB32, Int32(pixels.width), Int32(pixels.height), Int32(stride))!
            cairo_save(cr)
            roundedRect(cr, box.x, box.y, box.width, box.height, radii)
            cairo_clip(cr)
            source(surface)
            cairo_paint(cr)
            cairo_restore(cr)
            cairo_surface_destroy(surface)
        }
    }
}

extension PNGPainter {
    /// An image under a transform that rotates, skews or scales: resampled once to the size
    /// it covers on the page, then drawn through the transform by cairo.
    fileprivate func drawTransformedImage(_ source: String, size: (width: Double, height: Double), into dest: Rect, clip box: Rect,
                                          radii: [Double], _ cr: OpaquePointer, ctm: cairo_matrix_t) throws(ImagingError) {
        let factor = abs(ctm.xx * ctm.yy - ctm.xy * ctm.yx).squareRoot()
        let pw = Int(saturating: min(4096, dest.width * factor), rounded: .up), ph = Int(saturating: min(4096, dest.height * factor), rounded: .up)
        guard pw > 0, ph > 0, let pixels = try images.pixels(source, rect: Resampler.Rect(x: 0, y: 0, width: size.width, height: size.height), width: pw, height: ph) else { return }
        paint(pixels, clip: box, radii: radii, cr) { surface in
            cairo_translate(cr, dest.x, dest.y)
            cairo_scale(cr, dest.width / Double(pixels.width), dest.height / Double(pixels.height))
            cairo_set_source_surface(cr, surface, 0, 0)
            cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
        }
    }
}

/// Where a surface made by `PNGPainter` keeps the pixels it frees when destroyed.
private nonisolated(unsafe) let surfacePixelsKey = UnsafeMutablePointer<cairo_user_data_key_t>.allocate(capacity: 1)

func setColor(_ cr: OpaquePointer, _ c: RGBA) { cairo_set_source_rgba(cr, c.r, c.g, c.b, c.a) }
