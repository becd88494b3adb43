import Testing
import Typography

/// `justify-content: left | right` as Blink lays them out (the justify-left-right fixtures check
/// the same shapes against Chromium live): physical in a flex row, `start` in a column.
struct JustifyPhysicalTests {
    let fonts: FontSystem
    init() throws { fonts = try FontSystem(fonts: try FontSet.standard()) }

    func row(_ style: String) -> String {
        #"<div style="display: flex; width: 300px; height: 10px; \#(style)"><div id="a" style="width: 40px"></div><div id="b" style="width: 50px"></div></div>"#
    }

    @Test func leftAndRightArePhysicalInRowsWhateverTheDirection() throws {
        for direction in ["ltr", "rtl"] {
            for reverse in [false, true] {
                let flow = "direction: \(direction);" + (reverse ? " flex-direction: row-reverse;" : "")
                let left = try LayoutProbe(row(flow + " justify-content: left"), fonts: fonts)
                let right = try LayoutProbe(row(flow + " justify-content: right"), fonts: fonts)
                // Both items touch the named edge, in the order the direction and reversal give.
                let l = [left.boxes["a"]!, left.boxes["b"]!], r = [right.boxes["a"]!, right.boxes["b"]!]
                #expect(l.map(\.x).min() == 0, "\(flow)")
                #expect(r.map { $0.x + $0.width }.max() == 300, "\(flow)")
                let firstOnTheLeft = (direction == "ltr") != reverse
                #expect((l[0].x < l[1].x) == firstOnTheLeft && (r[0].x < r[1].x) == firstOnTheLeft, "\(flow)")
                #expect(left.warnings.isEmpty && right.warnings.isEmpty, "\(left.warnings + right.warnings)")
            }
        }
    }

    @Test func inAColumnTheyAreStart() throws {
        let html = #"<div style="display: flex; flex-direction: column-reverse; justify-content: right; height: 100px"><div id="a" style="height: 10px"></div><div id="b" style="height: 20px"></div></div>"#
        let p = try LayoutProbe(html, fonts: fonts)
        // `start` is the top even in column-reverse (flex-start would be the bottom).
        #expect(p.boxes["b"]!.y == 0 && p.boxes["a"]!.y == 20)
    }

    @Test func anItemWiderThanTheRowOverflowsTheOtherSide() throws {
        let p = try LayoutProbe(#"<div style="display: flex; justify-content: right; width: 50px"><div id="a" style="width: 80px; height: 5px; flex-shrink: 0"></div></div>"#, fonts: fonts)
        #expect(p.boxes["a"]!.x == -30)
    }

    @Test func onlyJustifyContentTakesThem() throws {
        let p = try LayoutProbe(#"<div style="display: flex; align-items: left; justify-items: right; justify-content: safe right"></div>"#, fonts: fonts)
        for property in ["align-items: left", "justify-items: right", "justify-content: safe right"] {
            #expect(p.warnings.contains { $0.contains(property) }, "\(property): \(p.warnings)")
        }
    }
}
