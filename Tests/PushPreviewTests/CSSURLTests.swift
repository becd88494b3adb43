import Testing
import Templating

/// The page's CSS names the copies of its images written beside it, as its `src`s do.
struct CSSURLTests {
    let copies = ["hero.png": "../media/1a.png", "a b).png": "../media/2b.png", "say \"hi\".png": "../media/3c.png"]

    @Test func eachURLIsMappedAndQuoted() {
        let map = { (url: String) in copies[url] ?? url }
        #expect(rewritingCSSURLs("url(hero.png) no-repeat", map) == #"url("../media/1a.png") no-repeat"#)
        #expect(rewritingCSSURLs(#"URL( "a b).png" ), url('hero.png')"#, map) == #"url("../media/2b.png"), url("../media/1a.png")"#)
        #expect(rewritingCSSURLs(#"url('say "hi".png')"#, map) == #"url("../media/3c.png")"#)
        #expect(rewritingCSSURLs(#"url(other.png)"#, map) == #"url("other.png")"#)
        // What cannot be rewritten safely is written back escaped, never unquoted.
        #expect(rewritingCSSURLs(#"url(x.png)"#, { _ in #"a"b\c"# }) == #"url("a\"b\\c")"#)
    }

    @Test func unclosedOrMalformedTextIsKept() {
        let map = { (_: String) in "X" }
        for text in ["url(", "url(hero.png", #"url("hero.png"#, #"url("hero.png" x)"#, "curl(hero.png", "no urls at all", "url(\"\")url("] {
            let out = rewritingCSSURLs(text, map)
            #expect(!out.isEmpty && (out == text || out.hasPrefix("url(\"X\")") || out.hasPrefix("curl(\"X\")")), "\(text) → \(out)")
        }
        #expect(rewritingCSSURLs("a url(b) c url(", map) == #"a url("X") c url("#)
    }
}
