import Styling
import Typography

/// Block flow (CSS 2.1 §9.4.1, §8.3.1): block boxes stacked with their margins collapsed, and
/// runs of inline content between them as paragraphs.
extension LayoutEngine {
    /// Block flow: block-level children stacked with their vertical margins collapsed
    /// (§8.3.1, between siblings); runs of inline content become anonymous paragraphs.
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

        func flushInline() {
            defer { inline.removeAll() }
            var boxes: [Int: Placed] = [:]
            guard var paragraph = makeParagraph(inline, container: el.style, width: contentWidth, boxes: &boxes) else { return }
            // Under a clamp, the lines left; past its last line every block is one line tall (Blink).
            let budget = lineBudget
            if let budget { paragraph.maxLines = max(budget, 1) }
            var metrics = fonts.measure(paragraph)
            if let budget, budget > 0, clampEllipsis, metrics.lineCount == budget, !metrics.ellipsized, let last = paragraph.runs.indices.last {
                paragraph.runs[last].text += "\u{2026}"
                metrics = fonts.measure(paragraph)
            }
            missingGlyphs += metrics.missingGlyphs
            y += pending.value
            pending = AdjoiningMargins()
            atTop = false
            if let budget {
                lineBudget = max(0, budget - metrics.lineCount)
                if budget > 0, lineBudget == 0, clampEnd == nil { clampEnd = y + metrics.height }
            }
            for (offset, at) in fonts.objectOrigins(paragraph) {
                guard var placed = boxes[offset] else { continue }
                placed.box.frame.x = origin.0 + at.x + placed.margin.left
                placed.box.frame.y = origin.1 + y + at.y + placed.margin.top
                items.append(.box(placed.box))
            }
            items.append(.text(SceneText(frame: Rect(x: origin.0, y: origin.1 + y, width: contentWidth, height: metrics.height),
                                         paragraph: paragraph, shadows: el.style.textShadows)))
            y += metrics.height
        }

        for child in el.children {
            guard case .element(let c) = child, isBlockLevel(c) else { inline.append(child); continue }
            if c.style.display == .none { continue }
            flushInline()
            if c.style.position == .absolute { staticTops[c.serial] = origin.1 + y + pending.value; continue }
            var placed = layoutBox(c, cbWidth: contentWidth, cbHeight: contentHeight)
            if collapsesThrough(c, placed) {
                // An empty box's own margins adjoin, and join those around it (§8.3.1).
                // Its border edge sits where its top margin alone would put it.
                var above = pending
                above.add(placed.margin.top)
                placed.box.frame.x = origin.0 + placed.margin.left
                placed.box.frame.y = origin.1 + y + (atTop ? 0 : above.value)
                if atTop { leading.add(placed.margin.top); leading.add(placed.margin.bottom) } else { pending.add(placed.margin.top); pending.add(placed.margin.bottom) }
                items.append(.box(placed.box))
                continue
            }
            if atTop {
                // The first child's top margin leaves through the parent's top.
                leading.add(placed.margin.top)
                atTop = false
            } else {
                pending.add(placed.margin.top)
                y += pending.value
            }
            // §10.3.3: auto margins share the free space; with none (or none left) the box
            // starts at its containing block's start edge, the right one under rtl.
            let w = placed.box.frame.width, free = contentWidth - w - placed.margin.horizontal
            let autoLeft = c.style.margin[3] == .auto && free > 0, autoRight = c.style.margin[1] == .auto && free > 0
            let x = autoLeft && autoRight ? placed.margin.left + free / 2
                : autoLeft || (el.style.rightToLeft && !autoRight) ? contentWidth - w - placed.margin.right
                : placed.margin.left
            placed.box.frame.x = origin.0 + x
            placed.box.frame.y = origin.1 + y
            if clampEnd == nil, let end = placed.clampEnd { clampEnd = y + end }
            offsetRelative(&placed.box, c.style, cbWidth: contentWidth, cbHeight: contentHeight)
            items.append(.box(placed.box))
            y += placed.box.frame.height
            pending = AdjoiningMargins()
            pending.add(placed.margin.bottom)
        }
        flushInline()
        return collapseBottom ? (items, y, leading, pending, staticTops, clampEnd) : (items, y + pending.value, leading, AdjoiningMargins(), staticTops, clampEnd)
    }

    func isBlockLevel(_ el: StyledElement) -> Bool {
        switch el.style.display {
        case .block, .flex, .grid, .none, .contents: return true
        case .inlineBlock, .inline: return el.style.position == .absolute
        }
    }

    /// Adjoining vertical margins (§8.3.1) collapse to the largest positive plus the most
    /// negative, all at once: the pairwise rule is not associative.
    struct AdjoiningMargins {
        var positive = 0.0, negative = 0.0
        var value: Double { positive + negative }
        mutating func add(_ m: Double) { positive = max(positive, m); negative = min(negative, m) }
    }

    /// A block whose top and bottom margins adjoin (§8.3.1): no height, border, padding or
    /// in-flow content, and no formatting context of its own.
    func collapsesThrough(_ el: StyledElement, _ placed: Placed) -> Bool {
        let s = el.style
        return s.display == .block && !s.overflowHidden && placed.box.frame.height == 0 && s.borderWidth[0] == 0 && s.borderWidth[2] == 0
            && s.minHeight.resolve(0) ?? 0 == 0 && placed.box.items.isEmpty
    }

    /// position: relative moves the box after layout (§9.4.3).
    func offsetRelative(_ box: inout SceneBox, _ s: ComputedStyle, cbWidth: Double, cbHeight: Double?) {
        guard s.position == .relative else { return }
        if let l = s.left.resolve(cbWidth) { box.frame.x += l } else if let r = s.right.resolve(cbWidth) { box.frame.x -= r }
        if let t = s.top.resolve(cbHeight) { box.frame.y += t } else if let b = s.bottom.resolve(cbHeight) { box.frame.y -= b }
    }
}
