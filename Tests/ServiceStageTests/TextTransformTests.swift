import Foundation
import Payload
import ServiceStage
import Templating
import Testing

/// Issue 16: the text transforms real extensions apply, as Mustache filter sections, in the
/// `set` step (plain text: nothing escaped) and in templates (escaped again).
struct TextTransformTests {
    func run(_ set: [(String, String)], _ payload: String, strings: String? = nil) throws -> DeliveredNotification {
        let p = ScratchProject()
        if let strings { try p.write("en.lproj/Localizable.strings", strings) }
        var settings = ServiceSettings()
        settings.set = set
        return try p.run(payload, settings: settings)
    }

    @Test func eachTransform() throws {
        let n = try run([("body", "{{#stripTags}}{{body}}{{/stripTags}}"),
                         ("subtitle", "{{#unescapeHTML}}{{userInfo.place}}{{/unescapeHTML}}"),
                         ("title", "{{#prefix:reply.prefix}}{{#truncate:12}}{{userInfo.topic}}{{/truncate:12}}{{/prefix:reply.prefix}}"),
                         ("summary-arg", "{{#suffix:summary.suffix}}{{userInfo.from}}{{/suffix:summary.suffix}}")],
                        #"{"aps": {"alert": {"title": "", "body": "<p>Tom &amp; Jerry</p><script>x()</script><p>Second <b>line</b></p>"}, "mutable-content": 1}, "place": "Caf&eacute; &#x1F600; &bogus; &#0;", "topic": "Harbour crane maintenance", "from": "Marta"}"#,
                        strings: "\"reply.prefix\" = \"Re: \";\n")
        #expect(n.body == "Tom & Jerry\nSecond line")
        #expect(n.subtitle == "Café 😀 &bogus; &#0;")
        #expect(n.title == "Re: Harbour cran…")
        #expect(n.summaryArgument == "Martasummary.suffix", "a key with no string shows the key, as iOS does")
    }

    /// A payload's colour for a style: six or eight hex digits with or without `#`, else the default.
    @Test func hexColor() throws {
        func colour(_ value: String) throws -> String {
            try run([("title", "{{#hexColor:8E8E93}}{{userInfo.c}}{{/hexColor:8E8E93}}")],
                    #"{"aps": {"alert": {"title": "T", "body": "B"}, "mutable-content": 1}, "c": "\#(value)"}"#).title
        }
        #expect(try colour("#FFF7E8") == "#FFF7E8" && colour("1c1c1eff") == "#1c1c1eff" && colour(" 00FF00 ") == "#00FF00")
        for bad in ["red", "#FFF", "FFF7E8; background: url(x)", "#GGGGGG", "#ＦＦＦＦＦＦ", ""] {
            #expect(try colour(bad) == "#8E8E93", "\(bad)")
        }
    }

    /// The body as the title when the title is empty, with Mustache alone.
    @Test func bodyAsTitle() throws {
        let set = [("title", "{{title}}{{^title}}{{body}}{{/title}}")]
        #expect(try run(set, #"{"aps": {"alert": {"body": "Only a body"}, "mutable-content": 1}}"#).title == "Only a body")
        #expect(try run(set, #"{"aps": {"alert": {"title": "A title", "body": "B"}, "mutable-content": 1}}"#).title == "A title")
    }

    /// Text settings are not HTML: an ampersand stays one (it used to arrive as &amp;).
    @Test func textIsNotEscaped() throws {
        #expect(try run([("title", "{{userInfo.name}} <{{userInfo.mail}}>")], #"{"aps": {"alert": {"title": "T", "body": "B"}, "mutable-content": 1}, "name": "Tom & Jerry", "mail": "t@j"}"#).title == "Tom & Jerry <t@j>")
    }

    /// In a template the filtered text is escaped again; a data key of the filter's name wins.
    @Test func filtersInTemplates() throws {
        let data = TemplateValue.object(["body": .string("<b>Hello world</b>"), "stripTags": .string("yes")])
        #expect(try MustacheTemplate("{{#truncate:5}}{{body}}{{/truncate:5}}", name: "t").render(data) == "&lt;b&gt;He…")
        #expect(try MustacheTemplate("{{#stripTags}}[{{body}}]{{/stripTags}}", name: "t").render(data) == "[&lt;b&gt;Hello world&lt;/b&gt;]", "the data's stripTags is a section")
        #expect(try MustacheTemplate("{{#truncate:0}}{{body}}{{/truncate:0}}", name: "t").render(data).isEmpty, "not a filter: an absent section")
    }
}
