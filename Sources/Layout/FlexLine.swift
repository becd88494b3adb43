import Styling

/// One flex line: resolve the flexible lengths (Flexbox §9.7), lay items out to learn their cross
/// sizes, stretch them (§9.4 step 11), then align on both axes (§9.5, §9.6). Frames come back
/// relative to the line's start; the caller moves lines into place.
extension LayoutEngine {
    struct FlexLineLayout {
        var items: [SceneBox]
        var cross: Double
        var main: Double
    }

    func layoutFlexLine(_ lineItems: [FlexItem], _ c: FlexContext, definiteCross: Double?) -> FlexLineLayout {
        let s = c.style, row = c.row
        var items = lineItems
        let gaps = c.gap * Double(max(0, items.count - 1))
        let outer = { (i: FlexItem) in row ? i.margin.horizontal : i.margin.vertical }

        // §9.7: the freeze loop.
        if let innerMain = c.innerMain {
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
                ? layoutBox(el, cbWidth: c.contentWidth, cbHeight: c.contentHeight, forcedWidth: items[i].target, formattingRoot: true)
                : layoutBox(el, cbWidth: c.contentWidth, cbHeight: c.contentHeight,
                            forcedWidth: crossSizeForColumn(el, c.contentWidth, items[i].margin, s.alignItems), forcedHeight: items[i].target, formattingRoot: true)
        }
        let crossOf = { (i: FlexItem) in row ? i.placed!.box.frame.height + i.margin.vertical : i.placed!.box.frame.width + i.margin.horizontal }
        let lineCross = definiteCross ?? items.map(crossOf).max() ?? 0

        // Stretch (§9.4 step 11): auto cross size and no auto margins fill the line.
        for i in items.indices {
            let cs = items[i].el.style
            let align = cs.alignSelf == .auto ? s.alignItems : cs.alignSelf
            guard align == .stretch || align == .normal, row, cs.height == .auto,
                  cs.margin[0] != .auto, cs.margin[2] != .auto else { continue }
            let stretched = cs.clampHeight(lineCross - items[i].margin.vertical, cbHeight: c.contentHeight, frame: cs.frame(c.contentWidth).vertical)
            items[i].placed = layoutBox(items[i].el, cbWidth: c.contentWidth, cbHeight: c.contentHeight, forcedWidth: items[i].target, forcedHeight: stretched, formattingRoot: true)
        }

        // §9.5: main-axis alignment, auto margins first.
        let mainOf = { (i: FlexItem) in row ? i.placed!.box.frame.width : i.placed!.box.frame.height }
        let usedMain = items.reduce(0) { $0 + mainOf($1) + outer($1) } + gaps
        let containerMain = c.innerMain ?? usedMain
        var free = containerMain - usedMain
        let autoMargins = items.reduce(0) { n, i in
            let m = i.el.style.margin
            return n + (row ? [m[1], m[3]] : [m[0], m[2]]).filter { $0 == .auto }.count
        }
        let perAutoMargin = autoMargins > 0 && free > 0 ? free / Double(autoMargins) : 0
        if autoMargins > 0 && free > 0 { free = 0 }
        var start = 0.0, between = c.gap
        let n = Double(items.count)
        switch s.justifyContent {
        case .flexEnd, .end: start = free
        case .center: start = free / 2
        case .spaceBetween: if items.count > 1, free > 0 { between += free / (n - 1) }
        case .spaceAround: if free > 0 { between += free / n; start = free / n / 2 } else { start = free / 2 }
        case .spaceEvenly: if free > 0 { between += free / (n + 1); start = free / (n + 1) } else { start = free / 2 }
        default: break
        }
        let reversed = s.flexDirection == .rowReverse || s.flexDirection == .columnReverse

        var out: [SceneBox] = []
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

            // §9.6: cross-axis alignment within the line.
            let cs = item.el.style
            let align = cs.alignSelf == .auto ? s.alignItems : cs.alignSelf
            let cross = row ? box.frame.height : box.frame.width
            let room = lineCross - cross - (row ? item.margin.vertical : item.margin.horizontal)
            var crossCoordinate = row ? item.margin.top : item.margin.left
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
            box.frame.x = row ? mainCoordinate : crossCoordinate
            box.frame.y = row ? crossCoordinate : mainCoordinate
            offsetRelative(&box, cs, cbWidth: c.contentWidth, cbHeight: c.contentHeight)
            out.append(box)
        }
        return FlexLineLayout(items: out, cross: lineCross, main: usedMain)
    }
}
