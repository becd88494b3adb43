internal import CPango
import Layout

/// Paints an inline SVG: the viewBox fitted into the content box (xMidYMid meet), each shape
/// filled then stroked under its own transform.
func paintVector(_ v: SceneVector, _ cr: OpaquePointer) {
    guard v.frame.width > 0, v.frame.height > 0 else { return }
    cairo_save(cr)
    cairo_rectangle(cr, v.frame.x, v.frame.y, v.frame.width, v.frame.height)
    cairo_clip(cr)
    cairo_translate(cr, v.frame.x, v.frame.y)
    if let box = v.viewBox {
        let s = min(v.frame.width / box.width, v.frame.height / box.height)
        cairo_translate(cr, (v.frame.width - box.width * s) / 2, (v.frame.height - box.height * s) / 2)
        cairo_scale(cr, s, s)
        cairo_translate(cr, -box.x, -box.y)
    }
    for shape in v.shapes {
        cairo_save(cr)
        var m = cairo_matrix_t(xx: shape.transform[0], yx: shape.transform[1], xy: shape.transform[2],
                               yy: shape.transform[3], x0: shape.transform[4], y0: shape.transform[5])
        cairo_transform(cr, &m)
        cairo_new_path(cr)
        for c in shape.commands {
            switch c {
            case .move(let x, let y): cairo_move_to(cr, x, y)
            case .line(let x, let y): cairo_line_to(cr, x, y)
            case .curve(let x1, let y1, let x2, let y2, let x, let y): cairo_curve_to(cr, x1, y1, x2, y2, x, y)
            case .close: cairo_close_path(cr)
            }
        }
        if let fill = shape.fill, fill.a > 0 {
            cairo_set_fill_rule(cr, shape.evenOdd ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING)
            setColor(cr, fill)
            cairo_fill_preserve(cr)
        }
        if let stroke = shape.stroke, stroke.a > 0, shape.strokeWidth > 0 {
            cairo_set_line_width(cr, shape.strokeWidth)
            cairo_set_line_cap(cr, shape.lineCap == "round" ? CAIRO_LINE_CAP_ROUND : shape.lineCap == "square" ? CAIRO_LINE_CAP_SQUARE : CAIRO_LINE_CAP_BUTT)
            cairo_set_line_join(cr, shape.lineJoin == "round" ? CAIRO_LINE_JOIN_ROUND : shape.lineJoin == "bevel" ? CAIRO_LINE_JOIN_BEVEL : CAIRO_LINE_JOIN_MITER)
            setColor(cr, stroke)
            cairo_stroke_preserve(cr)
        }
        cairo_new_path(cr)
        cairo_restore(cr)
    }
    cairo_restore(cr)
}
