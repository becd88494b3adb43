import Styling
import Typography

/// Floats (CSS 2.1 §9.5) in block flow: each is placed in its block formatting context's
/// exclusions (Exclusions.swift) where its run of inline content starts; lines and boxes that
/// start formatting contexts of their own then take the room the floats leave.
extension LayoutEngine {
    /// A containing block's content box in its formatting context's coordinates.
    struct FloatArea {
        var left, top, width: Double
        var height: Double?
        var right: Double { left + width }
    }

    /// The floats among a run of inline content, in document order, those inside inline
    /// elements too (they belong to the same lines).
    func floats(in nodes: [StyledNode]) -> [StyledElement] {
        var out: [StyledElement] = []
        for case .element(let e) in nodes where e.style.display != .none {
            if e.style.float != nil { out.append(e) } else if e.style.display == .inline { out += floats(in: e.children) }
        }
        return out
    }

    /// Lays out a float shrink-to-fit (§10.3.5) in its containing block and places it (§9.5.1)
    /// no higher than `top` of the content box, below the floats it clears; returns its box,
    /// placed in the coordinates of the box whose flow it is in.
    func placeFloat(_ el: StyledElement, top: Double, in content: FloatArea) -> SceneBox {
        var placed = layoutBox(el, cbWidth: content.width, cbHeight: content.height, shrinkToFit: true, formattingRoot: true)
        let margin = placed.margin, frame = placed.box.frame
        var at = content.top + top
        if let floor = exclusions.bottom(clearing: el.style.clear) { at = max(at, floor) }
        let corner = exclusions.place(el.style.float ?? .left, width: max(0, margin.horizontal + frame.width),
                                      height: max(0, margin.vertical + frame.height), top: at, left: content.left, right: content.right)
        placed.box.frame.x = corner.x - flowOrigin.x + margin.left
        placed.box.frame.y = corner.y - flowOrigin.y + margin.top
        offsetRelative(&placed.box, el.style, cbWidth: content.width, cbHeight: content.height)
        return placed.box
    }

    /// Lays out a box that starts a formatting context of its own where its border box overlaps
    /// no float (§9.5): from `top` down, at the first height where it fits beside the floats, an
    /// auto width filling the room there (its margins may reach under the floats); returns where
    /// its border box goes in the content box.
    func placeBesideFloats(_ el: StyledElement, top: Double, in content: FloatArea, rightToLeft: Bool) -> (Placed, (x: Double, top: Double)) {
        let s = el.style, margin = s.marginEdges(content.width), frame = s.frame(content.width)
        let fills = s.width == .auto && s.aspectRatio == nil && el.element.tag != "img" && el.element.tag != "svg"
        func laidOut(_ room: Exclusions.Room) -> Placed {
            guard room.narrowed, fills else { return layoutBox(el, cbWidth: content.width, cbHeight: content.height) }
            let available = min(room.right, content.right - margin.right) - max(room.left, content.left + margin.left)
            return layoutBox(el, cbWidth: content.width, cbHeight: content.height,
                             forcedWidth: s.clampWidth(max(0, available), cbWidth: content.width, frame: frame.horizontal))
        }
        var y = content.top + top
        while true {
            var room = exclusions.room(top: y, height: 0, left: content.left, right: content.right)
            var placed = laidOut(room)
            // A taller box may reach floats lower down: the room beside all of it.
            let beside = exclusions.room(top: y, height: placed.box.frame.height, left: content.left, right: content.right)
            if beside != room { room = beside; placed = laidOut(room) }
            let w = placed.box.frame.width
            guard room.narrowed else {
                return (placed, (inlineOffset(s, width: w, margin: placed.margin, containerWidth: content.width, rightToLeft: rightToLeft), y - content.top))
            }
            let start = max(room.left, content.left + margin.left), end = min(room.right, content.right - margin.right)
            guard w > end - start + 1e-9, let next = exclusions.nextBottom(after: y) else {
                // Auto margins share what the room leaves (§10.3.3 in the room, as Blink does).
                if s.margin[1] == .auto || s.margin[3] == .auto {
                    let x = inlineOffset(s, width: w, margin: margin, containerWidth: room.width, rightToLeft: rightToLeft)
                    return (placed, (room.left - content.left + x, y - content.top))
                }
                return (placed, ((rightToLeft ? end - w : start) - content.left, y - content.top))
            }
            y = next
        }
    }

    /// A paragraph's lines: one piece at the content box's width where no float reaches it, or
    /// pieces of consecutive lines that share the room beside the floats.
    struct LaidOutLines {
        struct Piece {
            /// nil for lines with nothing to draw (a forced break alone).
            var paragraph: Paragraph?
            /// Where its text starts in the whole paragraph's (Pango's bytes).
            var start: Int
            /// Its frame from the content box's left and the paragraph's top.
            var x, y, width, height: Double
        }
        var pieces: [Piece] = []
        var lineCount = 0, missingGlyphs = 0
        var ellipsized = false
        var height = 0.0
    }

    /// Lays out a paragraph from `top` of the content box. Beside floats, each line is as wide as
    /// the room at its height (§9.5: line boxes are shortened), and one whose first word does not
    /// fit there moves down below the floats until it does or nothing is beside it (unless its
    /// text does not wrap); lines sharing
    /// a room are laid out as one piece, so Pango breaks and draws them as it does a paragraph.
    func layoutLines(_ p: Paragraph, top: Double, in content: FloatArea) -> LaidOutLines {
        var out = LaidOutLines()
        var y = content.top + top, start = 0, budget = p.maxLines
        let total = p.byteCount
        func add(_ part: Paragraph, start: Int, room: Exclusions.Room, width: Double, lines: Int? = nil, height: Double? = nil) {
            var drawn: Paragraph?, h = height ?? 0, count = lines ?? 0
            if !part.runs.isEmpty {
                let metrics = fonts.measure(part)
                h = metrics.height
                count = lines ?? metrics.lineCount
                out.missingGlyphs += metrics.missingGlyphs
                out.ellipsized = out.ellipsized || metrics.ellipsized
                drawn = part
            }
            out.pieces.append(.init(paragraph: drawn, start: start, x: room.left - content.left, y: y - content.top - top, width: width, height: h))
            out.lineCount += count
            y += h
        }
        while start < total {
            var rest = start == 0 ? p : p.slice(start..<total)
            rest.maxLines = budget
            // No float reaches the rest: it is one piece, at the content box's width.
            guard exclusions.intrudes(below: y, left: content.left, right: content.right) else {
                rest.width = content.width
                add(rest, start: start, room: .init(left: content.left, right: content.right, narrowed: false), width: content.width)
                break
            }
            var room = exclusions.room(top: y, height: 0, left: content.left, right: content.right)
            func width(_ room: Exclusions.Room) -> Double { room.narrowed ? room.width : content.width }
            rest.width = width(room)
            var lines = fonts.lines(rest)
            guard let first = lines.first else { break }
            let beside = exclusions.room(top: y, height: first.height, left: content.left, right: content.right)
            if beside != room { room = beside; rest.width = width(room); lines = fonts.lines(rest) }
            // A line that cannot wrap stays, overflowing the room (Blink).
            if room.narrowed, p.wraps, lines[0].width > room.width + 0.01, let next = exclusions.nextBottom(after: y) { y = next; continue }
            // The lines that keep this room; the rest go on in the next piece.
            var taken = 1
            while taken < lines.count,
                  exclusions.room(top: y + lines[taken].top, height: lines[taken].height, left: content.left, right: content.right) == room { taken += 1 }
            let last = lines[taken - 1]
            add(taken == lines.count ? rest : rest.slice(0..<lines[taken].start), start: start, room: room, width: width(room),
                lines: taken == lines.count ? nil : taken, height: last.top + last.height)
            guard taken < lines.count else { break }
            start += lines[taken].start
            budget = budget.map { $0 - taken }
        }
        out.height = y - content.top - top
        return out
    }
}
