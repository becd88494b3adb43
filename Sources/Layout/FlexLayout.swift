import Styling

/// Flexbox, following CSS Flexbox 1 §9: items (§4), flex base sizes (§9.2 step 3), the
/// container's main size (step 4), collecting items into lines (§9.3), then per line
/// (FlexLine.swift) the flexible lengths (§9.7), cross sizes, stretch and alignment (§9.4–9.6);
/// lines are placed by align-content (§9.6 step 15). Positions are worked out from main-start
/// and cross-start, then mirrored onto the page where those are the right or bottom edges
/// (`row` under `direction: rtl`, `*-reverse`, `wrap-reverse`).
extension LayoutEngine {
    struct FlexItem {
        var el: StyledElement
        var margin: Edges
        var base = 0.0, hypothetical = 0.0, target = 0.0
        var minMain = 0.0, maxMain = Double.infinity
        var frozen = false
        var placed: Placed?
    }

    /// What every line needs to know about its container.
    struct FlexContext {
        var style: ComputedStyle
        var row: Bool
        var gap: Double
        var contentWidth: Double
        var contentHeight: Double?
        var innerMain: Double?
        var singleLine: Bool
        /// Main-start is the right edge (rows) or the bottom (columns); cross-start likewise.
        var flipMain: Bool, flipCross: Bool
        /// The physical sides (0 top, 1 right, 2 bottom, 3 left) at main-start, main-end, cross-start, cross-end.
        var mainStart: Int { row ? (flipMain ? 1 : 3) : (flipMain ? 2 : 0) }
        var mainEnd: Int { (mainStart + 2) % 4 }
        var crossStart: Int { row ? (flipCross ? 2 : 0) : (flipCross ? 1 : 3) }
        var crossEnd: Int { (crossStart + 2) % 4 }

        init(style s: ComputedStyle, contentWidth: Double, contentHeight: Double?) {
            style = s
            row = s.isFlexRow
            gap = (row ? s.columnGap.resolve(contentWidth) : s.rowGap.resolve(contentHeight)) ?? 0
            self.contentWidth = contentWidth
            self.contentHeight = contentHeight
            innerMain = row ? contentWidth : contentHeight
            singleLine = !s.flexWrap
            let reversed = s.flexDirection == .rowReverse || s.flexDirection == .columnReverse
            flipMain = row ? reversed != s.rightToLeft : reversed
            flipCross = (row ? false : s.rightToLeft) != s.flexWrapReverse
        }

        /// `start`/`end` name the writing mode's edges; as flex-start/flex-end along this axis.
        /// `left`/`right` are physical in a row and `start` in a column (Box Alignment 3 §4.3), as in Blink.
        func mainAlignment(_ a: ComputedStyle.Align) -> ComputedStyle.Align {
            let reversed = style.flexDirection == .rowReverse || style.flexDirection == .columnReverse
            switch a {
            case .start: return reversed ? .flexEnd : .flexStart
            case .end: return reversed ? .flexStart : .flexEnd
            case .left: return !row ? mainAlignment(.start) : flipMain ? .flexEnd : .flexStart
            case .right: return !row ? mainAlignment(.start) : flipMain ? .flexStart : .flexEnd
            case .normal, .stretch, .auto, .baseline: return .flexStart
            default: return a
            }
        }
        func crossAlignment(_ a: ComputedStyle.Align) -> ComputedStyle.Align {
            switch a {
            case .start: return style.flexWrapReverse ? .flexEnd : .flexStart
            case .end: return style.flexWrapReverse ? .flexStart : .flexEnd
            case .normal, .auto: return .stretch
            default: return a
            }
        }
        func align(_ item: StyledElement) -> ComputedStyle.Align {
            crossAlignment(item.style.alignSelf == .auto ? style.alignItems : item.style.alignSelf)
        }
    }

    /// `heightLimits`: the container's min- and max-height as content heights, which decide an
    /// auto-height container's size (§9.2 step 4, §9.4 step 8).
    func layoutFlex(_ container: StyledElement, contentWidth: Double, contentHeight: Double?, origin: (Double, Double),
                    heightLimits: (min: Double, max: Double) = (0, .infinity)) -> (items: [SceneItem], height: Double, natural: Double) {
        let s = container.style
        var context = FlexContext(style: s, contentWidth: contentWidth, contentHeight: contentHeight)
        let row = context.row
        let items = layoutItems(container).map {
            hypotheticalSize($0.style.hasSizeKeywords ? resolvingSizeKeywords($0, cbWidth: contentWidth, cbHeight: contentHeight) : $0, context)
        }
        func clampHeight(_ h: Double) -> Double { min(max(h, heightLimits.min), heightLimits.max) }

        // §9.2 step 4: an auto-height column is as tall as its items, within min- and max-height.
        let columnContent = items.reduce(0) { $0 + $1.hypothetical + $1.margin.vertical } + context.gap * Double(max(0, items.count - 1))
        if !row, contentHeight == nil, heightLimits != (0, .infinity) { context.innerMain = clampHeight(columnContent) }

        // §9.3: one line, or as many as the main size holds when wrapping.
        var lines: [[FlexItem]] = []
        if s.flexWrap, let innerMain = context.innerMain {
            var current: [FlexItem] = [], used = 0.0
            for item in items {
                let outer = item.hypothetical + (row ? item.margin.horizontal : item.margin.vertical)
                if !current.isEmpty && used + context.gap + outer > innerMain + 0.001 { lines.append(current); current = []; used = 0 }
                used += (current.isEmpty ? 0 : context.gap) + outer
                current.append(item)
            }
            if !current.isEmpty { lines.append(current) }
        } else {
            lines = [items]
        }

        // A single line is as thick as the container's definite cross size, else as its items
        // within the container's min and max (§9.4 steps 8 and 15).
        let definiteCross = row ? contentHeight : contentWidth
        var laidOut = lines.map { layoutFlexLine($0, context, definiteCross: context.singleLine ? definiteCross : nil) }
        if context.singleLine, row, contentHeight == nil, let line = laidOut.first, clampHeight(line.cross) != line.cross {
            laidOut = [layoutFlexLine(lines[0], context, definiteCross: clampHeight(line.cross))]
        }

        // align-content (§9.6 step 15): distribute free cross space among lines; `normal`
        // stretches them. Where space runs out, the distributed values fall back to start.
        let crossGap = (row ? s.rowGap.resolve(contentHeight) : s.columnGap.resolve(contentWidth)) ?? 0
        let used = laidOut.reduce(0) { $0 + $1.cross } + crossGap * Double(max(0, laidOut.count - 1))
        let containerCross = definiteCross ?? (row ? clampHeight(used) : used)
        var start = 0.0, between = crossGap
        if !context.singleLine {
            let free = containerCross - used, n = Double(laidOut.count)
            switch context.crossAlignment(s.alignContent) {
            case .flexEnd: start = free
            case .center: start = free / 2
            case .spaceBetween: if n > 1 && free > 0 { between += free / (n - 1) }
            case .spaceAround: if free > 0 { between += free / n; start = free / n / 2 } else { start = context.crossAlignment(.start) == .flexEnd ? free : 0 }
            case .spaceEvenly: if free > 0 { between += free / (n + 1); start = free / (n + 1) } else { start = context.crossAlignment(.start) == .flexEnd ? free : 0 }
            case .stretch:
                if free > 0 {
                    let extra = free / n
                    laidOut = zip(lines, laidOut).map { layoutFlexLine($0, context, definiteCross: $1.cross + extra) }
                }
            default: break
            }
        }
        var out: [SceneItem] = []
        var cursor = start
        for line in laidOut {
            let offset = context.flipCross ? containerCross - cursor - line.cross : cursor
            for item in line.items {
                var box = item
                if row { box.frame.y += offset } else { box.frame.x += offset }
                box.frame.x += origin.0
                box.frame.y += origin.1
                out.append(.box(box))
            }
            cursor += line.cross + between
        }
        let height = row ? (contentHeight ?? containerCross) : (context.innerMain ?? (laidOut.map(\.main).max() ?? 0))
        // What the content alone asks for, before the container's own min- and max-height.
        let natural = row ? used : (context.innerMain == nil ? height : columnContent)
        return (out, height, natural)
    }

    /// A flex or grid container's items (Flexbox §4, Grid §6): each in-flow child element,
    /// blockified; runs of text become anonymous items; `order` sorts.
    func layoutItems(_ container: StyledElement) -> [StyledElement] {
        let s = container.style
        var children: [StyledElement] = []
        var text: [StyledNode] = []
        func flushText() {
            defer { text.removeAll() }
            guard makeParagraph(text, container: s, width: nil) != nil else { return }
            var anonymous = s.inherited()
            anonymous.display = .block
            children.append(StyledElement(element: .init(tag: "anonymous"), style: anonymous, children: text))
        }
        for child in container.children {
            // Every element child is blockified (§4), a <span> included; <br> and text are inline. In
            // Blink's legacy -webkit-box an inline-level child stays inline, in an anonymous block's line.
            if case .element(let e) = child, e.element.tag != "br", !(s.legacyBox && (e.style.display == .inline || e.style.display == .inlineBlock)) {
                flushText()
                if e.style.display != .none && e.style.position != .absolute { children.append(blockified(e)) }
            } else { text.append(child) }
        }
        flushText()
        // The legacy box's items grow and shrink only by -webkit-box-flex (0, which is all it reads).
        if s.legacyBox { for i in children.indices { children[i].style.flexGrow = 0; children[i].style.flexShrink = 0 } }
        return children.enumerated().sorted { ($0.element.style.order, $0.offset) < ($1.element.style.order, $1.offset) }.map(\.element)
    }

    /// A flex item's display is block-level (Display 3 §2.7): inline becomes block, inline-block block.
    private func blockified(_ e: StyledElement) -> StyledElement {
        guard e.style.display == .inline || e.style.display == .inlineBlock, e.element.tag != "img", e.element.tag != "svg" else { return e }
        var e = e
        e.style.display = .block
        return e
    }

    /// §9.2 step 3: flex base size and hypothetical main size, as border-box sizes.
    private func hypotheticalSize(_ el: StyledElement, _ c: FlexContext) -> FlexItem {
        let cs = el.style
        var item = FlexItem(el: el, margin: cs.marginEdges(c.contentWidth))
        let frame = cs.frame(c.contentWidth)
        let mainFrame = c.row ? frame.horizontal : frame.vertical
        if let basis = cs.borderBoxSize(cs.flexBasis, base: c.innerMain, frame: mainFrame) { item.base = basis }
        else if let size = cs.borderBoxSize(c.row ? cs.width : cs.height, base: c.innerMain, frame: mainFrame) { item.base = size }
        else if c.row, let ratio = cs.aspectRatio, ratio > 0, let h = definiteCrossSize(el, c, item.margin) {
            item.base = cs.transferredWidth(h, ratio: ratio, frame: frame)
        }
        else if c.row { item.base = maxContentWidth(el) - item.margin.horizontal }
        else {
            // The content's height: min- and max-height clamp the hypothetical size, not the base.
            item.base = layoutBox(el, cbWidth: c.contentWidth, cbHeight: nil,
                                  forcedWidth: crossSizeForColumn(el, c, item.margin), formattingRoot: true).box.unclampedHeight
        }
        // §4.5: the automatic minimum size is the content's min-content size, unless it clips.
        let explicitMin = cs.borderBoxSize(c.row ? cs.minWidth : cs.minHeight, base: c.innerMain, frame: mainFrame)
        item.minMain = explicitMin ?? (cs.overflowHidden ? mainFrame : c.row ? minContentOfContents(el) - item.margin.horizontal : min(item.base, mainFrame))
        if let size = cs.borderBoxSize(c.row ? cs.width : cs.height, base: c.innerMain, frame: mainFrame), explicitMin == nil {
            item.minMain = min(item.minMain, size)
        }
        item.maxMain = cs.borderBoxSize(c.row ? cs.maxWidth : cs.maxHeight, base: c.innerMain, frame: mainFrame) ?? .infinity
        item.hypothetical = min(max(item.base, item.minMain), item.maxMain)
        return item
    }

    /// A row item's border-box height before its line is laid out, where one is known: its
    /// own, or a single line's definite height it stretches to.
    func definiteCrossSize(_ el: StyledElement, _ c: FlexContext, _ margin: Edges) -> Double? {
        let cs = el.style
        if let h = cs.borderBoxSize(cs.height, base: c.contentHeight, frame: cs.frame(c.contentWidth).vertical) { return h }
        guard c.singleLine, c.align(el) == .stretch, cs.margin[0] != .auto, cs.margin[2] != .auto, let line = c.contentHeight else { return nil }
        return line - margin.vertical
    }

    /// In a column, an item's width: its own; the line's when it stretches (a single line is as
    /// wide as the container; `line` is a wrapped line's width); else fit-content (§9.4 step 7).
    func crossSizeForColumn(_ el: StyledElement, _ c: FlexContext, _ margin: Edges, line: Double? = nil) -> Double {
        let cs = el.style
        let frame = cs.frame(c.contentWidth).horizontal
        if let w = cs.borderBoxSize(cs.width, base: c.contentWidth, frame: frame) { return cs.clampWidth(w, cbWidth: c.contentWidth, frame: frame) }
        let room = (line ?? c.contentWidth) - margin.horizontal
        if c.align(el) == .stretch, cs.margin[1] != .auto, cs.margin[3] != .auto, c.singleLine || line != nil {
            return cs.clampWidth(room, cbWidth: c.contentWidth, frame: frame)
        }
        let most = maxContentWidth(el) - margin.horizontal
        let fit = most <= room ? most : min(most, max(minContentWidth(el) - margin.horizontal, room))
        return cs.clampWidth(fit, cbWidth: c.contentWidth, frame: frame)
    }
}
