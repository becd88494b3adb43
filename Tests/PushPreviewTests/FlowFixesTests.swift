import Layout
import Testing
import Typography

/// Silent misses of issue 37, each against what Chromium 156 laid out for the same markup (the
/// fixture pairs of the same names, recorded at real scale 3): margins through nested empty
/// blocks, flex-shrink factors below 1, the default style sheet's lists and their markers, a
/// block inside an inline, nowrap shrink-to-fit boxes, word-break: break-all.
struct FlowFixesTests {
    let fonts: FontSystem
    init() throws { fonts = try FontSystem(fonts: try FontSet.standard()) }

    func y(_ html: String, _ id: String) throws -> Double { try #require(try LayoutProbe(html, fonts: fonts, scale: 3).boxes[id]).y }

    /// CSS 2.1 §8.3.1: every margin from the first box's bottom to the next one's top adjoins,
    /// through an empty block nested in an empty block: 20, 30, 48, 12, −6, 5 collapse to 48 − 6.
    @Test func marginsCollapseThroughNestedEmptyBlocks() throws {
        let html = #"""
        <div id="first" style="height: 20px; margin-bottom: 20px"></div>
        <div style="margin: 30px 0"><div style="margin: 48px 0"><div style="margin: 12px 0 -6px"></div></div></div>
        <div id="second" style="height: 20px; margin-top: 5px"></div>
        """#
        #expect(try y(html, "second") == 20 + 42)
        // A negative margin inside a box's top still collapses with the margins before the box.
        let nested = #"<div style="height: 10px; margin-bottom: 20px"></div><div style="margin-top: 10px"><div id="in" style="margin-top: -6px; height: 10px"></div></div>"#
        #expect(try y(nested, "in") == 10 + 14)
    }

    /// Flexbox §9.7 step 4b: factors summing below 1 take only that share of the free space.
    @Test func shrinkFactorsBelowOneTakeTheirShareOfTheOverflow() throws {
        func widths(_ items: String) throws -> [Double] {
            let probe = try LayoutProbe(#"<div style="display: flex; width: 200px">\#(items)</div>"#, fonts: fonts, scale: 3)
            return ["a", "b"].compactMap { probe.boxes[$0]?.width }
        }
        #expect(try widths(#"<div id="a" style="flex: 0 0.25 150px"></div><div id="b" style="flex: 0 0.25 150px"></div>"#) == [125, 125])
        #expect(try widths(#"<div id="a" style="flex: 0 0.1 300px"></div>"#) == [290])
        #expect(try widths(#"<div id="a" style="flex: 0 0.3 120px"></div><div id="b" style="flex: 0 0.2 180px"></div>"#) == [95, 155])
        #expect(try widths(#"<div id="a" style="flex: 0.2 0 50px"></div><div id="b" style="flex: 0.3 0 50px"></div>"#) == [70, 80])
    }

    /// HTML §15.3.8: lists have a 40 px inline-start padding (the right one in rtl), and nested
    /// lists no block margins.
    @Test func listsHaveTheDefaultPadding() throws {
        let probe = try LayoutProbe(#"<ul><li id="a">One<ul><li id="b">Two</li></ul></li></ul><ol dir="rtl"><li id="c">Three</li></ol>"#, fonts: fonts, scale: 3)
        #expect(probe.boxes["a"]?.x == 40 && probe.boxes["a"]?.width == 320)
        #expect(probe.boxes["b"]?.x == 80 && probe.boxes["b"]?.width == 280)
        #expect(probe.boxes["c"]?.x == 0 && probe.boxes["c"]?.width == 320)
        #expect(probe.warnings.isEmpty, "\(probe.warnings)")
    }

    /// CSS Lists 3: a marker outside each item's first line, its end at the content's start edge,
    /// on the first baseline; none with list-style: none.
    @Test func listItemsHaveMarkersOutside() throws {
        let probe = try LayoutProbe(#"<ul><li>Disc</li></ul><ol><li>A</li><li>B</li></ol><ul dir="rtl"><li>R</li></ul><ul style="list-style: none"><li>No marker</li></ul>"#,
                                    fonts: fonts, scale: 3)
        let texts = probe.texts.map { $0.paragraph.text }
        #expect(texts.filter { ["\u{2022} ", "1. ", "2. "].contains($0) }.count == 4, "\(texts)")
        // Frames are the item's: the disc ends at its left edge, the rtl one starts at its right.
        let disc = try #require(probe.texts.first { $0.paragraph.text == "\u{2022} " })
        #expect(abs(disc.frame.x + disc.frame.width) < 1e-9)
        let rtl = try #require(probe.texts.last { $0.paragraph.text == "\u{2022} " })
        #expect(rtl.frame.x == 320)
        #expect(probe.texts.count == 9)
    }

    /// CSS 2.1 §9.2.1.1: the inline is split around the block, which is laid out between the
    /// lines before and after it (it was dropped).
    @Test func aBlockInsideAnInlineSplitsIt() throws {
        let probe = try LayoutProbe(#"<div style="font: 15px Inter; width: 240px"><span>One<div id="b" style="height: 10px"></div>Two</span></div><div id="after">x</div>"#,
                                    fonts: fonts, scale: 3)
        #expect(try #require(probe.boxes["b"]).y == 55.0 / 3)
        #expect(try #require(probe.boxes["b"]).height == 10)
        #expect(try #require(probe.boxes["after"]).y == 10 + 2 * 55.0 / 3)
    }

    /// A nowrap inline-block or float keeps its unbroken line and overflows its containing block.
    @Test func nowrapShrinkToFitBoxesOverflow() throws {
        let probe = try LayoutProbe(#"<div style="font: 15px Inter; width: 100px"><span id="ib" style="display: inline-block; white-space: nowrap">a rather long unbroken line</span><div id="fl" style="float: left; white-space: nowrap">a float wider than its box</div></div>"#,
                                    fonts: fonts, scale: 3)
        #expect(abs(try #require(probe.boxes["ib"]).width - 189.656) < 0.1)
        #expect(abs(try #require(probe.boxes["fl"]).width - 175.203) < 0.1)
    }

    /// word-break: break-all fills each line, breaking anywhere: two lines where overflow-wrap's
    /// break only inside a word too long for a line of its own makes three.
    @Test func breakAllFillsLines() throws {
        let probe = try LayoutProbe(#"<div id="all" style="font: 16px Inter; width: 200px; word-break: break-all">Supercalifragilistic wordsthatgoon andon and on</div>"#,
                                    fonts: fonts, scale: 3)
        #expect(abs(try #require(probe.boxes["all"]).height - 2 * 59.0 / 3) < 1e-9)
    }

    /// Preserved spaces are not collapsible, so the space after a pre span stays (it was collapsed
    /// into them); pre-wrap's space before a forced break hangs instead of making a line of its own.
    @Test func whiteSpaceAcrossSpansAndBeforeForcedBreaks() throws {
        let mixed = try LayoutProbe(#"<div style="font: 15px Inter"><span style="white-space: pre">x  </span> y</div>"#, fonts: fonts, scale: 3)
        #expect(mixed.texts.map { $0.paragraph.text } == ["x   y"])
        let preWrap = try LayoutProbe(#"<div id="g" style="font: 15px Inter; white-space: pre-wrap; width: 60px">one two <br>x</div>"#, fonts: fonts, scale: 3)
        #expect(abs(try #require(preWrap.boxes["g"]).height - 2 * 55.0 / 3) < 1e-9)
    }
}
