import Testing
import Typography

/// What Blink gives room to in a line though it draws no letter (the inline-empty fixtures check
/// the same shapes against Chromium live): a no-break space, and an inline box's edges.
struct EmptyInlineContentTests {
    let fonts: FontSystem
    init() throws { fonts = try FontSystem(fonts: try FontSet.standard()) }

    func probe(_ body: String) throws -> LayoutProbe {
        try LayoutProbe(inBox: body, fonts: fonts)
    }

    @Test func aBoxHoldingOnlyANoBreakSpaceIsASpaceWideAndALineTall() throws {
        let p = try probe(#"<span id="ib" style="display: inline-block">&nbsp;</span><div style="display: flex"><div id="item">&nbsp;</div></div><div style="position: relative"><div id="abs" style="position: absolute">&nbsp;</div></div>"#)
        for id in ["ib", "item", "abs"] {
            let box = try #require(p.boxes[id])
            // Inter's space at 15 px is 4.23 pt; 0 × 0 when it was collapsed away.
            #expect(abs(box.width - 4.23) < 0.05 && box.height == 20, "\(id): \(box)")
        }
    }

    @Test func aNoBreakSpaceDoesNotBreakALine() throws {
        let p = try probe(#"<div id="d" style="width: 60px">Pier&nbsp;33&nbsp;north</div><div id="plain" style="width: 60px">Pier 33 north</div>"#)
        #expect(p.boxes["d"]?.height == 20 && p.boxes["plain"]?.height == 40)
    }

    @Test func inlineEdgesMakeALineAndTakeRoomInIt() throws {
        let p = try probe(#"""
        <div id="padded"><span style="padding: 4px"></span></div>
        <div id="vertical"><span style="padding: 4px 0"></span></div>
        <span id="fit" style="display: inline-block"><span style="padding: 0 5px"></span></span>
        <div><span id="plain-m" style="display: inline-block; width: 2px; height: 2px"></span></div>
        <div>Pier <span style="padding: 0 6px 0 9px">33</span><span id="m" style="display: inline-block; width: 2px; height: 2px"></span></div>
        <div>Pier 33<span id="n" style="display: inline-block; width: 2px; height: 2px"></span></div>
        """#)
        #expect(p.boxes["padded"]?.height == 20 && p.boxes["vertical"]?.height == 0)
        #expect(p.boxes["fit"]?.width == 10 && p.boxes["fit"]?.height == 20)
        let padded = try #require(p.boxes["m"]?.x), plain = try #require(p.boxes["n"]?.x)
        #expect(abs(padded - plain - 15) < 0.01)
    }

    @Test func noLineBreaksBetweenAnEdgeAndItsBoxesText() throws {
        // "ferry" with its 30 pt start edge does not fit after "Westhaven": both go to the next line together.
        let p = try probe(#"<div style="width: 100px">Westhaven <span style="padding-left: 30px">ferry</span><span id="m" style="display: inline-block; width: 2px; height: 2px"></span></div>"#)
        let m = try #require(p.boxes["m"])
        #expect(m.y > 20 && m.x > 60)
    }

    @Test func anInlineBoxsBackgroundIsWarnedAboutNotDroppedSilently() throws {
        let p = try probe(#"<span style="background: #eee; padding: 2px 6px">badge</span> <span style="padding: 0 4px">plain</span>"#)
        #expect(p.warnings.count == 1 && p.warnings[0].contains("backgrounds, borders and shadows of inline boxes are not drawn"), "\(p.warnings)")
    }
}
