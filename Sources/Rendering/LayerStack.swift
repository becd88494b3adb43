internal import CPango
import Imaging
import Layout
import Typography

/// A square picture made of layers, each an image or a vector placed by its centre and scale,
/// in groups, over a background (an app icon made with Icon Composer). Painted with cairo
/// into straight-alpha pixels.
public struct LayerStack: Sendable {
    public enum Paint: Sendable {
        case solid(RGBA)
        /// Colours spread evenly from `start` to `stop`, fractions of the canvas (y down).
        case linear([RGBA], start: (x: Double, y: Double), stop: (x: Double, y: Double))
    }
    public enum Content: Sendable {
        case raster(RGBAImage)
        /// Its frame's size is the layer's size in points.
        case vector(SceneVector)
    }
    public struct Layer: Sendable {
        public var content: Content
        /// The layer's centre, in points from the canvas's centre (y down).
        public var offset: (x: Double, y: Double)
        public var scale: Double
        public var opacity: Double
        /// Paints the layer's shape (its alpha) in this paint instead of its own colours.
        public var tint: Paint?
        public var blendMode: String
        public init(content: Content, offset: (x: Double, y: Double), scale: Double, opacity: Double, tint: Paint?, blendMode: String) {
            self.content = content; self.offset = offset; self.scale = scale; self.opacity = opacity; self.tint = tint; self.blendMode = blendMode
        }
    }
    public struct Group: Sendable {
        public var opacity: Double
        public var blendMode: String
        /// Back to front.
        public var layers: [Layer]
        public init(opacity: Double, blendMode: String, layers: [Layer]) { self.opacity = opacity; self.blendMode = blendMode; self.layers = layers }
    }

    /// The canvas's side, in points.
    public var side: Double
    public var background: Paint?
    /// Back to front.
    public var groups: [Group]
    public init(side: Double, background: Paint?, groups: [Group]) { self.side = side; self.background = background; self.groups = groups }

    /// The picture at `pixels` × `pixels`. Each layer, and each group, is composited as a unit
    /// (its opacity and blend mode apply to it as a whole, as Core Graphics transparency layers do).
    public func paint(pixels: Int) -> RGBAImage {
        let n = Int32(max(1, min(pixels, 4096)))
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, n, n)!
        defer { cairo_surface_destroy(surface) }
        let cr = cairo_create(surface)!
        cairo_scale(cr, Double(n) / side, Double(n) / side)
        if let background { set(background, cr); cairo_paint(cr) }
        for group in groups {
            cairo_push_group(cr)
            for layer in group.layers {
                cairo_push_group(cr)
                if let tint = layer.tint {
                    cairo_push_group(cr)
                    draw(layer, cr)
                    let shape = cairo_pop_group(cr)
                    set(tint, cr)
                    cairo_mask(cr, shape)
                    cairo_pattern_destroy(shape)
                } else { draw(layer, cr) }
                composite(cr, layer.opacity, layer.blendMode)
            }
            composite(cr, group.opacity, group.blendMode)
        }
        cairo_destroy(cr)
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        let data = cairo_image_surface_get_data(surface)!
        return RGBAImage(argb32: [UInt8](UnsafeBufferPointer(start: data, count: stride * Int(n))), width: Int(n), height: Int(n), stride: stride)
    }

    private func draw(_ layer: Layer, _ cr: OpaquePointer) {
        cairo_save(cr)
        cairo_translate(cr, side / 2 + layer.offset.x, side / 2 + layer.offset.y)
        cairo_scale(cr, max(layer.scale, 1e-6), max(layer.scale, 1e-6))
        switch layer.content {
        case .raster(let image):
            // A PNG layer is as many points as it has pixels (a 1024 px image fills the canvas).
            cairo_translate(cr, -Double(image.width) / 2, -Double(image.height) / 2)
            let stride = Int(cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, Int32(image.width)))
            var argb = image.argb32(stride: stride)
            argb.withUnsafeMutableBufferPointer { buffer in
                let source = cairo_image_surface_create_for_data(buffer.baseAddress, CAIRO_FORMAT_ARGB32, Int32(image.width), Int32(image.height), Int32(stride))!
                cairo_set_source_surface(cr, source, 0, 0)
                cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
                cairo_paint(cr)
                cairo_set_source_rgba(cr, 0, 0, 0, 0) // the pixels are freed after this closure
                cairo_surface_destroy(source)
            }
        case .vector(let vector):
            cairo_translate(cr, -vector.frame.width / 2, -vector.frame.height / 2)
            paintVector(vector, cr)
        }
        cairo_restore(cr)
    }

    /// Pops the group being drawn and paints it with `opacity` under `mode`.
    private func composite(_ cr: OpaquePointer, _ opacity: Double, _ mode: String) {
        cairo_pop_group_to_source(cr)
        cairo_set_operator(cr, Self.operators[mode] ?? CAIRO_OPERATOR_OVER)
        cairo_paint_with_alpha(cr, min(max(opacity, 0), 1))
        cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
    }

    private func set(_ paint: Paint, _ cr: OpaquePointer) {
        switch paint {
        case .solid(let c): setColor(cr, c)
        case .linear(let colours, let start, let stop):
            let pattern = cairo_pattern_create_linear(start.x * side, start.y * side, stop.x * side, stop.y * side)!
            for (i, c) in colours.enumerated() {
                cairo_pattern_add_color_stop_rgba(pattern, colours.count > 1 ? Double(i) / Double(colours.count - 1) : 0, c.r, c.g, c.b, c.a)
            }
            cairo_set_source(cr, pattern)
            cairo_pattern_destroy(pattern)
        }
    }

    /// Core Graphics' blend modes as cairo names them (plus-lighter is cairo's ADD).
    static let operators: [String: cairo_operator_t] = [
        "normal": CAIRO_OPERATOR_OVER, "multiply": CAIRO_OPERATOR_MULTIPLY, "screen": CAIRO_OPERATOR_SCREEN, "overlay": CAIRO_OPERATOR_OVERLAY,
        "darken": CAIRO_OPERATOR_DARKEN, "lighten": CAIRO_OPERATOR_LIGHTEN, "color-dodge": CAIRO_OPERATOR_COLOR_DODGE,
        "color-burn": CAIRO_OPERATOR_COLOR_BURN, "soft-light": CAIRO_OPERATOR_SOFT_LIGHT, "hard-light": CAIRO_OPERATOR_HARD_LIGHT,
        "difference": CAIRO_OPERATOR_DIFFERENCE, "exclusion": CAIRO_OPERATOR_EXCLUSION, "hue": CAIRO_OPERATOR_HSL_HUE,
        "saturation": CAIRO_OPERATOR_HSL_SATURATION, "color": CAIRO_OPERATOR_HSL_COLOR, "luminosity": CAIRO_OPERATOR_HSL_LUMINOSITY,
        "plus-lighter": CAIRO_OPERATOR_ADD,
    ]
}
