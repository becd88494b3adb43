import Imaging
import Layout
import Rendering
import Styling
import Templating
import Testing
import Typography

/// Text is stamped from glyph masks at quarter-pixel x and whole-pixel baselines (as Skia does).
struct TextDrawingTests {
    let fonts: FontSystem
    init() throws { fonts = try FontSystem(fonts: try FontSet.standard()) }

    /// A line of text `indent` points from the left, at @3x.
    func draw(indent: Double, top: Double = 4) throws -> RGBAImage {
        let html = #"<div style="padding: \#(top)px 0 0 \#(indent)px; font-size: 17px; width: 200px; height: 40px; box-sizing: border-box">Harbour ferry ~ 12:45</div>"#
        let document = try HTMLParser.parse(html, file: "text.html")
        let (styled, _) = StyleResolver(sheets: [], appearance: .light).resolve(document.body, file: "text.html")
        let scene = LayoutEngine(fonts: fonts) { _ in nil }.layout(styled, width: 240)
        return PNGPainter(fonts: fonts, images: ImageStore(), scale: 3).paint(scene, background: .white).image
    }

    func shifted(_ image: RGBAImage, by dx: Int, _ dy: Int) -> RGBAImage {
        var out = RGBAImage(width: image.width, height: image.height, pixels: [UInt8](repeating: 255, count: image.pixels.count))
        for y in max(0, dy)..<image.height { for x in max(0, dx)..<image.width {
            let from = ((y - dy) * image.width + (x - dx)) * 4, to = (y * image.width + x) * 4
            for c in 0..<4 { out.pixels[to + c] = image.pixels[from + c] }
        } }
        return out
    }

    /// A page is as many device pixels tall as Chromium's screenshot of it: the nearest whole number.
    @Test func aPagesRowsAreItsHeightRoundedToTheNearestDevicePixel() throws {
        for (height, scale, rows) in [(301.2, 2, 602), (301.3, 2, 603), (201.9, 1, 202), (100.1, 3, 300), (100.2, 3, 301)] {
            let document = try HTMLParser.parse(#"<div style="height: \#(height)px"></div>"#, file: "page.html")
            let (styled, _) = StyleResolver(sheets: [], appearance: .light).resolve(document.body, file: "page.html")
            let scene = LayoutEngine(fonts: fonts) { _ in nil }.layout(styled, width: 100)
            let image = PNGPainter(fonts: fonts, images: ImageStore(), scale: scale).paint(scene, background: .white).image
            #expect(image.height == rows, "\(height) pt at @\(scale)x")
        }
    }

    /// Glyph edges are drawn with Skia's mask gamma and contrast, which depend on the text's
    /// luminance: white text on black comes out heavier than the negative of black text on white
    /// (with plain coverage each edge pixel's two values add up to 255, give or take rounding).
    @Test func lightTextOnDarkIsHeavierThanTheNegativeOfDarkTextOnLight() throws {
        func draw(_ color: String, on background: RGBA) throws -> RGBAImage {
            let document = try HTMLParser.parse(#"<div style="font-size: 15px; color: \#(color); width: 200px">Harbour ferry ~ 12:45</div>"#, file: "text.html")
            let (styled, _) = StyleResolver(sheets: [], appearance: .light).resolve(document.body, file: "text.html")
            let scene = LayoutEngine(fonts: fonts) { _ in nil }.layout(styled, width: 200)
            return PNGPainter(fonts: fonts, images: ImageStore(), scale: 2).paint(scene, background: background).image
        }
        let dark = try draw("black", on: .white), light = try draw("white", on: .black)
        var edges = 0, excess = 0
        for i in stride(from: 0, to: dark.pixels.count, by: 4) {
            let ink = 255 - Int(dark.pixels[i]), glow = Int(light.pixels[i])
            guard ink > 20 && ink < 235 else { continue }
            edges += 1
            excess += ink + glow - 255
        }
        #expect(edges > 100)
        #expect(Double(excess) / Double(edges) > 4, "\(excess) over \(edges) edge pixels")
    }

    @Test func wholeDevicePixelMovesGiveTheSamePixelsMoved() throws {
        let base = try draw(indent: 10)
        #expect(base.pixels.contains { $0 < 128 }, "the text is drawn")
        #expect(try draw(indent: 10 + 1.0 / 3) == shifted(base, by: 1, 0))
        #expect(try draw(indent: 10, top: 4 + 2.0 / 3) == shifted(base, by: 0, 2))
        // Baselines land on whole device pixels: a tenth of a device pixel down changes nothing.
        #expect(try draw(indent: 10, top: 4 + 0.1 / 3) == base)
    }

    @Test func quarterPixelOffsetsAreDrawnApart() throws {
        let base = try draw(indent: 10)
        let quarter = try draw(indent: 10 + 0.25 / 3)
        #expect(quarter != base)
        #expect(quarter != shifted(base, by: 1, 0))
        // Repeated drawing (masks now cached) gives the same pixels.
        #expect(try draw(indent: 10 + 0.25 / 3) == quarter)
    }
}
