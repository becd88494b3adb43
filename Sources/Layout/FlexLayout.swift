import Styling

/// Flexbox, following CSS Flexbox 1 §9: items (§4), flex base sizes (§9.2 step 3), collecting
/// items into lines (§9.3), then per line (FlexLine.swift) the flexible lengths (§9.7), cross
/// sizes and stretch (§9.4) and alignment (§9.5, §9.6); lines are placed by align-content (§9.6
/// step 15). Not yet: baseline alignment.
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
    }

    func layoutFlex(_ container: StyledElement, contentWidth: Double, contentHeight: Double?, origin: (Double, Double)) -> (items: [SceneItem], height: Double) {
        let s = container.style
        let row = s.isFlexRow
        let context = FlexContext(style: s, row: row, gap: row ? s.columnGap : s.rowGap, contentWidth: contentWidth,
                                  contentHeight: contentHeight, innerMain: row ? contentWidth : contentHeight)
        let items = flexItems(container).map { hypotheticalSize($0, context) }

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

        let singleLine = !s.flexWrap
        var laidOut = lines.map { layoutFlexLine($0, context, definiteCross: singleLine ? (row ? contentHeight : contentWidth) : nil) }

        // align-content (§9.4 step 15, §9.6 step 15): distribute free cross space among lines;
        // `normal` stretches them.
        let crossGap = row ? s.rowGap : s.columnGap
        let containerCross = row ? contentHeight : contentWidth
        let used = laidOut.reduce(0) { $0 + $1.cross } + crossGap * Double(max(0, laidOut.count - 1))
        var start = 0.0, between = crossGap
        if let containerCross, !singleLine {
            let free = containerCross - used, n = Double(laidOut.count)
            switch s.alignContent {
            case .flexEnd, .end: start = free
            case .center: start = free / 2
            case .spaceBetween: if n > 1 && free > 0 { between += free / (n - 1) }
            case .spaceAround: if free > 0 { between += free / n; start = free / n / 2 } else { start = free / 2 }
            case .spaceEvenly: if free > 0 { between += free / (n + 1); start = free / (n + 1) } else { start = free / 2 }
            case .stretch, .normal:
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
            for item in line.items {
                var box = item
                if row { box.frame.y += cursor } else { box.frame.x += cursor }
                box.frame.x += origin.0
                box.frame.y += origin.1
                out.append(.box(box))
            }
            cursor += line.cross + between
        }
        let crossUsed = laidOut.reduce(0) { $0 + $1.cross } + crossGap * Double(max(0, laidOut.count - 1))
        let height = row ? (contentHeight ?? crossUsed) : (contentHeight ?? (laidOut.map(\.main).max() ?? 0))
        return (out, height)
    }

    /// §4: each in-flow child is an item; runs of text become anonymous items; `order` sorts.
    private func flexItems(_ container: StyledElement) -> [StyledElement] {
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
            if case .element(let e) = child, e.element.tag != "br" && (e.style.display != .inline || e.element.tag == "img" || e.element.tag == "svg" || e.style.position == .absolute) {
                flushText()
                if e.style.display != .none && e.style.position != .absolute { children.append(e) }
            } else { text.append(child) }
        }
        flushText()
        return children.enumerated().sorted { ($0.element.style.order, $0.offset) < ($1.element.style.order, $1.offset) }.map(\.element)
    }

    /// §9.2 step 3: flex base size and hypothetical main size, as border-box sizes.
    private func hypotheticalSize(_ el: StyledElement, _ c: FlexContext) -> FlexItem {
        let cs = el.style
        var item = FlexItem(el: el, margin: cs.marginEdges(c.contentWidth))
        let frame = cs.frame(c.contentWidth)
        let mainFrame = c.row ? frame.horizontal : frame.vertical
        if let basis = cs.borderBoxSize(cs.flexBasis, base: c.innerMain, frame: mainFrame) { item.base = basis }
        else if let size = cs.borderBoxSize(c.row ? cs.width : cs.height, base: c.innerMain, frame: mainFrame) { item.base = size }
        else if c.row { item.base = maxContentWidth(el) - item.margin.horizontal }
        else {
            item.base = layoutBox(el, cbWidth: c.contentWidth, cbHeight: nil,
                                  forcedWidth: crossSizeForColumn(el, c.contentWidth, item.margin, c.style.alignItems), formattingRoot: true).box.frame.height
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

    /// In a column, an item's width: its own, stretched to the line, or shrink-to-fit.
    func crossSizeForColumn(_ el: StyledElement, _ contentWidth: Double, _ margin: Edges, _ alignItems: ComputedStyle.Align) -> Double {
        let cs = el.style
        let frame = cs.frame(contentWidth).horizontal
        if let w = cs.borderBoxSize(cs.width, base: contentWidth, frame: frame) { return cs.clampWidth(w, cbWidth: contentWidth, frame: frame) }
        let align = cs.alignSelf == .auto ? alignItems : cs.alignSelf
        if align == .stretch || align == .normal, cs.margin[1] != .auto, cs.margin[3] != .auto {
            return cs.clampWidth(contentWidth - margin.horizontal, cbWidth: contentWidth, frame: frame)
        }
        return cs.clampWidth(min(maxContentWidth(el) - margin.horizontal, contentWidth - margin.horizontal), cbWidth: contentWidth, frame: frame)
    }
}
