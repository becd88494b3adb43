import Styling

/// Single-line flexbox, following CSS Flexbox 1 §9: flex base sizes (§9.2 step 3), resolving
/// flexible lengths with the freeze loop (§9.7), cross sizes and stretch (§9.4), main-axis
/// alignment with auto margins and justify-content (§9.5), cross-axis alignment (§9.6).
/// Not yet: flex-wrap onto several lines, align-content, baseline alignment.
extension LayoutEngine {
    struct FlexItem {
        var el: StyledElement
        var margin: Edges
        var base = 0.0, hypothetical = 0.0, target = 0.0
        var minMain = 0.0, maxMain = Double.infinity
        var frozen = false
        var placed: Placed?
    }

    func layoutFlex(_ container: StyledElement, contentWidth: Double, contentHeight: Double?, origin: (Double, Double)) -> (items: [SceneItem], height: Double) {
        let s = container.style
        let row = s.isFlexRow
        let gap = row ? s.columnGap : s.rowGap
        let innerMain: Double? = row ? contentWidth : contentHeight

        // §4: each in-flow child is an item; runs of text become anonymous items.
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
            if case .element(let e) = child, e.element.tag != "br" && (e.style.display != .inline || e.element.tag == "img" || e.style.position == .absolute) {
                flushText()
                if e.style.display != .none && e.style.position != .absolute { children.append(e) }
            } else { text.append(child) }
        }
        flushText()
        children = children.enumerated().sorted { ($0.element.style.order, $0.offset) < ($1.element.style.order, $1.offset) }.map(\.element)

        // §9.2.3: flex base size and hypothetical main size, as border-box sizes.
        var items: [FlexItem] = children.map { el in
            let cs = el.style
            var item = FlexItem(el: el, margin: cs.marginEdges(contentWidth))
            let frame = cs.frame(contentWidth)
            let mainFrame = row ? frame.horizontal : frame.vertical
            if let basis = cs.borderBoxSize(cs.flexBasis, base: innerMain, frame: mainFrame) { item.base = basis }
            else if let size = cs.borderBoxSize(row ? cs.width : cs.height, base: innerMain, frame: mainFrame) { item.base = size }
            else if row { item.base = maxContentWidth(el) - item.margin.horizontal }
            else { item.base = layoutBox(el, cbWidth: contentWidth, cbHeight: nil, forcedWidth: crossSizeForColumn(el, contentWidth, item.margin, s.alignItems)).box.frame.height }
            // §4.5: the automatic minimum size of an item is its min-content size, unless it clips.
            let explicitMin = cs.borderBoxSize(row ? cs.minWidth : cs.minHeight, base: innerMain, frame: mainFrame)
            item.minMain = explicitMin ?? (cs.overflowHidden ? mainFrame : row ? minContentOfContents(el) - item.margin.horizontal : min(item.base, mainFrame))
            if let size = cs.borderBoxSize(row ? cs.width : cs.height, base: innerMain, frame: mainFrame), explicitMin == nil { item.minMain = min(item.minMain, size) }
            item.maxMain = cs.borderBoxSize(row ? cs.maxWidth : cs.maxHeight, base: innerMain, frame: mainFrame) ?? .infinity
            item.hypothetical = min(max(item.base, item.minMain), item.maxMain)
            return item
        }

        // §9.7: resolve the flexible lengths.
        let gaps = gap * Double(max(0, items.count - 1))
        let outer = { (i: FlexItem) in row ? i.margin.horizontal : i.margin.vertical }
        if let innerMain {
            let used = items.reduce(0) { $0 + $1.hypothetical + outer($1) } + gaps
            let growing = used < innerMain
            for i in items.indices {
                let factor = growing ? items[i].el.style.flexGrow : items[i].el.style.flexShrink
                if factor == 0 || (growing && items[i].base > items[i].hypothetical) || (!growing && items[i].base < items[i].hypothetical) {
                    items[i].frozen = true
                    items[i].target = items[i].hypothetical
                }
            }
            while items.contains(where: { !$0.frozen }) {
                let taken = items.reduce(0) { $0 + ($1.frozen ? $1.target : $1.base) + outer($1) } + gaps
                var free = innerMain - taken
                let unfrozen = items.indices.filter { !items[$0].frozen }
                let factorSum = unfrozen.reduce(0) { $0 + (growing ? items[$1].el.style.flexGrow : items[$1].el.style.flexShrink) }
                if growing && factorSum < 1 { free = min(free, (innerMain - items.reduce(0) { $0 + $1.base + outer($1) } - gaps) * factorSum) }
                let scaledSum = unfrozen.reduce(0) { $0 + items[$1].el.style.flexShrink * items[$1].base }
                var violation = 0.0
                for i in unfrozen {
                    var t = items[i].base
                    if growing, factorSum > 0 { t += free * items[i].el.style.flexGrow / factorSum }
                    if !growing, scaledSum > 0 { t += free * items[i].el.style.flexShrink * items[i].base / scaledSum }
                    let clamped = min(max(t, items[i].minMain), items[i].maxMain)
                    violation += clamped - t
                    items[i].target = clamped
                }
                for i in unfrozen {
                    let t = items[i].target
                    if violation == 0 || (violation > 0 && t == items[i].minMain) || (violation < 0 && t == items[i].maxMain) { items[i].frozen = true }
                }
            }
        } else {
            for i in items.indices { items[i].target = items[i].hypothetical }
        }

        // §9.4: lay each item out at its main size to learn its cross size.
        for i in items.indices {
            let el = items[i].el
            items[i].placed = row
                ? layoutBox(el, cbWidth: contentWidth, cbHeight: contentHeight, forcedWidth: items[i].target)
                : layoutBox(el, cbWidth: contentWidth, cbHeight: contentHeight, forcedWidth: crossSizeForColumn(el, contentWidth, items[i].margin, s.alignItems), forcedHeight: items[i].target)
        }
        let crossOf = { (i: FlexItem) in row ? i.placed!.box.frame.height + i.margin.vertical : i.placed!.box.frame.width + i.margin.horizontal }
        let lineCross = (row ? contentHeight : contentWidth) ?? items.map(crossOf).max() ?? 0

        // Stretch (§9.4 step 11): auto cross size and no auto margins fill the line.
        for i in items.indices {
            let cs = items[i].el.style
            let align = cs.alignSelf == .auto ? s.alignItems : cs.alignSelf
            guard align == .stretch || align == .normal, row, cs.height == .auto,
                  cs.margin[0] != .auto, cs.margin[2] != .auto else { continue }
            let stretched = cs.clampHeight(lineCross - items[i].margin.vertical, cbHeight: contentHeight, frame: cs.frame(contentWidth).vertical)
            items[i].placed = layoutBox(items[i].el, cbWidth: contentWidth, cbHeight: contentHeight, forcedWidth: items[i].target, forcedHeight: stretched)
        }

        // §9.5: main-axis alignment.
        let mainOf = { (i: FlexItem) in row ? i.placed!.box.frame.width : i.placed!.box.frame.height }
        let usedMain = items.reduce(0) { $0 + mainOf($1) + outer($1) } + gaps
        let containerMain = innerMain ?? usedMain
        var free = containerMain - usedMain
        let autoMargins = items.reduce(0) { n, i in
            let m = i.el.style.margin
            return n + (row ? [m[1], m[3]] : [m[0], m[2]]).filter { $0 == .auto }.count
        }
        var start = 0.0, between = gap
        let perAutoMargin = autoMargins > 0 && free > 0 ? free / Double(autoMargins) : 0
        if autoMargins > 0 && free > 0 { free = 0 }
        let n = Double(items.count)
        switch s.justifyContent {
        case .flexEnd, .end: start = free
        case .center: start = free / 2
        case .spaceBetween: if items.count > 1, free > 0 { between += free / (n - 1) } else if free < 0 { start = 0 }
        case .spaceAround: if free > 0 { between += free / n; start = free / n / 2 } else { start = free / 2 }
        case .spaceEvenly: if free > 0 { between += free / (n + 1); start = free / (n + 1) } else { start = free / 2 }
        default: break
        }
        let reversed = s.flexDirection == .rowReverse || s.flexDirection == .columnReverse

        var out: [SceneItem] = []
        var cursor = start
        for item in items {
            var box = item.placed!.box
            let m = item.el.style.margin
            let leadingAuto = (row ? (reversed ? m[1] : m[3]) : (reversed ? m[2] : m[0])) == .auto ? perAutoMargin : 0
            let trailingAuto = (row ? (reversed ? m[3] : m[1]) : (reversed ? m[0] : m[2])) == .auto ? perAutoMargin : 0
            let leadingMargin = row ? (reversed ? item.margin.right : item.margin.left) : (reversed ? item.margin.bottom : item.margin.top)
            let trailingMargin = row ? (reversed ? item.margin.left : item.margin.right) : (reversed ? item.margin.top : item.margin.bottom)
            let mainPosition = cursor + leadingMargin + leadingAuto
            let size = mainOf(item)
            let mainCoordinate = reversed ? containerMain - mainPosition - size : mainPosition
            cursor = mainPosition + size + trailingMargin + trailingAuto + between

            // §9.6: cross-axis alignment.
            let cs = item.el.style
            let align = cs.alignSelf == .auto ? s.alignItems : cs.alignSelf
            let cross = row ? box.frame.height : box.frame.width
            let crossStart = row ? item.margin.top : item.margin.left
            let room = lineCross - cross - (row ? item.margin.vertical : item.margin.horizontal)
            var crossCoordinate = crossStart
            let crossAuto = row ? (m[0] == .auto, m[2] == .auto) : (m[3] == .auto, m[1] == .auto)
            if crossAuto.0 && crossAuto.1 { crossCoordinate += max(0, room) / 2 }
            else if crossAuto.0 { crossCoordinate += max(0, room) }
            else if !crossAuto.1 {
                switch align {
                case .flexEnd, .end: crossCoordinate += room
                case .center: crossCoordinate += room / 2
                default: break
                }
            }
            box.frame.x = origin.0 + (row ? mainCoordinate : crossCoordinate)
            box.frame.y = origin.1 + (row ? crossCoordinate : mainCoordinate)
            offsetRelative(&box, cs, cbWidth: contentWidth, cbHeight: contentHeight)
            out.append(.box(box))
        }
        return (out, row ? lineCross : containerMain)
    }

    /// In a column, an item's width: its own, stretched to the line, or shrink-to-fit.
    private func crossSizeForColumn(_ el: StyledElement, _ contentWidth: Double, _ margin: Edges, _ alignItems: ComputedStyle.Align) -> Double {
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
