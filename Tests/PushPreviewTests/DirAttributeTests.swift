import Foundation
import Testing
import Styling
import Templating

/// HTML's `dir` attribute as a browser's default style sheet takes it (the fidelity fixtures
/// dir-attribute and dir-attribute-rtl check the layout against Chromium).
@Suite struct DirAttributeTests {
    /// The computed styles of the elements with ids, and the warnings.
    func styles(_ html: String) throws -> (styles: [String: ComputedStyle], warnings: [String]) {
        let document = try HTMLParser.parse(html, file: "dir.html")
        let sheets = document.styleSheets.map { Stylesheet($0.text, file: "dir.html", firstLine: $0.line) }
        let (body, warnings) = StyleResolver(sheets: sheets, appearance: .light).resolve(document.body, file: "dir.html")
        var out: [String: ComputedStyle] = [:]
        func visit(_ e: StyledElement) {
            if let id = e.element.id { out[id] = e.style }
            for case .element(let child) in e.children { visit(child) }
        }
        visit(body)
        return (out, warnings.map(\.description))
    }

    @Test func rtlAndLtrSetTheDirectionAndIsolate() throws {
        let (s, warnings) = try styles("""
        <div id="r" dir="RTL"><div id="child"></div><div id="l" dir="ltr"></div><div id="bad" dir="sideways"></div></div>
        """)
        #expect(s["r"]?.rightToLeft == true && s["r"]?.bidiIsolate == true)
        #expect(s["child"]?.rightToLeft == true && s["child"]?.bidiIsolate == false) // inherited, isolate not
        #expect(s["l"]?.rightToLeft == false)
        #expect(s["bad"]?.rightToLeft == true && s["bad"]?.bidiIsolate == false) // not a state: the parent's
        #expect(warnings.isEmpty, "\(warnings)")
    }

    @Test func autoTakesTheFirstStrongCharacterOfItsOwnText() throws {
        let (s, _) = try styles("""
        <div dir="rtl">
          <div id="he" dir="auto">3 הודעה Ferry</div>
          <div id="ar" dir="auto"><p>٣ الرصيف</p></div>
          <div id="en" dir="auto">Ferry הודעה</div>
          <div id="none" dir="auto">18:40 — 3</div>
          <div id="skip" dir="auto"><div dir="ltr">Ferry</div><bdi>Ferry</bdi>הודעה</div>
        </div>
        """)
        #expect(s["he"]?.rightToLeft == true)
        #expect(s["ar"]?.rightToLeft == true)
        #expect(s["en"]?.rightToLeft == false)
        #expect(s["none"]?.rightToLeft == false) // no strong character: ltr, not the parent's rtl
        #expect(s["skip"]?.rightToLeft == true)
    }

    @Test func authorRulesWinOverTheAttributeWhateverTheirSpecificity() throws {
        let (s, _) = try styles("""
        <style>* { direction: ltr; margin: 0 }</style>
        <div id="d" dir="rtl"></div><p id="p">text</p><div id="i" dir="rtl" style="direction: rtl"></div>
        """)
        #expect(s["d"]?.rightToLeft == false)
        #expect(s["p"]?.margin[0] == .zero) // the user-agent sheet's `p { margin: 1em 0 }` loses to `*` too
        #expect(s["i"]?.rightToLeft == true)
    }

    @Test func anInlineElementInTheOtherDirectionIsWarnedAbout() throws {
        let (_, warnings) = try styles("""
        <div>Ferry <span dir="rtl">הודעה</span></div><div style="display: flex"><span dir="rtl">flex item</span></div>
        """)
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("dir.html:1: <span>: direction and unicode-bidi: isolate on an inline element are not supported (from dir=\"rtl\")") == true)
    }
}
