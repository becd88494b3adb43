import Layout
import Styling
import Templating
import Typography

/// A template laid out by the real engine, as the fidelity check lays out a fixture: the scene,
/// each box with an id by that id (page coordinates), and what the cascade and the style sheets warned.
struct LayoutProbe {
    var scene: Scene
    var boxes: [String: LaidOutBox]
    var warnings: [String]

    /// `scale`: the device's, whose pixels text metrics and borders snap to (1: CSS pixels).
    init(_ html: String, fonts: FontSystem, width: Double = 360, scale: Double = 1) throws {
        let document = try HTMLParser.parse(html, file: "probe.html")
        let sheets = document.styleSheets.map { Stylesheet($0.text, file: "probe.html", firstLine: $0.line) }
        let (styled, warned) = StyleResolver(sheets: sheets, appearance: .light, deviceScale: DeviceScale(scale))
            .resolve(document.body, file: "probe.html", fonts: fonts)
        scene = LayoutEngine(fonts: fonts) { _ in nil }.layout(styled, width: width)
        boxes = Dictionary(scene.boxes.compactMap { b in b.id.map { ($0, b) } }, uniquingKeysWith: { a, _ in a })
        warnings = (sheets.flatMap(\.warnings) + warned).map(\.message)
    }

    /// `body` in a 320 pt box of 15 px Inter with 20 px lines, the setting most layout tests share.
    init(inBox body: String, fonts: FontSystem) throws {
        try self.init(#"<div style="font: 15px/20px Inter; width: 320px">\#(body)</div>"#, fonts: fonts)
    }

    /// The paragraphs in document order, each as the text Pango lays out.
    var texts: [SceneText] {
        var out: [SceneText] = []
        func walk(_ box: SceneBox) {
            for item in box.items {
                switch item {
                case .text(let t): out.append(t)
                case .box(let b): walk(b)
                default: break
                }
            }
        }
        walk(scene.root)
        return out
    }
}

/// The computed style of each element with an id, and what the cascade and the style sheets
/// warned (as file:line: message).
func computedStyles(_ html: String, file: String = "probe.html") throws -> (styles: [String: ComputedStyle], warnings: [String]) {
    let document = try HTMLParser.parse(html, file: file)
    let sheets = document.styleSheets.map { Stylesheet($0.text, file: file, firstLine: $0.line) }
    let (body, warned) = StyleResolver(sheets: sheets, appearance: .light).resolve(document.body, file: file)
    var out: [String: ComputedStyle] = [:]
    func visit(_ e: StyledElement) {
        if let id = e.element.id { out[id] = e.style }
        for case .element(let child) in e.children { visit(child) }
    }
    visit(body)
    return (out, (sheets.flatMap(\.warnings) + warned).map(\.description))
}
