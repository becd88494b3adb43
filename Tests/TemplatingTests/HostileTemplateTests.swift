import Foundation
import Testing
import Templating

/// Templates a careless or hostile author could write: each parses (or fails with a message)
/// quickly, and whatever could run or reach the network is removed with a warning and a line.
struct HostileTemplateTests {
    func parse(_ html: String) throws -> HTMLDocument {
        Sanitizer.sanitize(try HTMLParser.parse(html, file: "hostile.html"), allowURL: Sanitizer.localURL)
    }

    func tags(_ e: Element) -> [String] {
        [e.tag] + e.children.flatMap { child -> [String] in if case .element(let c) = child { return tags(c) }; return [] }
    }

    @Test func scriptsFramesAndHandlersAreRemovedWithLines() throws {
        let doc = try parse("""
        <div onclick="steal()">ok</div>
        <script>alert(1)</script>
        <iframe src="https://example.com"></iframe>
        <img src="javascript:alert(1)" onerror="x()">
        <link rel="stylesheet" href="http://x/s.css">
        <meta http-equiv="refresh" content="0;url=http://x">
        <a href="http://tracker.example/">link</a>
        <object data="x.swf"></object>
        <embed src="y">
        """)
        let all = tags(doc.body)
        for forbidden in ["script", "iframe", "object", "embed", "link", "meta"] { #expect(!all.contains(forbidden), "\(forbidden) kept") }
        let html = doc.body.html()
        #expect(!html.contains("onclick") && !html.contains("onerror") && !html.contains("javascript:") && !html.contains("tracker.example"))
        let messages = doc.warnings.map(\.description)
        #expect(messages.contains { $0.contains("hostile.html:1") && $0.contains("onclick") })
        #expect(messages.contains { $0.contains("hostile.html:2") && $0.contains("<script>") })
        #expect(messages.contains { $0.contains("hostile.html:4") && $0.contains("javascript:") })
        #expect(messages.contains { $0.contains("hostile.html:5") && $0.contains("<link>") })
        #expect(messages.contains { $0.contains("hostile.html:6") && $0.contains("<meta>") })
        #expect(messages.contains { $0.contains("hostile.html:7") && $0.contains("tracker.example") }, "\(messages)")
        #expect(messages.contains { $0.contains("hostile.html:9") && $0.contains("<embed>") })
    }

    @Test func remoteURLsInStylesAreRemoved() throws {
        let doc = try parse("""
        <style>.a { background: url(http://evil.example/x.png) } .b { color: red }</style>
        <div style="background-image: url('https://evil.example/y.png')">x</div>
        <div style="background: url(data:image/png;base64,AAAA)">ok</div>
        """)
        #expect(!doc.styleSheets[0].text.contains("evil.example") && doc.styleSheets[0].text.contains("color: red"))
        #expect(!doc.body.html().contains("evil.example") && doc.body.html().contains("data:image/png"))
        #expect(doc.warnings.contains { $0.line == 1 && $0.message.contains("url()") })
        #expect(doc.warnings.contains { $0.line == 2 && $0.message.contains("style") })
    }

    @Test func unclosedTagsAndGarbageStillParse() throws {
        let doc = try parse("<div id=a><span>one<div id=b>two</p></span><<>>&&&")
        #expect(tags(doc.body).contains("div"))
        #expect(doc.body.html().contains("two"))
    }

    @Test func tenThousandNestedDivsDoNotCrash() throws {
        let deep = String(repeating: "<div>", count: 10_000) + "deep" + String(repeating: "</div>", count: 10_000)
        let start = Date()
        let doc = try HTMLParser.parse(deep, file: "deep.html")
        #expect(Date().timeIntervalSince(start) < 10)
        // libxml2 stops nesting at its depth limit; the text is still there or reported.
        #expect(doc.body.html().contains("deep") || !doc.warnings.isEmpty)
    }

    @Test func aOneMegabyteAttributeIsKeptOrRefusedQuickly() throws {
        let big = String(repeating: "x", count: 1 << 20)
        let doc = try HTMLParser.parse("<div title=\"\(big)\">t</div>", file: "big.html")
        #expect(doc.body.html().contains("t</div>"))
        #expect(throws: TemplateError.self) { try HTMLParser.parse(String(repeating: "a", count: HTMLParser.maxSize + 1), file: "huge.html") }
    }
}

/// URLs that reach files outside the page, or the network, however they are spelled.
struct TemplateURLEscapeTests {
    func sanitized(_ html: String) throws -> HTMLDocument {
        Sanitizer.sanitize(try HTMLParser.parse(html, file: "t.html"), allowURL: Sanitizer.localURL)
    }

    @Test(arguments: ["/etc/passwd", "%2e%2e/%2e%2e/secret.png", "..\\..\\secret.png", "media/%2E%2E/%2e%2e/x.png", "file:///etc/passwd",
                      "//evil.example/x.png", "\\\\evil.example\\x.png", "media/../../x.png", "%2fetc%2fpasswd", "javascript:alert(1)"])
    func escapingURLsAreRemoved(_ url: String) throws {
        let doc = try sanitized(#"<img src="\#(url)"><div style="background-image: url('\#(url)')"></div><a href="\#(url)">x</a>"#)
        let html = doc.body.html()
        #expect(!html.contains("src=") && !html.contains("href=") && !html.contains("url("), "\(url) kept: \(html)")
        #expect(doc.warnings.filter { $0.message.contains("removed") }.count == 3, "\(doc.warnings)")
    }

    @Test func keptURLsAreWrittenAsChecked() throws {
        let doc = try sanitized(#"<img src="media\photo%20one.png"><img src="./media//a.png">"#)
        let html = doc.body.html()
        #expect(html.contains(#"src="media/photo one.png""#) && html.contains(#"src="media/a.png""#), "\(html)")
    }

    @Test func otherURLAttributesAndAnimationsAreRemoved() throws {
        let doc = try sanitized("""
        <img src="media/a.png" lowsrc="/etc/passwd"><a ping="http://x.example/p">p</a><q cite="http://x.example">q</q>
        <svg><a xlink:href="media/a.png"><set attributeName="href" to="/etc/passwd"/><animate attributeName="href" values="http://x.example"/></a></svg>
        <img srcset="media/a.png 1x, /etc/passwd 2x">
        """)
        let html = doc.body.html()
        for gone in ["lowsrc", "ping", "cite", "<set", "<animate", "srcset", "/etc/passwd", "x.example"] { #expect(!html.contains(gone), "\(gone): \(html)") }
        #expect(html.contains(#"src="media/a.png""#))
    }

    @Test func deepMustacheSectionsStopWithAnError() throws {
        let deep = String(repeating: "{{#a}}", count: 30_000) + String(repeating: "{{/a}}", count: 30_000)
        #expect(throws: MustacheError.self) { try MustacheTemplate(deep, name: "deep.html") }
        let loops = String(repeating: "{{#l}}", count: 25) + "x" + String(repeating: "{{/l}}", count: 25)
        let t = try MustacheTemplate(loops, name: "loops.html")
        do { _ = try t.render(.object(["l": .list([.null, .null, .null])])); Issue.record("3^25 iterations ran") } catch {
            #expect(error.description.contains("loops.html") && error.message.contains("expands past"), "\(error)")
        }
    }
}
