import Testing
import Styling
import Typography

/// The CSS-wide keywords (CSS Cascade 4 §7.3), the style an element's attributes give (HTML
/// §15.4.3, §15.3.3) and other keyword values, as the cascade takes them.
@Suite struct CascadeKeywordTests {
    @Test func inheritTakesTheParentsValueOverEarlierRules() throws {
        let (s, warnings) = try computedStyles("""
        <style>div div { bottom: 10px; color: red } .x { bottom: inherit; color: inherit } #plain { bottom: inherit }</style>
        <div style="position: relative; bottom: 50%; color: blue"><div id="x" class="x"></div></div>
        <div><div id="plain"></div></div>
        """)
        #expect(s["x"]?.bottom == .percent(50)) // not inherited: the parent's declared value
        #expect(s["x"]?.color == RGBA(0, 0, 1)) // inherited: the parent's, not the earlier red
        #expect(s["plain"]?.bottom == .auto) // a parent declaring nothing has the initial value
        #expect(warnings.isEmpty, "\(warnings)")
    }

    @Test func initialAndUnsetGoBackToTheInitialValueOrTheParents() throws {
        let (s, warnings) = try computedStyles("""
        <style>.p { font-size: 30px; color: green; margin: 5px } .c { font-size: initial; color: initial; margin: 7px; margin-top: unset; letter-spacing: 2px; padding-top: 3px; padding-top: initial }
        .c { letter-spacing: unset } .f { font-family: initial }</style>
        <div class="p"><div id="c" class="c"></div><div id="f" class="f"></div></div>
        """, file: "keywords.html")
        #expect(s["c"]?.fontSize == 16)
        #expect(s["c"]?.color == RGBA.black)
        #expect(s["c"]?.margin == [.points(7), .points(7), .points(7), .points(7)]) // warned, below
        #expect(s["c"]?.letterSpacing == 0)
        #expect(s["c"]?.padding[0] == .zero)
        // An initial value this cascade does not know is said, with the declaration's place.
        #expect(warnings == ["keywords.html:1: margin-top: unset after margin in the same element's rules is not supported; margin is applied as declared",
                             "keywords.html:2: font-family: initial is not supported; the parent's value is kept"])
    }

    @Test func anImagesAttributesGiveItsSizeAndFloat() throws {
        let (s, warnings) = try computedStyles("""
        <style>#css { width: 20px }</style>
        <div><img id="percent" width="50%" height=" 12.5abc"></div>
        <div><img id="pixels" width="40px" align="LEFT"></div>
        <div><img id="css" width="40" align="right"></div>
        <div><img id="bad" width="wide" align="middle"></div>
        """, file: "hints.html")
        #expect(s["percent"]?.width == .percent(50) && s["percent"]?.height == .points(12.5))
        #expect(s["pixels"]?.width == .points(40) && s["pixels"]?.float == .left)
        #expect(s["css"]?.width == .points(20) && s["css"]?.float == .right) // a template rule wins
        #expect(s["bad"]?.width == .auto)
        #expect(warnings == ["hints.html:5: CSS vertical-align: middle is not supported by the PNG renderer; it is ignored there and the browser may differ"])
    }

    @Test func aPercentageWidthAttributeIsLaidOutAgainstTheContainingBlock() throws {
        let probe = try LayoutProbe("""
        <div style="width: 200px"><img id="i" width="50%" height="30"></div>
        """, fonts: try FontSystem(fonts: try FontSet.standard()))
        #expect(probe.boxes["i"]?.width == 100)
        #expect(probe.boxes["i"]?.height == 30)
    }

    /// An `<svg>` with a height but neither a width nor a viewBox has no ratio: a CSS height leaves
    /// it 300 pt wide (CSS 2.1 §10.3.2), as Chromium draws it; with a viewBox the height gives the width.
    @Test func anSVGWithoutAViewBoxKeepsItsDefaultWidth() throws {
        let probe = try LayoutProbe("""
        <svg id="plain" height="50" style="height: 100px; display: block"></svg>
        <svg id="boxed" viewBox="0 0 40 20" style="height: 100px; display: block"></svg>
        """, fonts: try FontSystem(fonts: try FontSet.standard()))
        #expect(probe.boxes["plain"]?.width == 300 && probe.boxes["plain"]?.height == 100)
        #expect(probe.boxes["boxed"]?.width == 200)
    }

    @Test func aFloatAfterAnInlinesStartMarginIsWarnedAbout() throws {
        let (_, warnings) = try computedStyles("""
        <div><span style="margin-left: 40px"><b style="float: left">x</b></span></div>
        <div><span style="margin-left: auto"><b style="float: left">y</b></span></div>
        """, file: "floats.html")
        #expect(warnings.count == 1 && warnings[0].hasPrefix("floats.html:1: <b>: float after other content of its line"), "\(warnings)")
    }

    /// thin, medium and thick are 1, 3 and 5 px wherever a border width is given (WPT
    /// floats-wrap-top-below-bfc-001l's `border: medium solid` was refused whole).
    @Test func borderWidthKeywordsAreLengths() throws {
        let (s, warnings) = try computedStyles("""
        <div id="a" style="border: medium solid"></div>
        <div id="b" style="border-width: thin thick; border-left-width: THICK; border-style: solid"></div>
        """)
        #expect(s["a"]?.borderWidth == [3, 3, 3, 3])
        #expect(s["b"]?.borderWidth == [1, 5, 1, 5])
        #expect(warnings.isEmpty, "\(warnings)")
    }
}
