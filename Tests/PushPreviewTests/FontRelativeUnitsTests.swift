import Styling
import Templating
import Testing
import Typography

/// `ch` and `ex` from each element's own face, with no browser: the numbers are what Chromium
/// gives the same lengths on Debian 12 (units-ch-ex.html checks them against it live).
struct FontRelativeUnitsTests {
    let fonts: FontSystem
    init() throws { fonts = try FontSystem(fonts: try FontSet.standard()) }

    func style(_ family: String, _ size: Double) -> TextStyle {
        var s = TextStyle()
        s.family = family
        s.size = size
        return s
    }

    @Test func unitsComeFromTheFacesOwnMetrics() {
        // Inter: OS/2 sxHeight 1536 of 2816 units; "0" advances 0.625 em.
        let inter = fonts.fontRelativeUnits(style("Inter", 16))
        #expect(abs(inter.ex - 1536.0 * 16 / 2816) < 0.001)
        #expect(abs(inter.ch - 9.998) < 0.01)
        // DejaVu Sans Mono has a version 1 OS/2 table (no sxHeight): its "x" is 1120 units tall.
        let mono = fonts.fontRelativeUnits(style("monospace", 16))
        #expect(abs(mono.ex - 8.75) < 0.01)
        #expect(abs(mono.ch - 1233.0 * 16 / 2048) < 0.01)
    }

    func resolve(_ html: String, fonts: FontSystem?) throws -> (StyledElement, [TemplateWarning]) {
        let document = try HTMLParser.parse(html, file: "units.html")
        return StyleResolver(sheets: [], appearance: .light).resolve(document.body, file: "units.html", fonts: fonts)
    }

    func width(_ element: StyledElement) -> Double? {
        guard case .element(let child) = element.children.first, case .points(let w) = child.style.width else { return nil }
        return w
    }

    @Test func lengthsUseTheElementsOwnFont() throws {
        // The font in the same rule counts, whatever the order of the declarations.
        let (styled, warnings) = try resolve(#"<div style="width: 10ex; font: 16px Inter"></div>"#, fonts: fonts)
        #expect(warnings.isEmpty)
        #expect(abs((width(styled) ?? 0) - 10 * 1536.0 * 16 / 2816) < 0.01)
        let (calc, _) = try resolve(#"<div style="font: 15px monospace; width: calc(12ch + 10px)"></div>"#, fonts: fonts)
        #expect(abs((width(calc) ?? 0) - (12 * 1233.0 * 15 / 2048 + 10)) < 0.01)
    }

    @Test func withoutFontsTheUnitIsWarnedAboutNotDropped() throws {
        let (styled, warnings) = try resolve(#"<div style="width: 10ch"></div>"#, fonts: nil)
        #expect(width(styled) == nil)
        #expect(warnings.count == 1 && warnings[0].message.contains("width: 10ch"), "\(warnings)")
    }

    /// The `font` shorthand allows white space around its slash (WPT's webkit-line-clamp-005 sets
    /// `font: 16px / 32px serif`): it was dropped whole, and its lines were 20 pt instead of 32.
    @Test(arguments: ["16px / 32px serif", "16px/ 32px serif", "16px /32px serif", "italic bold 16px/32px serif"])
    func fontShorthandTakesWhiteSpaceAroundTheSlash(_ font: String) throws {
        let (body, warnings) = try resolve("<div style=\"font: \(font)\">x</div>", fonts: fonts)
        guard case .element(let div) = body.children.first else { Issue.record("no div"); return }
        #expect(div.style.fontSize == 16 && div.style.lineHeight == 32 && div.style.fontFamily == "serif", "\(div.style.fontSize) \(String(describing: div.style.lineHeight)) \(div.style.fontFamily) \(warnings)")
    }
}
