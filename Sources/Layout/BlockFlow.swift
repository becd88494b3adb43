import Styling
import Typography

/// Block flow (CSS 2.1 §9.4.1, §8.3.1): block boxes stacked with their margins collapsed, and
/// runs of inline content between them as paragraphs.
extension LayoutEngine {
    /// Block flow: block-level children stacked with their vertical margins collapsed
    /// (§8.3.1, between siblings); runs of inline content become anonymous paragraphs, their
    /// lines beside the floats of the formatting context (Floats.swift).
    func layoutFlow(_ el: StyledElement, contentWidth: Double, contentHeight: Double?, origin: (Double, Double),
                    collapseTop: Bool = false, collapseBottom: Bool = false)
        -> (items: [SceneItem], height: Double, leading: AdjoiningMargins, trailing: AdjoiningMargins, staticTops: [Int: Double], clampEnd: Double?) {
        var items: [SceneItem] = []
        var staticTops: [Int: Double] = [:]
        var y = 0.0
        var pending = AdjoiningMargins(), leading = AdjoiningMargins()
        var atTop = collapseTop
        var inline: [StyledNode] = []
        var clampEnd: Double?
        // The content box in the formatting context's coordinates, where floats are.
        let content = FloatArea(left: flowOrigin.x + origin.0, top: flowOrigin.y + origin.1, width: contentWidth, height: contentHeight)

        func flushInline() {
            defer { inline.removeAll() }
            // Floats in the run go first, at the top of the line they are in (the run's first).
            for float in floats(in: inline) { items.append(.box(placeFloat(float, top: y + pending.value, in: content))) }
            var boxes: [Int: Placed] = [:]
            guard var paragraph = makeParagraph(inline, container: el.style, width: contentWidth, boxes: &boxes) else { return }
            // Under a clamp, the lines left; past its last line every block is one line tall (Blink).
            let budget = lineBudget
            if let budget { paragraph.maxLines = max(budget, 1) }
            // Cut after the last shown line's last word, as Blink ends a clamp (no second ellipsis then).
            let clamped = fonts.clampedAtLineEnd(paragraph)
            if let clamped { paragraph = clamped }
            let top = y + pending.value
            var lines = layoutLines(paragraph, top: top, in: content)
            if let budget, budget > 0, clampEllipsis, clamped == nil, lines.lineCount == budget, !lines.ellipsized, let last = paragraph.runs.indices.last {
                paragraph.runs[last].text += "\u{2026}"
                lines = layoutLines(paragraph, top: top, in: content)
            }
            missingGlyphs += lines.missingGlyphs
            y = top
            pending = AdjoiningMargins()
            atTop = false
            if let budget {
                lineBudget = max(0, budget - lines.lineCount)
                if budget > 0, lineBudget == 0, clampEnd == nil { clampEnd = y + lines.height }
            }
            for piece in lines.pieces {
                guard let part = piece.paragraph else { continue }
                for (offset, at) in fonts.objectOrigins(part) {
                    guard var placed = boxes[piece.start + offset] else { continue }
                    placed.box.frame.x = origin.0 + piece.x + at.x + placed.margin.left
                    placed.box.frame.y = origin.1 + y + piece.y + at.y + placed.margin.top
                    items.append(.box(placed.box))
                }
                items.append(.text(SceneText(frame: Rect(x: origin.0 + piece.x, y: origin.1 + y + piece.y, width: piece.width, height: piece.height),
                                             paragraph: part, shadows: el.style.textShadows)))
            }
            y += lines.height
        }

        for child in splittingInlines(el.children) {
            // A float is block-level but out of flow: it neither ends a run of inline content nor
            // takes part in margin collapsing.
            guard case .element(let c) = child, isBlockLevel(c), c.style.float == nil else { inline.append(child); continue }
            if c.style.display == .none { continue }
            flushInline()
            if c.style.position == .absolute { staticTops[c.serial] = origin.1 + y + pending.value; continue }
            // Where its border box goes with its top margin collapsed (checked once it is laid out),
            // or below the floats it clears (§9.5.2).
            var hypothetical = pending
            addTopMargins(of: c, cbWidth: contentWidth, to: &hypothetical)
            var top = atTop ? y : y + hypothetical.value
            var cleared = false
            if let floor = exclusions.bottom(clearing: c.style.clear).map({ $0 - content.top }), floor > top {
                top = floor
                cleared = true
            }
            var placed: Placed, besideFloats: (x: Double, top: Double)?
            if startsFormattingContext(c, formattingRoot: false, shrinkToFit: false), !exclusions.isEmpty {
                (placed, besideFloats) = placeBesideFloats(c, top: top, in: content, rightToLeft: el.style.rightToLeft)
            } else {
                let before = exclusions
                func slot(_ top: Double) -> FlowSlot { FlowSlot(left: content.left, width: contentWidth, top: content.top + top, rightToLeft: el.style.rightToLeft) }
                placed = layoutBox(c, cbWidth: contentWidth, cbHeight: contentHeight, slot: slot(top))
                var collapsed = pending
                collapsed.add(placed.adjoiningTop)
                if !cleared, !atTop, y + collapsed.value != top, !(before.isEmpty && exclusions.isEmpty) {
                    // Margins from inside it moved it: its lines and floats go again from there.
                    exclusions = before
                    placed = layoutBox(c, cbWidth: contentWidth, cbHeight: contentHeight, slot: slot(y + collapsed.value))
                }
            }
            if !cleared, besideFloats == nil, collapsesThrough(c, placed) {
                // An empty box's own margins adjoin, and join those around it (§8.3.1).
                // Its border edge sits where its top margin alone would put it.
                var above = pending
                above.add(placed.adjoiningTop)
                placed.box.frame.x = origin.0 + placed.margin.left
                placed.box.frame.y = origin.1 + y + (atTop ? 0 : above.value)
                if atTop { leading.add(placed.adjoiningTop); leading.add(placed.adjoiningBottom) } else { pending.add(placed.adjoiningTop); pending.add(placed.adjoiningBottom) }
                items.append(.box(placed.box))
                continue
            }
            if let moved = besideFloats?.top, moved > top || cleared {
                // Clearance, or the room below floats: the border box goes there, and the margins
                // above it collapse no more (§9.5.2).
                y = max(moved, top)
                atTop = false
            } else if cleared {
                y = top
                atTop = false
            } else if atTop {
                // The first child's top margin leaves through the parent's top.
                leading.add(placed.adjoiningTop)
                atTop = false
            } else {
                pending.add(placed.adjoiningTop)
                y += pending.value
            }
            let x = besideFloats?.x ?? inlineOffset(c.style, width: placed.box.frame.width, margin: placed.margin,
                                                   containerWidth: contentWidth, rightToLeft: el.style.rightToLeft)
            placed.box.frame.x = origin.0 + x
            placed.box.frame.y = origin.1 + y
            if clampEnd == nil, let end = placed.clampEnd { clampEnd = y + end }
            offsetRelative(&placed.box, c.style, cbWidth: contentWidth, cbHeight: contentHeight)
            items.append(.box(placed.box))
            y += placed.box.frame.height
            pending = placed.adjoiningBottom
        }
        flushInline()
        return collapseBottom ? (items, y, leading, pending, staticTops, clampEnd) : (items, y + pending.value, leading, AdjoiningMargins(), staticTops, clampEnd)
    }

    /// §10.3.3: where a block box's margin box starts in its containing block: auto margins
    /// share the free space; with none (or none left) the box starts at the start edge, the
    /// right one under rtl.
    func inlineOffset(_ s: ComputedStyle, width w: Double, margin: Edges, containerWidth: Double, rightToLeft: Bool) -> Double {
        let free = containerWidth - w - margin.horizontal
        let autoLeft = s.margin[3] == .auto && free > 0, autoRight = s.margin[1] == .auto && free > 0
        return autoLeft && autoRight ? margin.left + free / 2
            : autoLeft || (rightToLeft && !autoRight) ? containerWidth - w - margin.right
            : margin.left
    }

    /// The top margins that adjoin a block's own before it is laid out (§8.3.1): its own, then
    /// through a top with no border or padding those of its first in-flow block child, and on
    /// down; what places it among floats, checked against layout (which lays it out again when
    /// this was wrong, so a good guess keeps nested blocks from being laid out twice each).
    func addTopMargins(of el: StyledElement, cbWidth: Double, to margins: inout AdjoiningMargins) {
        margins.add(el.style.marginEdges(cbWidth).top)
        guard !startsFormattingContext(el, formattingRoot: false, shrinkToFit: false), el.style.frame(cbWidth).top == 0 else { return }
        for child in splittingInlines(el.children) {
            switch child {
            case .text(let t): if t.contains(where: { !$0.isWhitespace }) { return }
            case .element(let c):
                if c.style.display == .none || c.style.position == .absolute || c.style.float != nil { continue }
                if isBlockLevel(c), c.style.clear == .none { addTopMargins(of: c, cbWidth: cbWidth, to: &margins) }
                return
            }
        }
    }

    func isBlockLevel(_ el: StyledElement) -> Bool {
        switch el.style.display {
        case .block, .none, .contents: return true
        case .flex, .grid: return !el.style.inlineLevel || el.style.position == .absolute
        case .inlineBlock, .inline: return el.style.position == .absolute
        }
    }

    /// Adjoining vertical margins (§8.3.1) collapse to the largest positive plus the most
    /// negative, all at once: the pairwise rule is not associative.
    struct AdjoiningMargins {
        var positive = 0.0, negative = 0.0
        var value: Double { positive + negative }
        init() {}
        init(_ m: Double) { add(m) }
        mutating func add(_ m: Double) { positive = max(positive, m); negative = min(negative, m) }
        mutating func add(_ set: AdjoiningMargins) { add(set.positive); add(set.negative) }
    }

    /// A block whose top and bottom margins adjoin (§8.3.1): no height, border, padding or
    /// in-flow content, and no formatting context of its own. Empty blocks inside it are no
    /// content (their margins collapse through them and on through it, as in Chromium).
    func collapsesThrough(_ el: StyledElement, _ placed: Placed) -> Bool {
        let s = el.style
        return s.display == .block && !s.overflowHidden && !s.flowRoot && placed.box.frame.height == 0 && s.borderWidth[0] == 0 && s.borderWidth[2] == 0
            && s.minHeight.resolve(0) ?? 0 == 0 && holdsNoFlow(placed.box.items)
    }

    /// Nothing but floats, absolutely positioned boxes and empty blocks (no height, no clipping)
    /// that hold nothing either.
    func holdsNoFlow(_ items: [SceneItem]) -> Bool {
        items.allSatisfy { item in
            guard case .box(let b) = item else { return false }
            return b.isFloat || b.isAbsolute || (b.frame.height == 0 && !b.clipsContent && b.serial != 0 && holdsNoFlow(b.items))
        }
    }

    /// position: relative moves the box after layout (§9.4.3).
    func offsetRelative(_ box: inout SceneBox, _ s: ComputedStyle, cbWidth: Double, cbHeight: Double?) {
        guard s.position == .relative else { return }
        if let l = s.left.resolve(cbWidth) { box.frame.x += l } else if let r = s.right.resolve(cbWidth) { box.frame.x -= r }
        if let t = s.top.resolve(cbHeight) { box.frame.y += t } else if let b = s.bottom.resolve(cbHeight) { box.frame.y -= b }
    }
}
