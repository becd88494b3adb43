import Layout
import Styling
import Templating
import Testing
import Typography

/// Floats, clear and the boxes and lines that avoid them (CSS 2.1 §9.5, §10.6.7); the fidelity
/// fixtures float-*.html check the same against Chromium box by box.
@Suite struct FloatLayoutTests {
    let fonts: FontSystem
    init() throws { fonts = try FontSystem(fonts: try FontSet.standard()) }

    struct Laid {
        var scene: Scene
        var warnings: [String]
        /// The page frame of the box with `id` (NaN when there is none, so every check fails).
        subscript(id: String) -> Rect {
            scene.boxes.first { $0.id == id }.map { Rect(x: $0.x, y: $0.y, width: $0.width, height: $0.height) } ?? Rect(x: .nan, y: .nan, width: .nan, height: .nan)
        }
        /// The pieces of text in the box with `id`, in its own coordinates.
        func texts(_ id: String) -> [Rect] {
            guard let box = scene.find(id: id)?.box else { return [] }
            return box.items.compactMap { if case .text(let t) = $0 { t.frame } else { nil } }
        }
    }

    func layout(_ html: String, width: Double = 300) throws -> Laid {
        let document = try HTMLParser.parse("<div style=\"font: 14px/18px Inter\">\(html)</div>", file: "floats.html")
        let sheets = document.styleSheets.map { Stylesheet($0.text, file: "floats.html", firstLine: $0.line) }
        let (styled, warnings) = StyleResolver(sheets: sheets, appearance: .light).resolve(document.body, file: "floats.html")
        let scene = LayoutEngine(fonts: fonts) { _ in nil }.layout(styled, width: width)
        return Laid(scene: scene, warnings: (sheets.flatMap(\.warnings) + warnings).map(\.message))
    }

    @Test func linesBesideAFloatAreShortenedAndWidenBelowIt() throws {
        let laid = try layout("""
        <div id="f" style="float: left; width: 100px; height: 36px"></div>
        <p id="p" style="margin: 0">Words that run beside the float for two lines and then go on under it at the whole width of the page.</p>
        """)
        let pieces = laid.texts("p")
        #expect(pieces.count == 2)
        #expect(pieces.first?.x == 100 && pieces.first?.width == 200)
        #expect(pieces.first?.height == 36) // two 18 pt lines beside the float, the third below it
        #expect(pieces.last?.x == 0 && pieces.last?.width == 300 && pieces.last?.y == 36)
        #expect(laid["p"].y == 0 && laid["p"].width == 300) // the block itself runs under the float
    }

    @Test func aLineWhoseFirstWordDoesNotFitMovesBelowTheFloat() throws {
        let laid = try layout("""
        <div id="f" style="float: right; width: 280px; height: 30px"></div>
        <p id="p" style="margin: 0">Unbreakable</p>
        """)
        #expect(laid.texts("p").first?.y == 30)
        #expect(laid["p"].height == 48) // the gap above the moved line is part of the block
    }

    @Test func anUnwrappedLineStaysBesideTheFloatAndAutoMarginsShareTheRoom() throws {
        let laid = try layout("""
        <div id="f" style="float: left; width: 100px; height: 40px"></div>
        <div id="centred" style="overflow: hidden; width: 100px; height: 10px; margin: 0 auto"></div>
        <p id="p" style="margin: 0; white-space: nowrap">An unwrapped line far too long for the room beside the float</p>
        """)
        #expect(laid["centred"].x == 150) // centred in the 200 pt beside the float, not in the page
        #expect(laid.texts("p").first.map { ($0.x, $0.y) } ?? (.nan, .nan) == (100, 0))
    }

    @Test func marginsCollapsingThroughNestedBlocksPlaceTheirLinesBesideTheFloat() throws {
        // Twelve blocks, each a margin deeper: the text is where all the margins collapsed put it.
        let nested = (1...12).map { "<div style=\"margin-top: \($0)px\">" }.joined() + "<p id=\"p\" style=\"margin: 0\">Beside</p>" + String(repeating: "</div>", count: 12)
        let laid = try layout("<div id=\"f\" style=\"float: left; width: 50px; height: 30px\"></div>" + nested)
        #expect(laid["p"].y == 12)
        #expect(laid.texts("p").first?.x == 50)
    }

    @Test func floatsStackBesideEachOtherAndDropWhenThereIsNoRoom() throws {
        let laid = try layout("""
        <div style="width: 200px">
          <div id="a" style="float: left; width: 80px; height: 30px"></div>
          <div id="b" style="float: left; width: 80px; height: 20px; margin-left: 5px"></div>
          <div id="c" style="float: left; width: 80px; height: 10px"></div>
          <div id="r" style="float: right; width: 30px; height: 10px"></div>
          <div id="t" style="float: left; width: 10px; height: 10px"></div>
        </div>
        """)
        #expect((laid["a"].x, laid["a"].y) == (0, 0))
        #expect((laid["b"].x, laid["b"].y) == (85, 0))
        // No room beside a and b: c goes down to b's bottom, beside a.
        #expect((laid["c"].x, laid["c"].y) == (80, 20))
        // A right float comes after c, so it is not above c's top (§9.5.1 rule 5).
        #expect((laid["r"].x, laid["r"].y) == (170, 20))
        #expect((laid["t"].x, laid["t"].y) == (160, 20))
    }

    @Test func clearanceMovesTheBorderEdgeBelowTheFloatOnlyWhenNeeded() throws {
        let laid = try layout("""
        <div style="overflow: hidden">
          <div style="float: left; width: 50px; height: 40px"></div>
          <div style="float: right; width: 50px; height: 60px"></div>
          <div id="l" style="clear: left; margin-top: 10px; height: 5px"></div>
          <div id="b" style="clear: both; height: 5px"></div>
          <div style="float: left; width: 50px; height: 20px"></div>
          <div id="far" style="clear: left; margin-top: 40px; height: 5px"></div>
        </div>
        """)
        #expect(laid["l"].y == 40) // its margin would put it at 10: clearance, border edge at the float's bottom
        #expect(laid["b"].y == 60)
        #expect(laid["far"].y == 105) // 65 + 40 is already below the float (65…85): no clearance
    }

    @Test func aFormattingContextRootGoesBesideTheFloatOrBelowIt() throws {
        let laid = try layout("""
        <div id="f" style="float: left; width: 90px; height: 50px; margin-right: 10px"></div>
        <div id="hidden" style="overflow: hidden; margin-left: 20px; height: 10px"></div>
        <div id="flow" style="display: flow-root; height: 10px"></div>
        <div id="wide" style="overflow: hidden; width: 250px; height: 10px"></div>
        <div id="plain" style="height: 10px"></div>
        """)
        #expect((laid["hidden"].x, laid["hidden"].width) == (100, 200)) // its 20 pt margin lies under the float
        #expect((laid["flow"].x, laid["flow"].y, laid["flow"].width) == (100, 10, 200))
        #expect((laid["wide"].x, laid["wide"].y) == (0, 50))
        #expect((laid["plain"].x, laid["plain"].width) == (0, 300))
    }

    @Test func aFormattingContextRootsAutoHeightHoldsItsFloats() throws {
        let laid = try layout("""
        <div id="hidden" style="overflow: hidden; padding: 4px"><div style="float: left; width: 10px; height: 60px; margin-bottom: 6px"></div><div style="height: 10px"></div></div>
        <div id="plain"><div style="float: left; width: 10px; height: 60px"></div></div>
        <div id="outer" style="float: left; clear: both; padding: 5px"><div style="float: left; width: 40px; height: 30px"></div><div style="float: left; width: 30px; height: 50px"></div></div>
        """)
        #expect(laid["hidden"].height == 74) // 4 + 60 + 6 (the float's margin box) + 4
        #expect(laid["plain"].height == 0)
        // A float is shrink-to-fit: its floats side by side, and its height holds them.
        #expect((laid["outer"].width, laid["outer"].height) == (80, 60))
    }

    @Test func aFloatsWidthIsAPercentageOrShrinkToFit() throws {
        let laid = try layout("""
        <div style="width: 200px; padding: 0 10px">
          <div id="pct" style="float: left; width: 40%; height: 10px; padding: 0 5px"></div>
          <div id="long" style="float: left; clear: both">Text that is longer than one line of this box is as wide as the box.</div>
        </div>
        """)
        #expect((laid["pct"].x, laid["pct"].width) == (10, 90))
        #expect((laid["long"].x, laid["long"].width) == (10, 200))
        #expect(laid["long"].height > 18)
    }

    @Test func marginsOfFloatsDoNotCollapse() throws {
        let laid = try layout("""
        <div id="box" style="overflow: hidden">
          <div id="f" style="float: left; width: 10px; height: 10px; margin: 12px 0"></div>
          <div id="g" style="float: left; clear: left; width: 10px; height: 10px; margin: 8px 0"></div>
          <div id="in" style="margin-top: 5px; height: 1px"></div>
        </div>
        """)
        #expect(laid["f"].y == 12)
        #expect(laid["g"].y == 42) // 12 + 10 + 12, then its own 8
        #expect(laid["in"].y == 5) // in-flow margins ignore the floats
        #expect(laid["box"].height == 60)
    }

    @Test func leftStaysLeftInRightToLeftAndInlineStartFollowsTheDirection() throws {
        let laid = try layout("""
        <div style="direction: rtl">
          <div id="left" style="float: left; width: 50px; height: 10px"></div>
          <div id="start" style="float: inline-start; width: 60px; height: 10px"></div>
          <div id="end" style="float: inline-end; width: 20px; height: 10px"></div>
          <div id="clear" style="clear: inline-start; height: 1px"></div>
        </div>
        <div><div id="ltr-start" style="float: inline-start; width: 60px; height: 10px"></div></div>
        """)
        #expect(laid["left"].x == 0)
        #expect(laid["start"].x == 240)
        #expect(laid["end"].x == 50)
        #expect(laid["clear"].y == 10)
        #expect(laid["ltr-start"].x == 0)
        #expect(laid.warnings.isEmpty, "\(laid.warnings)")
    }

    @Test func aFloatAfterTextInItsLineIsWarnedAboutAndABadValueToo() throws {
        let laid = try layout("""
        <p>Text <span id="late" style="float: right; width: 20px; height: 20px"></span>then more.</p>
        <p><span style="float: left; width: 20px; height: 20px"></span>A float first in its line is placed as Chromium places it.</p>
        <div style="float: middle; clear: sideways"></div>
        """)
        #expect(laid.warnings.count == 3, "\(laid.warnings)")
        #expect(laid.warnings.contains { $0.contains("<span>: float after other content of its line") })
        #expect(laid.warnings.contains { $0.hasPrefix("CSS float: middle") })
        #expect(laid.warnings.contains { $0.hasPrefix("CSS clear: sideways") })
    }

    /// The body keeps its own width and side margins (it was stretched to the page): floats and
    /// boxes inside it are placed within it (WPT floats-wrap-top-below-bfc-002r).
    @Test func aBodyOfItsOwnWidthHoldsWhatIsInIt() throws {
        let probe = try LayoutProbe("""
        <style>body { width: 200px; margin: 0 auto }</style>
        <div id="right" style="float: right; width: 80px; height: 10px"></div><div id="left" style="float: left; width: 150px; height: 10px"></div>
        """, fonts: fonts, width: 360)
        #expect(probe.boxes["right"]?.x == 200 && probe.boxes["right"]?.y == 0) // 80 + 200 = the body's right edge at 280
        #expect(probe.boxes["left"]?.x == 80 && probe.boxes["left"]?.y == 10) // no room beside the right one
    }
}
