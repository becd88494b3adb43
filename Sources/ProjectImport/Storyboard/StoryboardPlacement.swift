/// Where each view goes: absolutely placed in its container from its constraints (else its
/// autoresizing mask and design-time frame), in flow when it is the one view pinned to all four
/// edges (so that the container takes its content's height), or as an item of a stack view.
extension TemplateWriter {
    mutating func placements(_ container: SceneView) -> [String: Placement] {
        if let known = solved[container.id] { return known }
        guard !container.subviews.isEmpty else { return [:] }
        let p = solver.solve(container)
        solved[container.id] = p
        return p
    }

    /// The container's only shown subview when it is pinned to all four edges by constant insets
    /// and takes its height from its content: the container then pads it instead of placing it.
    mutating func flowChild(_ container: SceneView) -> (id: String, padding: [Double])? {
        let shown = container.subviews.filter { !$0.element.flag("hidden") }
        guard container.kind != .stackView, shown.count == 1, let child = shown.first, flows(child) else { return nil }
        let p = placements(container)[child.id] ?? Placement()
        guard let left = p.horizontal.start, let right = p.horizontal.end, let top = p.vertical.start, let bottom = p.vertical.end,
              p.horizontal.given.isSuperset(of: [.start, .end]), p.vertical.given.isSuperset(of: [.start, .end]),
              left.fraction == 0, top.fraction == 0, right.fraction == 1, bottom.fraction == 1 else { return nil }
        let padding = [top.points, -right.points, -bottom.points, left.points]
        return padding.allSatisfy { $0 >= 0 } ? (child.id, padding) : nil
    }

    /// Whether the view's height can come from its content: text, a stack view, or a plain view
    /// whose one subview flows.
    mutating func flows(_ v: SceneView) -> Bool {
        switch v.kind {
        case .label, .button, .stackView: return true
        case .view: return flowChild(v) != nil
        default: return false
        }
    }

    /// `position: absolute` with the edges and sizes the placement fixes; an axis it leaves open
    /// is taken from the design-time frame (said, when the view is laid out by constraints).
    mutating func absolute(_ v: SceneView, _ placement: Placement, container: SceneView) -> [String] {
        var p = placement
        let byConstraints = v.element["translatesAutoresizingMaskIntoConstraints"] == "NO"
        if !byConstraints, p.horizontal.given.isEmpty, p.vertical.given.isEmpty, let f = v.frame {
            p = autoresizing(v, frame: f, in: container.frame ?? Rect(width: f.x + f.width, height: f.y + f.height))
        }
        var out = ["position: absolute"], translate = (x: false, y: false)
        for axis in [Axis.horizontal, .vertical] {
            let horizontal = axis == .horizontal
            let (near, far, length) = horizontal ? ("left", "right", "width") : ("top", "bottom", "height")
            let frame = horizontal ? (origin: v.frame?.x, size: v.frame?.width) : (origin: v.frame?.y, size: v.frame?.height)
            let ratioGivesSize = p.aspectRatio != nil && p[horizontal ? .vertical : .horizontal].size != nil
            var a = p[axis]
            if a.start == nil, a.end == nil, a.center == nil {
                a.start = .points(frame.origin ?? 0)
                if byConstraints { frameNote(v, horizontal ? "horizontal position" : "vertical position", frame.origin) }
            }
            if a.size == nil, a.start == nil || a.end == nil, !v.hasIntrinsicSize, !ratioGivesSize {
                a.size = .points(frame.size ?? 0)
                a.sizeFromFrame = true
            }
            // A box for a view not converted is said once, not for each of its sizes.
            if a.sizeFromFrame, byConstraints, v.kind != .other, !ratioGivesSize, !a.given.isSuperset(of: [.start, .end]) { frameNote(v, length, frame.size) }
            a.fillIn()
            if !horizontal, let size = a.size, v.kind == .label {
                boxHeights[v.id] = size.fraction * (container.frame?.height ?? 0) + size.points
            }
            func fromFar(_ end: Linear) -> String { CSS.length(Linear(fraction: 1, points: 0) - end) }
            if a.given.isSuperset(of: [.start, .end]), let start = a.start, let end = a.end {
                out += ["\(near): \(CSS.length(start))", "\(far): \(fromFar(end))"]
            } else if let size = a.size, let start = a.start, let end = a.end {
                let fromEnd = a.given.contains(.end) && !a.given.contains(.start) && !a.given.contains(.center)
                out += [fromEnd ? "\(far): \(fromFar(end))" : "\(near): \(CSS.length(start))", "\(length): \(CSS.length(size))"]
            } else if let center = a.center, a.given.contains(.center) || (a.start == nil && a.end == nil) {
                out.append("\(near): \(CSS.length(center))")
                if horizontal { translate.x = true } else { translate.y = true }
            } else if let start = a.start {
                out.append("\(near): \(CSS.length(start))")
            } else if let end = a.end {
                out.append("\(far): \(fromFar(end))")
            }
            if let m = a.minSize { out.append("min-\(length): \(CSS.px(m))") }
            if let m = a.maxSize { out.append("max-\(length): \(CSS.px(m))") }
        }
        switch translate {
        case (true, true): out.append("transform: translate(-50%, -50%)")
        case (true, false): out.append("transform: translateX(-50%)")
        case (false, true): out.append("transform: translateY(-50%)")
        default: break
        }
        if let r = p.aspectRatio, p.vertical.size == nil || p.horizontal.size == nil { out.append("aspect-ratio: \(CSS.ratio(r))") }
        return out
    }

    mutating func frameNote(_ v: SceneView, _ what: String, _ value: Double?) {
        problems.append(.init(line: v.element.line, message: "the constraints of \(label(v)) do not fix its \(what); "
                                  + (value.map { "drawn at its design-time \(CSS.number($0)) pt" } ?? "it has no design-time frame either, so 0 pt")))
    }

    /// A view laid out by its frame: its autoresizing mask says which margins and sizes stretch
    /// with the container (none written: fixed at the top left).
    func autoresizing(_ v: SceneView, frame f: Rect, in parent: Rect) -> Placement {
        let mask = v.element.child("autoresizingMask")
        func axis(_ origin: Double, _ length: Double, _ total: Double, sizable: String, minMargin: String, maxMargin: String) -> AxisPlacement {
            var a = AxisPlacement()
            let far = total - origin - length
            switch (mask?.flag(sizable) ?? false, mask?.flag(minMargin) ?? false, mask?.flag(maxMargin) ?? false) {
            case (true, _, _): (a.start, a.end, a.given) = (.points(origin), Linear(fraction: 1, points: -far), [.start, .end])
            case (false, true, false): (a.end, a.size, a.given) = (Linear(fraction: 1, points: -far), .points(length), [.end, .size])
            case (false, true, true) where total > 0:
                (a.center, a.size, a.given) = (Linear(fraction: (origin + length / 2) / total, points: 0), .points(length), [.center, .size])
            default: (a.start, a.size, a.given) = (.points(origin), .points(length), [.start, .size])
            }
            a.fillIn()
            return a
        }
        return Placement(horizontal: axis(f.x, f.width, parent.width, sizable: "widthSizable", minMargin: "flexibleMinX", maxMargin: "flexibleMaxX"),
                         vertical: axis(f.y, f.height, parent.height, sizable: "heightSizable", minMargin: "flexibleMinY", maxMargin: "flexibleMaxY"))
    }

    /// A stack view as a flex box: its axis, spacing, alignment, distribution and margins.
    mutating func stack(_ v: SceneView) -> [String] {
        let e = v.element
        let vertical = e["axis"] == "vertical"
        var out = ["display: flex", "flex-direction: \(vertical ? "column" : "row")"]
        if let spacing = e.number("spacing"), spacing != 0 { out.append("gap: \(CSS.px(spacing))") }
        let alignments = ["leading": "flex-start", "top": "flex-start", "center": "center", "trailing": "flex-end", "bottom": "flex-end",
                          "firstBaseline": "baseline", "lastBaseline": "baseline"]
        if let a = e["alignment"], let css = alignments[a] { out.append("align-items: \(css)") }
        switch e["distribution"] {
        case "equalSpacing": out.append("justify-content: space-between")
        case "equalCentering":
            out.append("justify-content: space-around")
            problems.append(.init(line: e.line, message: "the equal-centering distribution of \(label(v)) is drawn as equal space around each view"))
        default: break
        }
        if e.flag("layoutMarginsRelativeArrangement") {
            let m = Margins(v, isRoot: false)
            out.append("padding: \([m.top, m.trailing, m.bottom, m.leading].map(CSS.px).joined(separator: " "))")
        }
        return out
    }

    /// The arranged subview that takes the stack's spare length in the fill distribution: the
    /// one with the lowest content-hugging priority along the axis, if only one has it.
    func growingItem(_ stack: SceneView, bounded: (Bool, Bool)) -> String? {
        let vertical = stack.element["axis"] == "vertical"
        guard stack.element["distribution"] ?? "fill" == "fill", vertical ? bounded.1 : bounded.0 else { return nil }
        let shown = stack.subviews.filter { !$0.element.flag("hidden") }
        let hugging = shown.map { $0.element.number(vertical ? "verticalHuggingPriority" : "horizontalHuggingPriority") ?? 250 }
        guard let lowest = hugging.min(), hugging.filter({ $0 == lowest }).count == 1 else { return nil }
        return shown[hugging.firstIndex(of: lowest)!].id
    }

    /// An arranged subview: its sizes from constraints, else from the distribution, else (for a
    /// view with no content size) from its design-time frame.
    func stackItem(_ v: SceneView, _ p: Placement, stack: SceneView, grows: Bool) -> [String] {
        let vertical = stack.element["axis"] == "vertical"
        let (main, cross) = vertical ? (Axis.vertical, Axis.horizontal) : (.horizontal, .vertical)
        let names = vertical ? (main: "height", cross: "width") : (main: "width", cross: "height")
        let frameSize = vertical ? (main: v.frame?.height, cross: v.frame?.width) : (main: v.frame?.width, cross: v.frame?.height)
        var out = ["position: relative"]
        switch (p[main].size, stack.element["distribution"]) {
        case (let size?, _): out += ["\(names.main): \(CSS.length(size))", "flex-shrink: 0"]
        case (nil, "fillEqually"): out += ["flex: 1 1 0", "min-\(names.main): 0"]
        case (nil, "fillProportionally"): out += ["flex: \(CSS.number(max(frameSize.main ?? 1, 1))) 1 0", "min-\(names.main): 0"]
        case (nil, _) where grows: out += ["flex-grow: 1", "min-\(names.main): 0"]
        case (nil, _) where !v.hasIntrinsicSize && p.aspectRatio == nil: out += ["\(names.main): \(CSS.px(frameSize.main ?? 0))", "flex-shrink: 0"]
        default: if !vertical && v.kind == .label { out.append("min-width: 0") }
        }
        if let size = p[cross].size {
            out.append("\(names.cross): \(CSS.length(size))")
        } else if stack.element["alignment"].map({ $0 != "fill" }) ?? false, !v.hasIntrinsicSize, p.aspectRatio == nil {
            out.append("\(names.cross): \(CSS.px(frameSize.cross ?? 0))")
        }
        if let r = p.aspectRatio, p.vertical.size == nil || p.horizontal.size == nil { out.append("aspect-ratio: \(CSS.ratio(r))") }
        return out
    }
}
