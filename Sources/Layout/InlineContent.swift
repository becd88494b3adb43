import Foundation
import Styling
import Typography

/// Inline formatting (CSS Text 3 §4 white space, §2 text-transform): inline elements and text
/// flattened into styled runs of one Pango paragraph per block.
extension Character {
    /// White space CSS collapses (CSS Text 3 §4.1: spaces, tabs, segment breaks; HTML's ASCII white
    /// space): a no-break space, an em space or an ideographic space is text like any other.
    var isCollapsibleSpace: Bool { unicodeScalars.allSatisfy { [" ", "\t", "\n", "\r", "\u{0C}"].contains($0) } }
}

extension LayoutEngine {
    func makeParagraph(_ nodes: [StyledNode], container: ComputedStyle, width: Double?) -> Paragraph? {
        var boxes: [Int: Placed] = [:]
        return makeParagraph(nodes, container: container, width: width, boxes: &boxes)
    }

    /// Atomic inlines (inline-block, images, svg) become U+FFFC characters that Pango lays out as
    /// shapes the size of their margin boxes (CSS 2.1 §10.8); `boxes` gets each one's laid-out
    /// box by byte offset. The container's own style is the paragraph's strut.
    func makeParagraph(_ nodes: [StyledNode], container: ComputedStyle, width: Double?, boxes: inout [Int: Placed]) -> Paragraph? {
        var runs: [Paragraph.Run] = []
        var objects: [Paragraph.InlineObject] = []
        var bytes = 0
        /// The last run is pre-wrap text: its spaces before a forced break hang (dropped there).
        var lastRunPreWrap = false
        /// pre-wrap's spaces at the end of a line hang (CSS Text 3 §4.1.3): they neither make the
        /// line wrap nor count for its alignment. Before a forced break nothing follows them on the
        /// line, so they go, as Pango would wrap them (an extra line) and place them as text.
        /// Measuring a size (no width) keeps them: Blink's max-content counts them.
        func dropHangingSpaces() {
            guard lastRunPreWrap, width != nil, var last = runs.popLast() else { return }
            let before = last.text.pangoByteCount
            while let c = last.text.unicodeScalars.last, c == " " || c == "\t" { last.text.unicodeScalars.removeLast() }
            bytes -= before - last.text.pangoByteCount
            if !last.text.isEmpty { runs.append(last) }
        }
        var lastWasSpace = true // leading white space of a line is dropped
        var afterObject = false
        /// An inline box's edge was just put in: what comes next joins it unless it is a space.
        var joinNext = false
        /// U+2060 (word joiner) where a break opportunity must not come from an edge's U+FFFC.
        func joined(_ text: String) -> String {
            defer { joinNext = false }
            return joinNext && !text.hasPrefix(" ") ? "\u{2060}" + text : text
        }
        /// An inline box's margin, border and padding on one side (CSS 2.1 §10.8: they take room in
        /// the line, and a line holding one is not empty): a zero-height object, with no break between it
        /// and its box's content, nor before or after it where its neighbours would not break.
        func edge(_ width: Double, _ style: ComputedStyle) {
            guard width != 0 else { return }
            // Bidi isolate controls (U+2066…U+2069) break as the character before them does (UAX #14 LB9).
            let previous = runs.lazy.reversed().flatMap { $0.text.unicodeScalars.reversed() }.first { !(0x2066...0x2069).contains($0.value) }
            let before = joinNext || previous.map { $0 != " " } ?? false ? "\u{2060}" : ""
            let text = before + "\u{FFFC}"
            joinNext = false
            objects.append(.init(byteOffset: bytes + before.utf8.count, width: width, ascent: 0, descent: 0))
            runs.append(.init(text, style: objectStyle(style)))
            bytes += text.utf8.count
            joinNext = true
        }
        func visit(_ node: StyledNode, _ style: ComputedStyle) {
            switch node {
            case .text(let raw):
                var text = transform(raw, style.textTransform)
                if style.whiteSpace == .normal || style.whiteSpace == .nowrap {
                    var collapsed = ""
                    for c in text {
                        if c.isCollapsibleSpace { if !lastWasSpace { collapsed.append(" ") }; lastWasSpace = true }
                        else { collapsed.append(c); lastWasSpace = false }
                    }
                    text = collapsed
                } else if style.whiteSpace == .preLine {
                    // Spaces and tabs collapse, and go next to a segment break, which stays (CSS Text 3 §4.1.1).
                    var collapsed = ""
                    for c in text {
                        if c == "\n" || c == "\r\n" {
                            while collapsed.last == " " { collapsed.removeLast() }
                            collapsed.append("\n"); lastWasSpace = true
                        } else if c.isCollapsibleSpace { if !lastWasSpace { collapsed.append(" ") }; lastWasSpace = true }
                        else { collapsed.append(c); lastWasSpace = false }
                    }
                    text = collapsed
                } else if let last = text.last {
                    // Preserved spaces are not collapsible (CSS Text 3 §4.1.1), so a collapsible one
                    // after them stays; after a preserved line break it starts a line and goes.
                    lastWasSpace = last == "\n" || last == "\r\n"
                    // break-spaces (CSS Text 3 §3): a space never hangs and a line may break after each
                    // one, so each is a no-break space (kept at the line's end) then a zero-width space.
                    // After an atomic inline a line may break before the space too (as Blink breaks).
                    if style.whiteSpace == .breakSpaces {
                        text = (afterObject && text.hasPrefix(" ") ? "\u{200B}" : "") + text.replacing(" ", with: "\u{00A0}\u{200B}")
                    }
                    if style.whiteSpace == .preWrap, width != nil {
                        text = text.replacingOccurrences(of: #"[ \t]+(?=\r?\n)"#, with: "", options: .regularExpression)
                        if text.hasPrefix("\n") || text.hasPrefix("\r\n") { dropHangingSpaces() }
                    }
                }
                if !text.isEmpty {
                    text = joined(LineBreakTailoring.breakingBeforeSmallKana(text))
                    runs.append(.init(text, style: runStyle(style)))
                    bytes += text.pangoByteCount
                    afterObject = false
                    lastRunPreWrap = style.whiteSpace == .preWrap
                }
            case .element(let e):
                // A float is placed apart (Floats.swift): no part of the line's text.
                guard e.style.display != .none, e.style.float == nil else { return }
                if e.style.display == .inlineBlock || e.style.inlineLevel || e.element.tag == "img" || e.element.tag == "svg" {
                    let placed = layoutBox(e, cbWidth: width ?? 100_000, cbHeight: nil, shrinkToFit: true, formattingRoot: true)
                    let f = placed.box.frame
                    // An inline-block sits on its last line's baseline; without one, or clipping,
                    // on its bottom margin edge (CSS 2.1 §10.8.1). An inline flex or grid container on
                    // its first baseline (Flexbox §8.5), whatever its overflow.
                    let replaced = e.element.tag == "img" || e.element.tag == "svg"
                    let baseline = e.style.inlineLevel ? baseline(placed.box, last: false)
                        : replaced || e.style.overflowHidden ? nil : baseline(placed.box, last: true)
                    objects.append(.init(byteOffset: bytes, width: placed.margin.left + f.width + placed.margin.right,
                                         ascent: placed.margin.top + (baseline ?? f.height), descent: placed.margin.bottom + f.height - (baseline ?? f.height)))
                    let text = joined("\u{FFFC}")
                    bytes += text.utf8.count - 3
                    boxes[bytes] = placed
                    objects[objects.count - 1].byteOffset = bytes
                    runs.append(.init(text, style: objectStyle(style)))
                    bytes += 3
                    lastWasSpace = false
                    afterObject = true
                    return
                }
                if e.element.tag == "br" {
                    dropHangingSpaces()
                    runs.append(.init("\n", style: runStyle(e.style))); bytes += 3; lastWasSpace = true; lastRunPreWrap = false
                    return
                }
                let cb = width ?? 0, m = e.style.marginEdges(cb), f = e.style.frame(cb)
                let (left, right) = (m.left + f.left, m.right + f.right)
                // unicode-bidi: isolate (the dir attribute's, <bdi>'s): its text is ordered apart from the
                // paragraph's, in its own direction, between the isolate controls of UAX #9 (X5a, X6a).
                func control(_ c: String) { runs.append(.init(c, style: runStyle(e.style))); bytes += c.utf8.count }
                if e.style.bidiIsolate { control(e.style.rightToLeft ? "\u{2067}" : "\u{2066}") }
                edge(e.style.rightToLeft ? right : left, e.style)
                for child in e.children { visit(child, e.style) }
                edge(e.style.rightToLeft ? left : right, e.style)
                if e.style.bidiIsolate { control("\u{2069}") }
            }
        }
        for node in nodes { visit(node, container) }
        // Trailing white space hangs at the end of the line (§4.1.3): drop it.
        while let last = runs.last, last.text.hasSuffix(" ") {
            runs[runs.count - 1].text.removeLast()
            if runs[runs.count - 1].text.isEmpty { runs.removeLast() }
        }
        guard runs.contains(where: { !$0.text.isEmpty }) else { return nil }
        // A budget for one paragraph: shaping and line breaking grow faster than its length, and
        // no notification shows this much text (a custom view is capped at 352 pt).
        var budget = Paragraph.maxCharacters
        for i in runs.indices {
            if runs[i].text.count > budget {
                truncatedParagraphs += 1
                runs[i].text = String(runs[i].text.prefix(budget))
                runs.removeSubrange((i + 1)...)
                break
            }
            budget -= runs[i].text.count
        }

        var p = Paragraph(runs: runs, width: width)
        p.objects = objects
        p.lineHeight = container.lineHeight
        p.strut = runStyle(container)
        p.maxLines = container.lineClamp
        p.wraps = container.whiteSpace != .nowrap && container.whiteSpace != .pre
        // CSS Overflow 3 §5.1: an unwrapped line that overflows a clipping box ends in an ellipsis.
        if container.whiteSpace == .nowrap, container.textOverflowEllipsis, container.overflowHidden, p.maxLines == nil { p.maxLines = 1 }
        p.rightToLeft = container.bidiPlaintext ? runs.map(\.text).joined().firstStrongIsRightToLeft ?? false : container.rightToLeft
        p.breaksWords = container.breaksWords
        p.breaksAll = container.breaksAll
        p.language = language
        switch container.textAlign {
        case .left: p.alignment = .left
        case .right: p.alignment = .right
        case .center: p.alignment = .center
        case .justify: p.alignment = .justify
        case .start: p.alignment = container.rightToLeft ? .right : .left
        case .end: p.alignment = container.rightToLeft ? .left : .right
        }
        return p
    }

    /// A run's look, with its own line height: CSS gives every inline box its line-height, and
    /// `normal` depends on the run's font.
    func runStyle(_ style: ComputedStyle) -> TextStyle {
        var t = style.textStyle
        if !fonts.provides(familyList: t.family) { unknownFamilies.insert(t.family) }
        t.lineHeight = style.lineHeight ?? fonts.normalLineHeight(t)
        t.lineHeightIsFixed = style.lineHeight != nil
        return t
    }

    /// The run of an object standing for a box (an atomic inline, an inline box's edge): no
    /// letter-spacing, which CSS adds between typographic characters only (CSS Text 3 §8.2), so
    /// the text after an image or an SVG starts where a browser starts it.
    func objectStyle(_ style: ComputedStyle) -> TextStyle {
        var t = runStyle(style)
        t.letterSpacing = 0
        return t
    }

    func transform(_ text: String, _ t: ComputedStyle.TextTransform) -> String {
        switch t {
        case .none: return text
        case .uppercase: return text.uppercased()
        case .lowercase: return text.lowercased()
        case .capitalize:
            var out = "", startOfWord = true
            for c in text { out += startOfWord ? String(c).uppercased() : String(c); startOfWord = c.isWhitespace }
            return out
        }
    }

    /// The margin-box width with no line broken unless forced (CSS Sizing 3 §5.1 max-content).
    func maxContentWidth(_ el: StyledElement) -> Double { intrinsicWidth(el, minimum: false) }

    /// The margin-box width with every soft wrap opportunity taken (min-content).
    func minContentWidth(_ el: StyledElement) -> Double { intrinsicWidth(el, minimum: true) }

    /// The min-content size of the contents alone, ignoring the element's own `width`: the
    /// content size suggestion of a flex item's automatic minimum (Flexbox §4.5).
    func minContentOfContents(_ el: StyledElement) -> Double { intrinsicWidth(el, minimum: true, ownWidth: false) }

    func intrinsicWidth(_ el: StyledElement, minimum: Bool, ownWidth: Bool = true) -> Double {
        guard el.serial > 0 else { return measureIntrinsicWidth(el, minimum: minimum, ownWidth: ownWidth) }
        let key = IntrinsicKey(serial: el.serial, minimum: minimum, ownWidth: ownWidth)
        if let known = intrinsicWidths[key] { return known }
        let width = measureIntrinsicWidth(el, minimum: minimum, ownWidth: ownWidth)
        intrinsicWidths[key] = width
        return width
    }

    private func measureIntrinsicWidth(_ el: StyledElement, minimum: Bool, ownWidth: Bool) -> Double {
        let s = el.style
        let frame = s.frame(0).horizontal + s.marginEdges(0).horizontal
        if ownWidth, case .points(let w) = s.width { return (s.borderBoxSizing ? max(w, s.frame(0).horizontal) : w + s.frame(0).horizontal) + s.marginEdges(0).horizontal }
        if el.element.tag == "img" { return imageIntrinsicSize(el).width + frame }
        if el.element.tag == "svg" { return svgIntrinsicSize(el).width + frame }
        if s.display == .grid { return gridIntrinsicWidth(el, minimum: minimum) + frame }
        var widths: [Double] = []
        var inline: [StyledNode] = []
        // Floats stand beside the lines after them, and beside the next box if it starts a
        // formatting context (Blink's max-content); a box of this flow or a clear ends them.
        var floatsBeside = 0.0
        func endFloats() { if floatsBeside > 0 { widths.append(floatsBeside); floatsBeside = 0 } }
        func flush() {
            defer { inline.removeAll() }
            // Floats inside the run's inline elements stand in its lines too.
            for float in floats(in: inline) {
                let w = intrinsicWidth(float, minimum: minimum)
                if minimum { widths.append(w) } else { floatsBeside += w }
            }
            guard var p = makeParagraph(inline, container: s, width: nil) else { return }
            if minimum { p.width = 0; p.maxLines = nil; p.breaksWords = s.breaksAnywhere }
            // Min-content takes every soft wrap opportunity, and nowrap or pre text has none: its
            // unbroken line is its minimum too (so a nowrap inline-block overflows, never squeezed).
            p.wraps = minimum && p.wraps
            widths.append(fonts.measure(p).width + floatsBeside)
            floatsBeside = 0
        }
        for child in splittingInlines(el.children) {
            if case .element(let c) = child, c.style.float != nil, c.style.display != .none {
                if c.style.clear != .none { endFloats() }
                if minimum { widths.append(intrinsicWidth(c, minimum: true)) } else { floatsBeside += intrinsicWidth(c, minimum: false) }
                continue
            }
            // A flex or grid container's element children are items, block-level whatever their display.
            if case .element(let c) = child, isBlockLevel(c) || ((s.display == .flex || s.display == .grid) && c.element.tag != "br") {
                if c.style.display == .none || c.style.position == .absolute { continue }
                flush()
                if floatsBeside > 0, c.style.clear == .none, startsFormattingContext(c, formattingRoot: false, shrinkToFit: false) {
                    floatsBeside += intrinsicWidth(c, minimum: minimum)
                    endFloats()
                } else {
                    endFloats()
                    widths.append(intrinsicWidth(c, minimum: minimum))
                }
            } else { inline.append(child) }
        }
        flush()
        endFloats()
        let rowSum = s.display == .flex && s.isFlexRow && !(minimum && s.flexWrap)
        let content = rowSum ? widths.reduce(0, +) + (s.columnGap.resolve(0) ?? 0) * Double(max(0, widths.count - 1)) : (widths.max() ?? 0)
        return content + frame
    }
}
