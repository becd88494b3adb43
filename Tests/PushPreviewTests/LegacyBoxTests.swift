import Testing
import Typography

/// `display: -webkit-inline-box` and `-webkit-box`, and inline-level flex containers, as Blink lays
/// them out (the legacy-inline-box fixtures check the same shapes against Chromium live).
struct LegacyBoxTests {
    let fonts: FontSystem
    init() throws { fonts = try FontSystem(fonts: try FontSet.standard()) }

    func probe(_ body: String) throws -> LayoutProbe {
        try LayoutProbe(inBox: body, fonts: fonts)
    }

    @Test func theLineClampIdiomIsAClampedInlineBlock() throws {
        let p = try probe(#"Before <span id="c" style="display: -webkit-inline-box; -webkit-box-orient: vertical; -webkit-line-clamp: 2; overflow: hidden; width: 120px">The ferry to Westhaven leaves at 18:40 from pier 3 as usual today</span> after"#)
        let c = try #require(p.boxes["c"])
        #expect(c.x > 40 && c.y == 0) // in the line, after "Before"
        #expect(c.width == 120 && c.height == 40) // two lines of 20, not four
        #expect(p.warnings.isEmpty, "\(p.warnings)")
    }

    @Test func withoutTheClampItIsAFlexContainerWhoseItemsNeverShrink() throws {
        let p = try probe(#"<div id="box" style="display: -webkit-box; width: 200px"><div id="a" style="width: 150px; height: 10px"></div><div id="b" style="width: 90px; height: 10px"></div></div>"#)
        // In a row, past the 200 px box: flex-shrink would have made them 125 and 75.
        #expect(p.boxes["a"]?.width == 150 && p.boxes["b"]?.x == 150 && p.boxes["b"]?.width == 90)
        #expect(p.warnings.count == 1 && p.warnings[0].contains("display: -webkit-box without -webkit-box-orient: vertical and -webkit-line-clamp"), "\(p.warnings)")
    }

    @Test func inlineFlexSitsInTheLineOnItsFirstItemsBaseline() throws {
        let p = try probe(#"<div id="line">Before <span id="f" style="display: inline-flex"><span id="m" style="width: 8px; height: 6px"></span><span style="width: 20px; height: 30px"></span></span> after</div>"#)
        let f = try #require(p.boxes["f"]), line = try #require(p.boxes["line"])
        #expect(f.x > 40 && f.width == 28 && f.height == 30)
        // Its baseline is the first item's bottom, 6 pt down: the box hangs 24 pt below the text's baseline.
        #expect(line.height == 39 && f.y == 9)
    }
}
