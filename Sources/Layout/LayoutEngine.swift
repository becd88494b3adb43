import Foundation
import Checked
import Styling
import Templating
import Typography

/// Lays out a styled document into a Scene: block flow (CSS 2.1 §9.4.1, §10.3.3, §10.6.3),
/// flexbox (FlexLayout.swift), inline text through Pango (InlineContent.swift), replaced images
/// (§10.3.2, §10.6.2) and absolute positioning (§10.3.7, §10.6.4). Not thread-safe: one per worker.
public final class LayoutEngine {
    let fonts: FontSystem
    /// The intrinsic size of an image `src`, in points (nil: unknown, laid out as 0x0).
    let imageSize: (String) -> (width: Double, height: Double)?
    var language = "en"
    var missingGlyphs = 0
    var truncatedParagraphs = 0
    /// `font-family` lists none of whose families the fonts provide.
    var unknownFamilies: Set<String> = []
    /// What one layout has measured, by element and constraints. A flex column lays each item
    /// out to measure it and again to place it; without this, nested columns cost 2^depth.
    var placedBoxes: [BoxKey: Placed] = [:]
    var intrinsicWidths: [IntrinsicKey: Double] = [:]
    /// The page's root element, the containing block of absolutely positioned boxes with no
    /// positioned ancestor (the initial containing block).
    var rootSerial = 0
    /// Lines still to show under the nearest `-webkit-line-clamp` box while its block flow is
    /// laid out (nil: no clamp): its descendants' lines count in order, as Blink counts them.
    var lineBudget: Int?
    /// The clamp's last line ends in an ellipsis though its text fits: content follows it (Blink).
    var clampEllipsis = false
    /// The floats of the block formatting context being laid out (Exclusions.swift), and where the
    /// box whose block flow is being laid out has its border box in that context's coordinates.
    var exclusions = Exclusions()
    var flowOrigin = (x: 0.0, y: 0.0)

    struct BoxKey: Hashable {
        var serial: Int, cbWidth: Double, cbHeight: Double?, forcedWidth: Double?, forcedHeight: Double?
        var shrinkToFit: Bool, formattingRoot: Bool
        var lineBudget: Int?, clampEllipsis: Bool
    }
    struct IntrinsicKey: Hashable { var serial: Int, minimum: Bool, ownWidth: Bool }

    public init(fonts: FontSystem, imageSize: @escaping (String) -> (width: Double, height: Double)?) {
        self.fonts = fonts
        self.imageSize = imageSize
    }

    /// Lays out `body` in a viewport `width` points wide; the page is as tall as its content.
    public func layout(_ body: StyledElement, width: Double, language: String = "en") -> Scene {
        self.language = language
        missingGlyphs = 0
        truncatedParagraphs = 0
        unknownFamilies = []
        rootSerial = body.serial
        exclusions = Exclusions()
        flowOrigin = (0, 0)
        defer { placedBoxes = [:]; intrinsicWidths = [:]; exclusions = Exclusions() }
        // The page is the formatting context root the body's floats are placed in (its height holds them).
        var slot = FlowSlot(left: 0, width: width, top: max(0, body.style.marginEdges(width).top), rightToLeft: false)
        var root = layoutBox(body, cbWidth: width, cbHeight: nil, slot: slot)
        if max(0, root.margin.top) != slot.top, !exclusions.isEmpty {
            // Margins that collapsed through the body moved it: its floats go again from there.
            exclusions = Exclusions()
            slot.top = max(0, root.margin.top)
            root = layoutBox(body, cbWidth: width, cbHeight: nil, slot: slot)
        }
        // Margins that collapsed through the body end up outside it, as in a browser's canvas. Its
        // width and side margins are its own, in the page's left-to-right flow.
        root.box.frame.y = max(0, root.margin.top)
        root.box.frame.x = inlineOffset(body.style, width: root.box.frame.width, margin: root.margin, containerWidth: width, rightToLeft: false)
        let floatsBottom = exclusions.bottom ?? 0
        return Scene(width: width, height: max(floatsBottom, root.box.frame.y + root.box.frame.height + max(0, root.margin.bottom)),
                     root: root.box, missingGlyphs: missingGlyphs, truncatedParagraphs: truncatedParagraphs, unknownFamilies: unknownFamilies.sorted())
    }

    struct Placed {
        var box: SceneBox
        var margin: Edges
        /// Lines the box took from the clamp's budget (`lineBudget`), and where in its border box
        /// the clamp's last line ended, when it ended inside it.
        var linesUsed = 0
        var clampEnd: Double?
        /// Every margin that adjoins the box's top (bottom) edge, its own and those collapsed in
        /// from its children, kept apart: a positive and a negative one collapse as a set with the
        /// margins outside (§8.3.1), which their sum alone would not (48 and −6 inside, 20 outside: 42).
        var topMargins: AdjoiningMargins?, bottomMargins: AdjoiningMargins?
        var adjoiningTop: AdjoiningMargins { topMargins ?? AdjoiningMargins(margin.top) }
        var adjoiningBottom: AdjoiningMargins { bottomMargins ?? AdjoiningMargins(margin.bottom) }
    }

    /// Where an in-flow block box goes in its block formatting context: its containing block's
    /// content box (left edge and width) and the top of its own border box, in the context's
    /// coordinates, and the direction it is placed by. Only floats make it matter.
    struct FlowSlot {
        var left, width, top: Double
        var rightToLeft: Bool
    }

    /// Lays out one element as a box of its own. `forcedWidth`/`forcedHeight` are border-box sizes
    /// a flex container decided; otherwise the element's own `width`/`height` apply.
    /// `formattingRoot`: the box starts a block formatting context (a flex item, an absolute
    /// box), so its children's margins stay inside it. `slot`: where a box that starts none goes
    /// among the floats of the context it is in.
    func layoutBox(_ el: StyledElement, cbWidth: Double, cbHeight: Double?, forcedWidth: Double? = nil,
                   forcedHeight: Double? = nil, shrinkToFit: Bool = false, formattingRoot: Bool = false, slot: FlowSlot? = nil) -> Placed {
        // A box in its parent's formatting context depends on the floats there and adds its own:
        // remembered only while there are none.
        let ownContext = startsFormattingContext(el, formattingRoot: formattingRoot, shrinkToFit: shrinkToFit)
        guard el.serial > 0, ownContext || exclusions.isEmpty else {
            return placeBox(el, cbWidth: cbWidth, cbHeight: cbHeight, forcedWidth: forcedWidth, forcedHeight: forcedHeight,
                            shrinkToFit: shrinkToFit, formattingRoot: formattingRoot, slot: slot)
        }
        let budget = lineBudget
        let key = BoxKey(serial: el.serial, cbWidth: cbWidth, cbHeight: cbHeight, forcedWidth: forcedWidth, forcedHeight: forcedHeight,
                         shrinkToFit: shrinkToFit, formattingRoot: formattingRoot, lineBudget: budget, clampEllipsis: clampEllipsis)
        if let known = placedBoxes[key] { lineBudget = budget.map { max(0, $0 - known.linesUsed) }; return known }
        var placed = placeBox(el, cbWidth: cbWidth, cbHeight: cbHeight, forcedWidth: forcedWidth, forcedHeight: forcedHeight,
                              shrinkToFit: shrinkToFit, formattingRoot: formattingRoot, slot: slot)
        placed.linesUsed = (budget ?? 0) - (lineBudget ?? 0)
        if ownContext || exclusions.isEmpty { placedBoxes[key] = placed }
        return placed
    }

    /// Whether the box starts a block formatting context (CSS 2.1 §9.4.1, Display 3 §2): its floats
    /// and its children's margins stay inside it, and in its parent's flow it goes beside floats.
    func startsFormattingContext(_ el: StyledElement, formattingRoot: Bool, shrinkToFit: Bool) -> Bool {
        let s = el.style
        return formattingRoot || shrinkToFit || s.display != .block || s.overflowHidden || s.flowRoot || s.float != nil
            || s.position == .absolute || el.element.tag == "img" || el.element.tag == "svg"
    }

    private func placeBox(_ el: StyledElement, cbWidth: Double, cbHeight: Double?, forcedWidth: Double?,
                          forcedHeight: Double?, shrinkToFit: Bool, formattingRoot: Bool, slot: FlowSlot?) -> Placed {
        if el.style.hasSizeKeywords {
            return placeBox(resolvingSizeKeywords(el, cbWidth: cbWidth, cbHeight: cbHeight), cbWidth: cbWidth, cbHeight: cbHeight,
                            forcedWidth: forcedWidth, forcedHeight: forcedHeight, shrinkToFit: shrinkToFit, formattingRoot: formattingRoot, slot: slot)
        }
        let s = el.style
        let frame = s.frame(cbWidth)
        var margin = s.marginEdges(cbWidth)
        var topMargins: AdjoiningMargins?, bottomMargins: AdjoiningMargins?
        let intrinsic = el.element.tag == "img" ? imageIntrinsicSize(el) : el.element.tag == "svg" ? svgIntrinsicSize(el) : nil

        // Width (§10.3.3; shrink-to-fit §10.3.5 for floats, inline-blocks, absolutes and flex items).
        var width: Double
        if let forcedWidth { width = forcedWidth }
        else if let w = s.borderBoxSize(s.width, base: cbWidth, frame: frame.horizontal) { width = w }
        else if let intrinsic {
            if let h = s.borderBoxSize(s.height, base: cbHeight, frame: frame.vertical), intrinsic.ratio, intrinsic.height > 0 {
                width = (h - frame.vertical) * intrinsic.width / intrinsic.height + frame.horizontal
            } else { width = intrinsic.width + frame.horizontal }
        } else if let ratio = s.aspectRatio, ratio > 0, let h = s.borderBoxSize(s.height, base: cbHeight, frame: frame.vertical) ?? forcedHeight {
            width = s.transferredWidth(h, ratio: ratio, frame: frame)
        } else if shrinkToFit || s.display == .inlineBlock {
            width = min(maxContentWidth(el), max(minContentWidth(el), cbWidth)) - margin.horizontal
        } else { width = cbWidth - margin.horizontal }
        if forcedWidth == nil { width = s.clampWidth(width, cbWidth: cbWidth, frame: frame.horizontal) }
        let contentWidth = max(0, width - frame.horizontal)

        // A formatting context root places its floats afresh, from its own corner; any other box
        // takes part in its parent's, at its slot.
        let ownContext = startsFormattingContext(el, formattingRoot: formattingRoot, shrinkToFit: shrinkToFit)
        let outerExclusions = exclusions, outerOrigin = flowOrigin
        if ownContext { exclusions = Exclusions(); flowOrigin = (0, 0) }
        else if let slot {
            flowOrigin = (slot.left + inlineOffset(s, width: width, margin: margin, containerWidth: slot.width, rightToLeft: slot.rightToLeft), slot.top)
        }
        defer {
            if ownContext { exclusions = outerExclusions }
            flowOrigin = outerOrigin
        }

        // A definite height lets percentages inside resolve.
        var definiteHeight = forcedHeight ?? s.borderBoxSize(s.height, base: cbHeight, frame: frame.vertical)
            .map { s.clampHeight($0, cbHeight: cbHeight, frame: frame.vertical) }
        // A height from aspect-ratio is a preferred one: content taller than it wins (Sizing 4 §5.1).
        var heightFromRatio = false
        if definiteHeight == nil, let ratio = s.aspectRatio, ratio > 0 {
            definiteHeight = ((s.borderBoxSizing ? width : contentWidth) / ratio + (s.borderBoxSizing ? 0 : frame.vertical)).clampedLength
            heightFromRatio = s.minHeight == .auto && !s.overflowHidden
        }
        if definiteHeight == nil, let intrinsic, intrinsic.width > 0 {
            definiteHeight = (intrinsic.ratio ? contentWidth * intrinsic.height / intrinsic.width : intrinsic.height) + frame.vertical
        }
        let contentHeight = definiteHeight.map { max(0, $0 - frame.vertical) }

        // A clamp box counts its block flow's lines afresh; a box starting a formatting context of
        // its own, or laid out more than once (flex, grid), takes none from an outer clamp.
        let outerBudget = lineBudget, outerEllipsis = clampEllipsis
        if s.lineClamp != nil || ownContext { lineBudget = s.lineClamp; clampEllipsis = false }
        defer { if s.lineClamp != nil || ownContext { lineBudget = outerBudget; clampEllipsis = outerEllipsis } }
        var clampEnd: Double?

        var box = SceneBox(frame: Rect(x: 0, y: 0, width: width, height: 0), source: sourceInfo(el.element))
        box.serial = el.serial
        box.isAbsolute = s.position == .absolute
        box.isFloat = s.float != nil
        box.insets = frame
        /// The border-box height from the content's: the definite one if any, then min/max.
        var unclampedHeight = 0.0
        func finalHeight(_ used: Double) -> Double {
            var h = heightFromRatio ? max(definiteHeight!, used + frame.vertical) : definiteHeight ?? (used + frame.vertical)
            unclampedHeight = h
            guard forcedHeight == nil else { return h }
            // min-/max-height: max-content and the like are the content's height (Sizing 3 §5).
            if case .intrinsic = s.maxHeight { h = min(h, used + frame.vertical) }
            if case .intrinsic = s.minHeight { h = max(h, used + frame.vertical) }
            return s.clampHeight(h, cbHeight: cbHeight, frame: frame.vertical)
        }
        let height: Double
        if let intrinsic {
            height = finalHeight(contentHeight ?? 0)
            let content = Rect(x: frame.left, y: frame.top, width: contentWidth, height: height - frame.vertical)
            box.items.append(el.element.tag == "svg"
                ? .vector(SVGReader.read(el, frame: content))
                : .image(SceneImage(frame: content, source: el.element[attribute: "src"] ?? "", fit: ObjectFit(rawValue: s.objectFit.rawValue) ?? .fill,
                                    intrinsicWidth: intrinsic.width, intrinsicHeight: intrinsic.height,
                                    radii: resolveRadii(s, width: width, height: height), position: s.objectPosition)))
        } else if s.display == .grid {
            let grid = layoutGrid(el, contentWidth: contentWidth, contentHeight: contentHeight, origin: (frame.left, frame.top))
            box.items += grid.items
            height = finalHeight(grid.height)
        } else if s.display == .flex {
            let limits = contentHeight == nil && forcedHeight == nil
                ? (min: s.borderBoxSize(s.minHeight, base: cbHeight, frame: frame.vertical).map { $0 - frame.vertical } ?? 0,
                   max: s.borderBoxSize(s.maxHeight, base: cbHeight, frame: frame.vertical).map { $0 - frame.vertical } ?? .infinity)
                : (min: 0, max: .infinity)
            let flex = layoutFlex(el, contentWidth: contentWidth, contentHeight: contentHeight, origin: (frame.left, frame.top), heightLimits: limits)
            box.items += flex.items
            height = finalHeight(flex.height)
            if definiteHeight == nil { unclampedHeight = flex.natural + frame.vertical }
        } else {
            // CSS 2.1 §8.3.1: with nothing between them, a box's margins collapse with its first
            // and last children's, unless the box starts a formatting context.
            let root = ownContext
            let throughTop = !root && frame.top == 0
            let throughBottom = !root && frame.bottom == 0 && definiteHeight == nil && s.minHeight == .auto
            let counted = (missingGlyphs, truncatedParagraphs)
            var flow = layoutFlow(el, contentWidth: contentWidth, contentHeight: contentHeight, origin: (frame.left, frame.top),
                                  collapseTop: throughTop, collapseBottom: throughBottom)
            if s.lineClamp != nil, let end = flow.clampEnd, flow.height > end {
                // Content follows the last shown line: laid out again with that line's ellipsis.
                lineBudget = s.lineClamp; clampEllipsis = true
                (missingGlyphs, truncatedParagraphs) = counted
                flow = layoutFlow(el, contentWidth: contentWidth, contentHeight: contentHeight, origin: (frame.left, frame.top),
                                  collapseTop: throughTop, collapseBottom: throughBottom)
            }
            box.items += flow.items
            if let marker = listMarker(el, in: box, contentLeft: frame.left, contentWidth: contentWidth) { box.items.append(.text(marker)) }
            box.staticTops = flow.staticTops
            // §10.6.7: a formatting context root's auto height holds its floats.
            let floatsBottom = ownContext ? (exclusions.bottom ?? 0) - frame.top : 0
            // CSS Overflow 4 §5.2 (-webkit-line-clamp): the box ends at its last shown line.
            if s.lineClamp != nil, let end = flow.clampEnd { height = finalHeight(end) } else { height = finalHeight(max(flow.height, floatsBottom)) }
            if s.lineClamp == nil, let end = flow.clampEnd { clampEnd = frame.top + end }
            if throughTop { var top = flow.leading; top.add(margin.top); margin.top = top.value; topMargins = top }
            if throughBottom { var bottom = flow.trailing; bottom.add(margin.bottom); margin.bottom = bottom.value; bottomMargins = bottom }
        }
        box.frame.height = height
        box.unclampedHeight = unclampedHeight
        decorate(&box, s, width: width, height: height)
        box.backgroundImage = backgroundImage(s, width: width, height: height)
        layoutAbsolutes(el, in: &box)
        return Placed(box: box, margin: margin, clampEnd: clampEnd, topMargins: topMargins, bottomMargins: bottomMargins)
    }

    /// The absolutely positioned descendants this box is the containing block of: those with
    /// no positioned element between (§10.1: the nearest positioned ancestor's padding box; the
    /// page's for the root). Laid out once the in-flow content is, each at its insets, or where
    /// insets are auto at its static position in its parent (§10.3.7, §10.6.4).
    func layoutAbsolutes(_ el: StyledElement, in box: inout SceneBox) {
        guard el.style.containsAbsolutes || el.serial == rootSerial else { return }
        var pending: [(child: StyledElement, parent: StyledElement)] = []
        func collect(_ parent: StyledElement) {
            for case .element(let c) in parent.children where c.style.display != .none {
                if c.style.position == .absolute { pending.append((c, parent)) } else if !c.style.containsAbsolutes { collect(c) }
            }
        }
        collect(el)
        guard !pending.isEmpty else { return }
        // Where each in-flow box is, from this box's border-box corner.
        var origins: [Int: (x: Double, y: Double, box: SceneBox)] = [el.serial: (0, 0, box)]
        func locate(_ b: SceneBox, _ x: Double, _ y: Double) {
            for case .box(let child) in b.items where !child.containsAbsolutes {
                let at = (x: x + child.frame.x, y: y + child.frame.y)
                if child.serial > 0 { origins[child.serial] = (at.x, at.y, child) }
                locate(child, at.x, at.y)
            }
        }
        locate(box, 0, 0)

        let border = el.style.borderEdges()
        let cbWidth = box.frame.width - border.horizontal, cbHeight = box.frame.height - border.vertical
        for (c, parent) in pending {
            guard let at = origins[parent.serial] else { continue }
            let s = c.style
            let left = s.left.resolve(cbWidth), right = s.right.resolve(cbWidth)
            let top = s.top.resolve(cbHeight), bottom = s.bottom.resolve(cbHeight)
            var margin = s.marginEdges(cbWidth)
            // Insets on both sides give the size; never less than the padding and borders.
            let frame = s.frame(cbWidth)
            var forcedWidth: Double?
            if s.width == .auto, let left, let right { forcedWidth = max(frame.horizontal, cbWidth - left - right - margin.horizontal) }
            var forcedHeight: Double?
            if s.height == .auto, let top, let bottom { forcedHeight = max(frame.vertical, cbHeight - top - bottom - margin.vertical) }
            var placed = layoutBox(c, cbWidth: cbWidth, cbHeight: cbHeight, forcedWidth: forcedWidth, forcedHeight: forcedHeight,
                                   shrinkToFit: true, formattingRoot: true)
            let w = placed.box.frame.width, h = placed.box.frame.height
            // Both insets and the size given (CSS 2.1 §10.3.7, §10.6.4): auto margins take what is left,
            // shared equally; horizontally never below 0 on the start side.
            if let left, let right, s.width != .auto {
                (margin.left, margin.right) = autoMargins(free: cbWidth - left - right - w - margin.horizontal, current: (margin.left, margin.right),
                                                          auto: (s.margin[3] == .auto, s.margin[1] == .auto),
                                                          startSide: el.style.rightToLeft ? .second : .first)
            }
            if let top, let bottom, s.height != .auto {
                (margin.top, margin.bottom) = autoMargins(free: cbHeight - top - bottom - h - margin.vertical, current: (margin.top, margin.bottom),
                                                          auto: (s.margin[0] == .auto, s.margin[2] == .auto), startSide: nil)
            }
            let start = staticPosition(c, width: w, height: h, margin: margin, in: parent, box: at.box)
            // Over-constrained, `left` wins, or `right` where the containing block is rtl.
            if let left, !(el.style.rightToLeft && right != nil) { placed.box.frame.x = border.left + left + margin.left }
            else if let right { placed.box.frame.x = border.left + cbWidth - right - margin.right - w }
            else { placed.box.frame.x = at.x + start.x }
            if let top { placed.box.frame.y = border.top + top + margin.top }
            else if let bottom { placed.box.frame.y = border.top + cbHeight - bottom - margin.bottom - h }
            else { placed.box.frame.y = at.y + start.y }
            box.items.append(.box(placed.box))
        }
    }

    enum MarginSide { case first, second }

    /// The two margins of one axis with `free` space shared among the auto ones (which were 0);
    /// when both are auto and the space is negative, a `startSide` margin stays 0.
    func autoMargins(free: Double, current: (Double, Double), auto: (Bool, Bool), startSide: MarginSide?) -> (Double, Double) {
        switch auto {
        case (true, true):
            guard free < 0, let startSide else { return (free / 2, free / 2) }
            return startSide == .first ? (0, free) : (free, 0)
        case (true, false): return (current.0 + free, current.1)
        case (false, true): return (current.0, current.1 + free)
        case (false, false): return current
        }
    }

    /// Where an absolutely positioned child's border box would start in its parent `box`: in a
    /// flex container, placed as if it were the sole item (Flexbox §4.1); in block flow, at the
    /// start edge below the content before it.
    func staticPosition(_ c: StyledElement, width w: Double, height h: Double, margin: Edges, in parent: StyledElement, box: SceneBox) -> (x: Double, y: Double) {
        let inset = box.insets, ps = parent.style
        let contentWidth = box.frame.width - inset.horizontal, contentHeight = box.frame.height - inset.vertical
        guard ps.display == .flex else {
            let x = ps.rightToLeft ? inset.left + contentWidth - margin.right - w : inset.left + margin.left
            return (x, (box.staticTops[c.serial] ?? inset.top) + margin.top)
        }
        let context = FlexContext(style: ps, contentWidth: contentWidth, contentHeight: contentHeight)
        let freeX = contentWidth - w - margin.horizontal, freeY = contentHeight - h - margin.vertical
        func offset(_ a: ComputedStyle.Align, _ free: Double) -> Double {
            switch a {
            case .flexEnd: return free
            case .center, .spaceAround, .spaceEvenly: return free / 2
            default: return 0
            }
        }
        let (mainFree, crossFree) = context.row ? (freeX, freeY) : (freeY, freeX)
        let main = offset(context.mainAlignment(ps.justifyContent), mainFree)
        let cross = offset(context.align(c), crossFree)
        let mainAt = context.flipMain ? mainFree - main : main, crossAt = context.flipCross ? crossFree - cross : cross
        let (x, y) = context.row ? (mainAt, crossAt) : (crossAt, mainAt)
        return (inset.left + x + margin.left, inset.top + y + margin.top)
    }

    func decorate(_ box: inout SceneBox, _ s: ComputedStyle, width: Double, height: Double) {
        box.background = s.backgroundColor
        box.gradient = s.backgroundGradient
        if s.backgroundGradient != nil {
            let tile = backgroundTile(s, width: width, height: height, intrinsic: nil)
            if tile.rect != Rect(x: 0, y: 0, width: width, height: height) { box.gradientTile = tile }
        }
        box.shadows = s.boxShadows
        box.borderWidths = s.borderWidth
        box.borderColors = s.borderColor
        box.radii = resolveRadii(s, width: width, height: height)
        if s.cornerShape != [1, 1, 1, 1] { box.cornerShapes = s.cornerShape }
        box.clipsContent = s.overflowHidden
        box.opacity = s.opacity
        box.isPositioned = s.position != .static || s.opacity < 1 || s.containsAbsolutes
        box.containsAbsolutes = s.containsAbsolutes
        if s.layeringStorage != nil {
            box.layering = Boxed(SceneBox.Layering(transform: transform(s, width: width, height: height), filterBlur: s.filterBlur, backdropBlur: s.backdropBlur, backdropTone: s.backdropTone))
        }
    }

    /// The transform list as one matrix about the transform origin (CSS Transforms 1 §6);
    /// percentages are of the border box.
    func transform(_ s: ComputedStyle, width: Double, height: Double) -> Affine? {
        guard !s.transforms.isEmpty else { return nil }
        func at(_ l: Length, _ size: Double) -> Double { l.resolve(size) ?? 0 }
        let ox = at(s.transformOrigin[0], width), oy = at(s.transformOrigin[1], height)
        var m = Affine.translation(ox, oy)
        for f in s.transforms {
            switch f {
            case .translate(let x, let y): m = m.concatenating(.translation(at(x, width), at(y, height)))
            case .scale(let x, let y): m = m.concatenating(Affine(a: x, d: y))
            case .rotate(let r): m = m.concatenating(Affine(a: cos(r), b: sin(r), c: -sin(r), d: cos(r)))
            case .skew(let x, let y): m = m.concatenating(Affine(b: tan(y), c: tan(x)))
            case .matrix(let v): m = m.concatenating(Affine(a: v[0], b: v[1], c: v[2], d: v[3], tx: v[4], ty: v[5]))
            }
        }
        m = m.concatenating(.translation(-ox, -oy))
        // One that overflows what a page can show (scale(1e308), three scale(1e4)s) is drawn as
        // Chromium draws a matrix it cannot invert: not at all.
        guard [m.a, m.b, m.c, m.d].allSatisfy({ $0.isFinite && abs($0) < 1e6 }) else { return Affine(a: 0, d: 0) }
        m.tx = m.tx.clampedLength
        m.ty = m.ty.clampedLength
        return m
    }

    func backgroundImage(_ s: ComputedStyle, width: Double, height: Double) -> BackgroundImage? {
        guard let source = s.backgroundImage, let size = imageSize(source), size.width > 0, size.height > 0 else { return nil }
        let tile = backgroundTile(s, width: width, height: height, intrinsic: size)
        return BackgroundImage(source: source, tile: tile.rect, repeats: tile.repeats)
    }

    /// Where one background image's tile goes: background-size and background-position against
    /// the padding box (Backgrounds 3 §3.6, §3.9). An image with no size of its own (a gradient)
    /// is the padding box's size, or its side where background-size leaves one `auto` (§3.9).
    func backgroundTile(_ s: ComputedStyle, width: Double, height: Double, intrinsic: (width: Double, height: Double)?) -> (rect: Rect, repeats: Bool) {
        let b = s.borderEdges()
        let (pw, ph) = (width - b.horizontal, height - b.vertical)
        var (tw, th) = intrinsic ?? (pw, ph)
        switch s.backgroundSize {
        case .auto: break
        case .cover: if intrinsic != nil { let f = max(pw / tw, ph / th); tw *= f; th *= f }
        case .contain: if intrinsic != nil { let f = min(pw / tw, ph / th); tw *= f; th *= f }
        case .explicit(let w, let h):
            let rw = w.resolve(pw), rh = h.resolve(ph)
            if intrinsic != nil { (tw, th) = (rw ?? (rh.map { $0 * tw / th } ?? tw), rh ?? (rw.map { $0 * th / tw } ?? th)) }
            else { (tw, th) = (rw ?? pw, rh ?? ph) }
        }
        func offset(_ l: Length, _ free: Double) -> Double {
            if case .percent(let p) = l { return free * p / 100 }
            return l.resolve(free) ?? 0
        }
        return (Rect(x: b.left + offset(s.backgroundPosition[0], pw - tw), y: b.top + offset(s.backgroundPosition[1], ph - th), width: tw, height: th),
                s.backgroundRepeat)
    }

    /// Corner radii in points, scaled down together when they would overlap (Backgrounds 3 §5.5).
    func resolveRadii(_ s: ComputedStyle, width: Double, height: Double) -> [Double] {
        let r = s.borderRadius.enumerated().map { i, l in l.resolve(i % 2 == 0 ? width : height) ?? 0 }
        var f = 1.0
        for (a, b, side) in [(0, 1, width), (3, 2, width), (0, 3, height), (1, 2, height)] where r[a] + r[b] > side && side > 0 {
            f = min(f, side / (r[a] + r[b]))
        }
        return r.map { max(0, $0 * f) }
    }

    /// A replaced element's intrinsic size, and whether it has an intrinsic ratio (CSS 2.1 §10.3.2:
    /// with none, a given height leaves the width at the intrinsic one).
    typealias IntrinsicSize = (width: Double, height: Double, ratio: Bool)

    func imageIntrinsicSize(_ el: StyledElement) -> IntrinsicSize {
        let attr = { (name: String) in el.element[attribute: name].flatMap { Double(decimal: $0) }?.clampedLength }
        if let size = imageSize(el.element[attribute: "src"] ?? "") { return (size.width, size.height, true) }
        return (attr("width") ?? 0, attr("height") ?? 0, true)
    }

    /// An inline `<svg>`'s size: its width and height attributes, else the viewBox's ratio at
    /// the default 300x150 (CSS Images 3 §5.2, SVG 2 §8.2); a ratio only from both or the viewBox.
    func svgIntrinsicSize(_ el: StyledElement) -> IntrinsicSize {
        let w = el.element[attribute: "width"].flatMap { Double($0.replacing("px", with: "")) }
        let h = el.element[attribute: "height"].flatMap { Double($0.replacing("px", with: "")) }
        if let w, let h { return (w, h, true) }
        if let box = SVGReader.viewBox(el.element) {
            if let w { return (w, w * box.height / box.width, true) }
            if let h { return (h * box.width / box.height, h, true) }
            return (300, 300 * box.height / box.width, true)
        }
        return (w ?? 300, h ?? 150, false)
    }

    func sourceInfo(_ e: Element) -> SourceInfo { SourceInfo(tag: e.tag, id: e.id, classes: e.classes, line: e.line) }
}
