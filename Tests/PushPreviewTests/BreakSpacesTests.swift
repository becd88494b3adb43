import Testing
import Typography

/// `white-space: break-spaces` (the white-space-break-spaces fixtures check it against Chromium):
/// spaces kept, never hanging, with a break opportunity after each.
struct BreakSpacesTests {
    let fonts: FontSystem
    init() throws { fonts = try FontSystem(fonts: try FontSet.standard()) }

    func probe(_ whiteSpace: String, _ body: String) throws -> LayoutProbe {
        try LayoutProbe(#"<div style="font: 15px/20px Inter; white-space: \#(whiteSpace)">\#(body)</div>"#, fonts: fonts)
    }

    @Test func aRunOfSpacesWrapsInsteadOfHanging() throws {
        let body = #"<div id="box" style="width: 40px">x                    y</div>"#
        // pre-wrap lets the 20 spaces hang past the edge: one line for x, one for y.
        #expect(try probe("pre-wrap", body).boxes["box"]?.height == 40)
        // break-spaces breaks between them: x and 7 spaces, 9 spaces, then 4 spaces and y (as Chromium).
        #expect(try probe("break-spaces", body).boxes["box"]?.height == 60)
    }

    @Test func trailingSpacesCountTowardsTheBoxesSize() throws {
        let fit = try probe("break-spaces", #"<span id="spaces" style="display: inline-block">Pier 3   </span><br><span id="none" style="display: inline-block">Pier 3</span>"#)
        let spaces = try #require(fit.boxes["spaces"]), none = try #require(fit.boxes["none"])
        #expect(spaces.width > none.width + 10)
        // min-content: the widest piece between break opportunities, a word with the space after it.
        let min = try probe("break-spaces", #"<span id="min" style="display: inline-block; width: min-content">Pier  33 x</span><br><span id="word" style="display: inline-block">Pier</span>"#)
        let minWidth = try #require(min.boxes["min"]?.width), word = try #require(min.boxes["word"]?.width)
        #expect(minWidth > word + 3 && minWidth < word + 5.5)
    }

    @Test func aLineMayBreakBetweenAnInlineBlockAndTheSpaceAfterIt() throws {
        let p = try probe("break-spaces", #"<div style="width: 48px">Ferry<span id="m" style="display: inline-block; width: 8px; height: 6px"></span> pier</div>"#)
        // "Ferry" and the box fit in 48 px, the space does not: it starts the second line, the box stays on the first.
        #expect(p.boxes["m"]?.y == 9)
        #expect(p.warnings.isEmpty, "\(p.warnings)")
    }

    /// pre-line keeps segment breaks and collapses the rest, with no space left next to a break.
    @Test func preLineCollapsesSpacesAndKeepsLineBreaks() throws {
        let p = try probe("pre-line", "<span id=\"a\" style=\"display: inline-block\">Pier    3  \n   west\tside</span><br><span id=\"b\" style=\"display: inline-block\">Pier 3\nwest side</span>")
        let text = p.texts.flatMap { $0.paragraph.runs.map(\.text) }.joined()
        #expect(text.contains("Pier 3\nwest side"), "\(text.debugDescription)")
        #expect(p.boxes["a"]?.width == p.boxes["b"]?.width && p.boxes["a"]?.height == 40)
    }

    /// An unwrapped line too long for its box starts at the start edge (CSS Text 3 §6.1): in
    /// right-to-left text the right one, the overflow on the left; in left-to-right the left one.
    @Test func anOverlongUnwrappedLineStartsAtItsStartEdge() throws {
        let line = #"<span id="first" style="display: inline-block; width: 10px; height: 10px"></span> the ferry to Westhaven leaves at 18:40"#
        let rtl = try probe("nowrap", #"<div dir="rtl" style="width: 100px">\#(line)</div>"#)
        #expect(rtl.boxes["first"]?.x == 90)
        let ltr = try probe("nowrap", #"<div style="width: 100px; text-align: right">\#(line)</div>"#)
        #expect(ltr.boxes["first"]?.x == 0)
    }
}
