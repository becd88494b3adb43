import Foundation
import Testing
import PushPreview

/// The CSS added for real templates (math functions, grid, transforms, blurs, shadows, radial
/// gradients, sizing keywords) on hostile values: each is drawn or refused with a warning, in
/// bounded time, and the rest of the view is still drawn.
struct HostileBreadthTests {
    func render(_ template: String) throws -> [MockupResult] {
        var f = ContentStageTests.Fixture()
        f.template = template
        return try f.render()
    }

    @Test(arguments: [
        "width: " + String(repeating: "calc(", count: 100) + "1px" + String(repeating: ")", count: 100),
        "width: calc(100% / 0)", "width: calc(1e308px * 1e308)", "height: clamp(10px)", "margin: min(1px, , 2px) 0",
        "width: calc(50% - infpx)", "padding: max(nan, 1px)",
        "display: grid; grid-template-columns: repeat(100000, 1px)", "display: grid; grid-template-columns: repeat(1000, repeat(1000, 1fr))",
        "display: grid; grid-template-areas: 'a b' 'c'", "display: grid; grid-template-columns: minmax(1fr, 2px)",
        "display: grid; grid-template-rows: 1e308px 1e308fr", "display: grid; grid-auto-rows: -5px",
        "transform: scale(1e308)", "transform: scale(0)", "transform: rotate(1e308deg) translate(1e308px, -1e308px)",
        "transform: matrix(1, 2, 3)", "transform: skew(90deg)", "transform-origin: 1e308px nan",
        "filter: blur(1e9px)", "backdrop-filter: blur(100000px)", "filter: blur(-4px)",
        "text-shadow: 0 0 1e9px red", "box-shadow: inset 0 0 1e9px 1e9px red", "box-shadow: inset 1e308px 0 0 red",
        "background: radial-gradient(circle 1e308px at nan 0, red, blue)", "background: radial-gradient(at, red)",
        "width: fit-content; min-width: max-content; max-width: min-content", "height: stretch; min-height: -webkit-fill-available",
        "font: italic bold", "font: 1e308px/1e308 serif", "aspect-ratio: 1e-308", "inset-inline: 1e308px", "margin-inline: 1px 2px 3px",
    ])
    func hostileValuesDrawOrWarn(_ declaration: String) throws {
        let results = try render(#"<div style="\#(declaration)"><div style="display: grid; grid-column: span 10000; \#(declaration)">Harbor</div><p id="after" style="background: #2a9d8f; height: 20px">after</p></div>"#)
        #expect(!results.isEmpty)
        for r in results {
            #expect(r.errors.isEmpty, "\(declaration) → \(r.view): \(r.errors)")
            #expect(r.outputs.contains { $0.hasSuffix(".png") }, "\(declaration)")
        }
    }

    /// A grid of many items with spans and lines far out: placed, in bounded time, and drawn.
    @Test func manyGridItems() throws {
        let items = (0..<2000).map { i in "<div style=\"grid-column: span \(i % 3 + 1); grid-row: \(i % 7 == 0 ? "9999" : "auto")\">\(i)</div>" }.joined()
        let results = try render(#"<div style="display: grid; grid-template-columns: repeat(3, 1fr) 20px; gap: 1px">\#(items)</div>"#)
        for r in results { #expect(r.errors.isEmpty, "\(r.errors)") }
    }

    /// A refused value is named in a warning, never dropped in silence.
    @Test func refusedValuesAreWarned() throws {
        let results = try render(#"<div style="grid-template-columns: repeat(100000, 1px); transform: matrix(1, 2, 3); width: calc(100% / 0)">x</div>"#)
        let warnings = try #require(results.first { $0.view == "expanded" }).warnings.joined(separator: "\n")
        for property in ["grid-template-columns", "transform", "width"] { #expect(warnings.contains("CSS \(property):"), "\(warnings)") }
    }
}
