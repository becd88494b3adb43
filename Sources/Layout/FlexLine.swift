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
            // Step 3: the free space once the inflexible items are frozen at their hypothetical sizes.
            let initialFree = innerMain - items.reduce(0) { $0 + ($1.frozen ? $1.target : $1.base) + outer($1) } - gaps
            while items.contains(where: { !$0.frozen }) {
                let taken = items.reduce(0) { $0 + ($1.frozen ? $1.target : $1.base) + outer($1) } + gaps
                var free = innerMain - taken
                let unfrozen = items.indices.filter { !items[$0].frozen }
                let factorSum = unfrozen.reduce(0) { $0 + (growing ? items[$1].el.style.flexGrow : items[$1].el.style.flexShrink) }
                // Step 4b: factors summing below 1 take only that share of the initial free space,
                // growing or shrinking (two items with flex-shrink 0.25 absorb half the overflow).
                if factorSum < 1, abs(initialFree * factorSum) < abs(free) { free = initialFree * factorSum }
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
                            forcedWidth: crossSizeForColumn(el, c, items[i].margin), forcedHeight: items[i].target, formattingRoot: true)
        }
        let crossMargins = { (i: FlexItem) in row ? i.margin.vertical : i.margin.horizontal }
        let crossOf = { (i: FlexItem) in (row ? i.placed!.box.frame.height : i.placed!.box.frame.width) + crossMargins(i) }
        let autoCross = { (i: FlexItem) in i.el.style.margin[c.crossStart] == .auto || i.el.style.margin[c.crossEnd] == .auto }

        // §9.4 step 8: items aligned by their first baselines share one (rows only).
        let baselines: [Double?] = items.map { item in
            guard row, c.align(item.el) == .baseline, !autoCross(item), let box = item.placed?.box else { return nil }
            return item.margin.top + (baseline(box) ?? box.frame.height)
        }
        let sharedBaseline = baselines.compactMap { $0 }.max() ?? 0
        let lineCross = definiteCross ?? zip(items, baselines).map { item, b in crossOf(item) + (b.map { sharedBaseline - $0 } ?? 0) }.max() ?? 0

        // Stretch (§9.4 step 11): auto cross size and no auto margins fill the line.
        for i in items.indices {
            let cs = items[i].el.style
            guard c.align(items[i].el) == .stretch, !autoCross(items[i]) else { continue }
            if row, cs.height == .auto {
                let stretched = cs.clampHeight(lineCross - items[i].margin.vertical, cbHeight: c.contentHeight, frame: cs.frame(c.contentWidth).vertical)
                items[i].placed = layoutBox(items[i].el, cbWidth: c.contentWidth, cbHeight: c.contentHeight, forcedWidth: items[i].target,
                                            forcedHeight: stretched, formattingRoot: true)
            } else if !row, !c.singleLine, cs.width == .auto {
                items[i].placed = layoutBox(items[i].el, cbWidth: c.contentWidth, cbHeight: c.contentHeight,
                                            forcedWidth: crossSizeForColumn(items[i].el, c, items[i].margin, line: lineCross),
                                            forcedHeight: items[i].target, formattingRoot: true)
            }
        }

        // §9.5: main-axis alignment, auto margins first. Distributed alignment falls back to
        // flex-start when space runs out (Box Alignment 3 §5.3: safe centre for around/evenly).
        let mainOf = { (i: FlexItem) in row ? i.placed!.box.frame.width : i.placed!.box.frame.height }
        let usedMain = items.reduce(0) { $0 + mainOf($1) + outer($1) } + gaps
        let containerMain = c.innerMain ?? usedMain
        var free = containerMain - usedMain
        let autoMargins = items.reduce(0) { n, i in n + [c.mainStart, c.mainEnd].filter { i.el.style.margin[$0] == .auto }.count }
        let perAutoMargin = autoMargins > 0 && free > 0 ? free / Double(autoMargins) : 0
        if autoMargins > 0 && free > 0 { free = 0 }
        var start = 0.0, between = c.gap
        let n = Double(items.count)
        switch c.mainAlignment(s.justifyContent) {
        case .flexEnd: start = free
        case .center: start = free / 2
        case .spaceBetween: if items.count > 1, free > 0 { between += free / (n - 1) }
        case .spaceAround: if free > 0 { between += free / n; start = free / n / 2 } else { start = c.mainAlignment(.start) == .flexEnd ? free : 0 }
        case .spaceEvenly: if free > 0 { between += free / (n + 1); start = free / (n + 1) } else { start = c.mainAlignment(.start) == .flexEnd ? free : 0 }
        default: break
        }

        var out: [SceneBox] = []
        var cursor = start
        for (item, baseline) in zip(items, baselines) {
            var box = item.placed!.box
            let m = item.el.style.margin
            let size = mainOf(item)
            let mainPosition = cursor + item.margin[side: c.mainStart] + (m[c.mainStart] == .auto ? perAutoMargin : 0)
            cursor = mainPosition + size + item.margin[side: c.mainEnd] + (m[c.mainEnd] == .auto ? perAutoMargin : 0) + between

            // §9.6: cross-axis alignment within the line, from cross-start.
            let cross = row ? box.frame.height : box.frame.width
            let room = lineCross - cross - crossMargins(item)
            var crossPosition = item.margin[side: c.crossStart]
            if m[c.crossStart] == .auto && m[c.crossEnd] == .auto { crossPosition += max(0, room) / 2 }
            else if m[c.crossStart] == .auto { crossPosition += max(0, room) }
            else if m[c.crossEnd] != .auto {
                switch c.align(item.el) {
                case .flexEnd: crossPosition += room
                case .center: crossPosition += room / 2
                case .baseline: crossPosition = baseline.map { item.margin.top + sharedBaseline - $0 } ?? crossPosition
                default: break
                }
            }
            let mainCoordinate = c.flipMain ? containerMain - mainPosition - size : mainPosition
            let crossCoordinate = c.flipCross ? lineCross - crossPosition - cross : crossPosition
            box.frame.x = row ? mainCoordinate : crossCoordinate
            box.frame.y = row ? crossCoordinate : mainCoordinate
            offsetRelative(&box, item.el.style, cbWidth: c.contentWidth, cbHeight: c.contentHeight)
            out.append(box)
        }
        return FlexLineLayout(items: out, cross: lineCross, main: usedMain)
    }

    /// A box's first (or last) baseline from its top: that of its first (last) line of text,
    /// searched through its in-flow children; nil when it has none (the caller then synthesizes
    /// one from the border box).
    func baseline(_ box: SceneBox, last: Bool = false) -> Double? {
        for item in last ? box.items.reversed() : box.items {
            switch item {
            case .text(let t): let b = fonts.baselines(t.paragraph); return t.frame.y + (last ? b.last : b.first)
            case .box(let b) where !b.isAbsolute && !b.isFloat:
                if let inner = baseline(b, last: last) { return b.frame.y + inner }
                if !last { return b.frame.y + b.frame.height }
            default: continue
            }
        }
        return nil
    }
}
