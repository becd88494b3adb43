import Foundation
import Testing
import Styling
import Templating
import Typography

/// HTML's `dir` attribute as a browser's default style sheet takes it (the fidelity fixtures
/// dir-attribute and dir-attribute-rtl check the layout against Chromium).
@Suite struct DirAttributeTests {
    func styles(_ html: String) throws -> (styles: [String: ComputedStyle], warnings: [String]) { try computedStyles(html, file: "dir.html") }

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

    @Test func bdiIsAnIsolateInTheDirectionOfItsOwnText() throws {
        let (s, warnings) = try styles("""
        <div dir="rtl">Ferry <bdi id="en">Westhaven 3</bdi> <bdi id="he">עמית</bdi> <bdi id="none">18:40</bdi> <bdi id="given" dir="rtl">North</bdi> <bdi id="bad" dir="up">אורי</bdi></div>
        """)
        #expect(s["en"]?.rightToLeft == false && s["en"]?.bidiIsolate == true)
        #expect(s["he"]?.rightToLeft == true && s["he"]?.bidiIsolate == true)
        #expect(s["none"]?.rightToLeft == false) // no strong letter: ltr, not the parent's rtl
        #expect(s["given"]?.rightToLeft == true)
        #expect(s["bad"]?.rightToLeft == true && s["bad"]?.bidiIsolate == true) // an invalid dir is auto on <bdi>
        #expect(warnings.isEmpty, "\(warnings)") // inline isolates are laid out now
    }

    @Test func anIsolateIsOrderedApartFromItsParagraph() throws {
        let fonts = try FontSystem(fonts: try FontSet.standard())
        func markerX(_ name: String) throws -> Double {
            let p = try LayoutProbe(#"<div style="font: 15px/20px Inter">User \#(name)<span id="m" style="display: inline-block; width: 2px; height: 2px"></span>: 3 posts</div>"#, fonts: fonts)
            return try #require(p.boxes["m"]?.x)
        }
        // Not isolated, "אורי: 3" is one right-to-left run and the box after the name sits inside it;
        // isolated, the name is a run of its own and the box follows it, as in Chromium (the bdi fixtures).
        let isolated = try markerX("<bdi>אורי</bdi>"), plain = try markerX("<span>אורי</span>")
        #expect(isolated - plain > 5, "\(isolated) \(plain)")
    }
}
