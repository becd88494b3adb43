import Styling

/// CSS Grid 1: items placed by line numbers, spans and named areas, the rest auto-placed
/// (§8.5, sparse); tracks sized from fixed lengths, content and `fr` (§11, in a simplified form:
/// single-span items size tracks, spanning ones share out what they still need); each item
/// aligned in its area (§10). Columns run from the right under `direction: rtl`.
extension LayoutEngine {
    struct GridItem {
        var el: StyledElement
        var margin: Edges
        var columns: Range<Int>, rows: Range<Int>
    }

    func layoutGrid(_ container: StyledElement, contentWidth: Double, contentHeight: Double?, origin: (Double, Double)) -> (items: [SceneItem], height: Double) {
        let s = container.style
        let columnGap = s.columnGap.resolve(contentWidth) ?? 0, rowGap = s.rowGap.resolve(contentHeight) ?? 0
        let (items, columnTracks, rowTracks) = placeGridItems(container, cbWidth: contentWidth)

        let columns = sizeTracks(columnTracks, available: contentWidth, gap: columnGap, stretch: stretches(s.justifyContent), items: items.map {
            ($0.columns, minContentWidth($0.el), maxContentWidth($0.el))
        })
        // Columns are placed from the start edge and mirrored under rtl: `left` and `right` as start or end.
        let physical: [ComputedStyle.Align: ComputedStyle.Align] = [.left: s.rightToLeft ? .end : .start, .right: s.rightToLeft ? .start : .end]
        let columnStarts = offsets(columns, gap: columnGap, free: contentWidth, distribution: physical[s.justifyContent] ?? s.justifyContent)
        func span(_ r: Range<Int>, _ sizes: [Double], _ starts: [Double], _ gap: Double) -> (start: Double, size: Double) {
            (starts[r.lowerBound], sizes[r].reduce(0, +) + gap * Double(r.count - 1))
        }

        // Rows from the items' heights at their areas' widths.
        func laidOut(_ item: GridItem, area: (x: Double, width: Double), height: Double?) -> Placed {
            let cs = item.el.style
            let stretchWidth = alignment(cs.justifySelf == .auto ? s.justifyItems : cs.justifySelf) == .stretch
                && cs.width == .auto && cs.margin[1] != .auto && cs.margin[3] != .auto && !isReplaced(item.el)
            let stretchHeight = height != nil && alignment(cs.alignSelf == .auto ? s.alignItems : cs.alignSelf) == .stretch
                && cs.height == .auto && cs.margin[0] != .auto && cs.margin[2] != .auto && !isReplaced(item.el)
            return layoutBox(item.el, cbWidth: area.width, cbHeight: height,
                             forcedWidth: stretchWidth ? max(0, area.width - item.margin.horizontal) : nil,
                             forcedHeight: stretchHeight ? max(0, height! - item.margin.vertical) : nil,
                             shrinkToFit: !stretchWidth, formattingRoot: true)
        }
        let heights = items.map { item -> Double in
            let area = span(item.columns, columns, columnStarts, columnGap)
            return laidOut(item, area: (area.start, area.size), height: nil).box.frame.height + item.margin.vertical
        }
        let rows = sizeTracks(rowTracks, available: contentHeight, gap: rowGap, stretch: stretches(s.alignContent), items: zip(items, heights).map { ($0.rows, $1, $1) })
        let rowStarts = offsets(rows, gap: rowGap, free: contentHeight, distribution: s.alignContent)

        var out: [SceneItem] = []
        for item in items {
            let column = span(item.columns, columns, columnStarts, columnGap), row = span(item.rows, rows, rowStarts, rowGap)
            var placed = laidOut(item, area: (column.start, column.size), height: row.size)
            let cs = item.el.style, m = cs.margin, box = placed.box.frame
            // Start-side margins and alignment worked out from the inline start, then mirrored.
            let startMargin = s.rightToLeft ? item.margin.right : item.margin.left
            let (startAuto, endAuto) = s.rightToLeft ? (m[1] == .auto, m[3] == .auto) : (m[3] == .auto, m[1] == .auto)
            let freeX = column.size - box.width - item.margin.horizontal, freeY = row.size - box.height - item.margin.vertical
            var x = startMargin
            if startAuto && endAuto { x += max(0, freeX) / 2 } else if startAuto { x += max(0, freeX) }
            else if !endAuto { x += offset(alignment(cs.justifySelf == .auto ? s.justifyItems : cs.justifySelf), freeX) }
            var y = item.margin.top
            if m[0] == .auto && m[2] == .auto { y += max(0, freeY) / 2 } else if m[0] == .auto { y += max(0, freeY) }
            else if m[2] != .auto { y += offset(alignment(cs.alignSelf == .auto ? s.alignItems : cs.alignSelf), freeY) }
            let logicalX = column.start + x
            placed.box.frame.x = origin.0 + (s.rightToLeft ? contentWidth - logicalX - box.width : logicalX)
            placed.box.frame.y = origin.1 + row.start + y
            offsetRelative(&placed.box, cs, cbWidth: column.size, cbHeight: row.size)
            out.append(.box(placed.box))
        }
        let height = contentHeight ?? (rows.reduce(0, +) + rowGap * Double(max(0, rows.count - 1)))
        return (out, height)
    }

    /// A grid container's min- or max-content width: its columns sized with no width to fill.
    func gridIntrinsicWidth(_ container: StyledElement, minimum: Bool) -> Double {
        let s = container.style
        let gap = s.columnGap.resolve(0) ?? 0
        let (items, tracks, _) = placeGridItems(container, cbWidth: 0)
        let sizes = sizeTracks(tracks, available: nil, gap: gap, items: items.map {
            let least = minContentWidth($0.el)
            return ($0.columns, least, minimum ? least : maxContentWidth($0.el))
        })
        return sizes.reduce(0, +) + gap * Double(max(0, sizes.count - 1))
    }

    /// The items in order with their areas, and the tracks of the grid they make (the explicit
    /// ones, then implicit ones from grid-auto-*).
    func placeGridItems(_ container: StyledElement, cbWidth: Double) -> ([GridItem], columns: [GridTrack], rows: [GridTrack]) {
        let g = container.style.grid
        let elements = layoutItems(container)
        let explicitColumns = max(g.columns.count, g.areas.first?.count ?? 0), explicitRows = max(g.rows.count, g.areas.count)
        // Named areas' lines, from the template's rectangles.
        var areas: [String: (rows: Range<Int>, columns: Range<Int>)] = [:]
        for (r, row) in g.areas.enumerated() {
            for (c, name) in row.enumerated() where name != "." {
                let known = areas[name]
                areas[name] = (min(known?.rows.lowerBound ?? r, r)..<max(known?.rows.upperBound ?? r + 1, r + 1),
                               min(known?.columns.lowerBound ?? c, c)..<max(known?.columns.upperBound ?? c + 1, c + 1))
            }
        }
        /// A definite range from two lines, or a span to auto-place.
        func resolve(_ start: GridLine, _ end: GridLine, explicit: Int, column: Bool) -> (range: Range<Int>?, span: Int) {
            func index(_ line: GridLine, isEnd: Bool) -> Int? {
                switch line {
                case .line(let n): return max(0, n > 0 ? n - 1 : explicit + 1 + n)
                case .area(let name):
                    guard let a = areas[name] else { return nil }
                    let r = column ? a.columns : a.rows
                    return isEnd ? r.upperBound : r.lowerBound
                default: return nil
                }
            }
            let a = index(start, isEnd: false), b = index(end, isEnd: true)
            switch (a, b) {
            case (let a?, let b?): return b == a ? (a..<a + 1, 1) : (min(a, b)..<max(a, b), abs(b - a))
            case (let a?, nil):
                let n = if case .span(let n) = end { n } else { 1 }
                return (a..<a + n, n)
            case (nil, let b?):
                let n = if case .span(let n) = start { n } else { 1 }
                return (max(0, b - n)..<max(b, n), n)
            default:
                if case .span(let n) = start { return (nil, n) }
                if case .span(let n) = end { return (nil, n) }
                return (nil, 1)
            }
        }
        var placed: [(el: StyledElement, columns: Range<Int>?, rows: Range<Int>?, columnSpan: Int, rowSpan: Int)] = elements.map { el in
            let c = resolve(el.style.grid.columnStart, el.style.grid.columnEnd, explicit: explicitColumns, column: true)
            let r = resolve(el.style.grid.rowStart, el.style.grid.rowEnd, explicit: explicitRows, column: false)
            return (el, c.range, r.range, c.span, r.span)
        }
        // Auto-placement, along rows (or columns) in order, never backwards (sparse, §8.5).
        let flowColumn = g.flowColumn
        let across = max(1, flowColumn ? explicitRows : explicitColumns,
                         placed.map { flowColumn ? ($0.rows?.upperBound ?? $0.rowSpan) : ($0.columns?.upperBound ?? $0.columnSpan) }.max() ?? 1)
        var taken = Set<[Int]>()
        func cells(_ a: Range<Int>, _ b: Range<Int>) -> [[Int]] { a.flatMap { i in b.map { [i, $0] } } }
        func free(_ a: Range<Int>, _ b: Range<Int>) -> Bool { !cells(a, b).contains { taken.contains($0) } }
        for p in placed { if let c = p.columns, let r = p.rows { for cell in cells(r, c) { taken.insert(cell) } } }
        var cursor = (line: 0, position: 0)
        for i in placed.indices where placed[i].columns == nil || placed[i].rows == nil {
            // Work in (line, position): rows and columns for row flow, swapped for column flow.
            let fixedLine = flowColumn ? placed[i].columns : placed[i].rows
            let fixedPosition = flowColumn ? placed[i].rows : placed[i].columns
            let lineSpan = flowColumn ? placed[i].columnSpan : placed[i].rowSpan, positionSpan = flowColumn ? placed[i].rowSpan : placed[i].columnSpan
            func fits(_ line: Range<Int>, _ position: Range<Int>) -> Bool { flowColumn ? free(position, line) : free(line, position) }
            var found: (Range<Int>, Range<Int>)?
            var line = fixedLine?.lowerBound ?? cursor.line
            while found == nil, line < 100_000 {
                let lines = fixedLine ?? line..<line + lineSpan
                if let fixedPosition {
                    if fits(lines, fixedPosition), fixedLine != nil || line > cursor.line || fixedPosition.lowerBound >= cursor.position { found = (lines, fixedPosition) }
                } else {
                    // A line given by the item grows the grid along it if it must (implicit tracks).
                    var position = fixedLine == nil && line == cursor.line ? cursor.position : 0
                    let end = fixedLine == nil ? max(across, positionSpan) : 100_000
                    while found == nil, position + positionSpan <= end {
                        if fits(lines, position..<position + positionSpan) { found = (lines, position..<position + positionSpan) }
                        position += 1
                    }
                }
                line += 1
            }
            guard let (lines, positions) = found else { continue }
            if fixedLine == nil { cursor = (lines.lowerBound, positions.upperBound) }
            if flowColumn { placed[i].columns = lines; placed[i].rows = positions } else { placed[i].rows = lines; placed[i].columns = positions }
            for cell in cells(placed[i].rows!, placed[i].columns!) { taken.insert(cell) }
        }
        let items = placed.compactMap { p -> GridItem? in
            guard let c = p.columns, let r = p.rows else { return nil }
            return GridItem(el: p.el, margin: p.el.style.marginEdges(cbWidth), columns: c, rows: r)
        }
        let columnCount = max(explicitColumns, items.map(\.columns.upperBound).max() ?? 0)
        let rowCount = max(explicitRows, items.map(\.rows.upperBound).max() ?? 0)
        return (items, (0..<columnCount).map { $0 < g.columns.count ? g.columns[$0] : g.autoColumns },
                (0..<rowCount).map { $0 < g.rows.count ? g.rows[$0] : g.autoRows })
    }

    /// Track sizes (§11.3–11.7): fixed minimums, content minimums from the items spanning one
    /// track, spanning items' remaining needs shared out, free space up to each track's
    /// maximum, then the `fr` tracks' share; auto tracks take what is left (`normal` stretches).
    /// `available` nil: sized to content (max-content).
    func sizeTracks(_ tracks: [GridTrack], available: Double?, gap: Double, stretch: Bool = false,
                    items: [(span: Range<Int>, least: Double, most: Double)]) -> [Double] {
        guard !tracks.isEmpty else { return [] }
        func fixed(_ t: GridTrack) -> Double? { if case .length(let l) = t { return l.resolve(available) ?? 0 }; return nil }
        func flex(_ t: GridTrack) -> Double? { if case .fr(let f) = t.maximum { return f }; return nil }
        var base = tracks.map { fixed($0.minimum) ?? 0 }
        var limit = tracks.map { fixed($0.maximum) ?? (flex($0) != nil ? .infinity : 0) }
        let gaps = gap * Double(tracks.count - 1)
        for item in items where item.span.count == 1 {
            let i = item.span.lowerBound
            switch tracks[i].minimum {
            case .auto, .minContent: base[i] = max(base[i], item.least)
            case .maxContent: base[i] = max(base[i], item.most)
            default: break
            }
            switch tracks[i].maximum {
            case .auto, .maxContent: limit[i] = max(limit[i], item.most)
            case .minContent: limit[i] = max(limit[i], item.least)
            default: break
            }
        }
        for i in tracks.indices where limit[i] < base[i] { limit[i] = base[i] }
        // Spanning items: what their tracks still lack, shared among the content-sized ones.
        for item in items where item.span.count > 1 {
            let span = Array(item.span)
            let room = gap * Double(span.count - 1)
            let sized = span.filter { fixed(tracks[$0].minimum) == nil }
            guard !sized.isEmpty else { continue }
            let lacking = item.least - span.reduce(room) { $0 + base[$1] }
            if lacking > 0 { for i in sized { base[i] += lacking / Double(sized.count); limit[i] = max(limit[i], base[i]) } }
            let lackingMost = item.most - span.reduce(room) { $0 + (limit[$1].isFinite ? limit[$1] : base[$1]) }
            if lackingMost > 0 { for i in sized where limit[i].isFinite { limit[i] += lackingMost / Double(sized.count) } }
        }
        var sizes = base
        let flexible = tracks.indices.filter { flex(tracks[$0]) != nil }
        guard let available else {
            // To content: every track at its maximum; `fr` tracks in proportion to the largest need.
            for i in tracks.indices where flex(tracks[i]) == nil { sizes[i] = limit[i].isFinite ? limit[i] : base[i] }
            let unit = flexible.map { i in items.filter { $0.span == i..<i + 1 }.map(\.most).max().map { $0 / max(flex(tracks[i])!, 1) } ?? 0 }.max() ?? 0
            for i in flexible { sizes[i] = max(base[i], unit * flex(tracks[i])!) }
            return sizes
        }
        // Grow the inflexible tracks towards their maximums, evenly.
        var free = available - gaps - sizes.reduce(0, +)
        var growing = tracks.indices.filter { flex(tracks[$0]) == nil && limit[$0] > sizes[$0] }
        while free > 0.001, !growing.isEmpty {
            let share = free / Double(growing.count)
            for i in growing { let add = min(share, limit[i] - sizes[i]); sizes[i] += add; free -= add }
            growing = growing.filter { limit[$0] > sizes[$0] + 0.001 }
        }
        // The fr tracks share what is left (§11.7.1), a track whose minimum is larger keeping it.
        if !flexible.isEmpty {
            var inflexible = Set<Int>()
            var unit = 0.0
            for _ in 0...flexible.count {
                let rest = flexible.filter { !inflexible.contains($0) }
                let leftover = available - gaps - tracks.indices.filter { flex(tracks[$0]) == nil || inflexible.contains($0) }.reduce(0) { $0 + sizes[$1] }
                let factors = max(1, rest.reduce(0) { $0 + flex(tracks[$1])! })
                unit = max(0, leftover) / factors
                let tooSmall = rest.filter { unit * flex(tracks[$0])! < base[$0] }
                if tooSmall.isEmpty { break }
                inflexible.formUnion(tooSmall)
            }
            for i in flexible { sizes[i] = inflexible.contains(i) ? base[i] : max(base[i], unit * flex(tracks[i])!) }
        } else if stretch {
            // `normal` content distribution stretches the auto tracks into what is still free.
            let auto = tracks.indices.filter { tracks[$0].maximum == .auto }
            let left = available - gaps - sizes.reduce(0, +)
            if left > 0, !auto.isEmpty { for i in auto { sizes[i] += left / Double(auto.count) } }
        }
        return sizes
    }

    /// Where each track starts: after the gaps, with the free space of a definite container
    /// distributed by justify-content or align-content (§10.5; distributed values fall back to
    /// start where there is none).
    func offsets(_ sizes: [Double], gap: Double, free available: Double? = nil, distribution: ComputedStyle.Align = .normal) -> [Double] {
        let free = available.map { $0 - sizes.reduce(0, +) - gap * Double(max(0, sizes.count - 1)) } ?? 0
        let n = Double(sizes.count)
        var x = 0.0, between = gap
        if free > 0 {
            switch distribution {
            case .end, .flexEnd: x = free
            case .center: x = free / 2
            case .spaceBetween: if n > 1 { between += free / (n - 1) }
            case .spaceAround: between += free / n; x = free / n / 2
            case .spaceEvenly: between += free / (n + 1); x = free / (n + 1)
            default: break
            }
        } else if distribution == .center || distribution == .end || distribution == .flexEnd {
            x = distribution == .center ? free / 2 : free
        }
        var out: [Double] = []
        for s in sizes { out.append(x); x += s + between }
        return out
    }

    /// Whether content distribution stretches auto tracks (`normal` and `stretch` do).
    func stretches(_ a: ComputedStyle.Align) -> Bool { a == .normal || a == .stretch }

    /// Self-alignment keywords as start, end, centre or stretch.
    func alignment(_ a: ComputedStyle.Align) -> ComputedStyle.Align {
        switch a {
        case .auto, .normal, .stretch: return .stretch
        case .end, .flexEnd: return .end
        case .center: return .center
        default: return .start
        }
    }

    func offset(_ a: ComputedStyle.Align, _ free: Double) -> Double {
        switch a {
        case .end: return free
        case .center: return free / 2
        default: return 0
        }
    }

    func isReplaced(_ el: StyledElement) -> Bool { el.element.tag == "img" || el.element.tag == "svg" }
}
