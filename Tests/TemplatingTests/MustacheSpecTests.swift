import Foundation
import Testing
import Templating

/// The official Mustache spec (../shared/conformance/mustache), every case of every module.
@Suite(.enabled(if: specFolder != nil, "skipped: ../shared/conformance/mustache is not beside the repository"))
struct MustacheSpecTests {
    struct SpecFile: Decodable { let tests: [SpecCase] }
    struct SpecCase: Decodable, CustomTestStringConvertible, Sendable {
        let name: String, desc: String, template: String, expected: String
        let data: TemplateValue
        let partials: [String: String]?
        var testDescription: String { name }
    }

    static let modules = ["comments", "delimiters", "interpolation", "inverted", "partials", "sections"]
    static let cases: [(String, SpecCase)] = modules.flatMap { module -> [(String, SpecCase)] in
        guard let folder = specFolder,
              let data = try? Data(contentsOf: folder.appendingPathComponent(module + ".json")),
              let file = try? JSONDecoder().decode(SpecFile.self, from: data) else { return [] }
        return file.tests.map { (module, $0) }
    }

    @Test func allModulesLoaded() { #expect(Self.cases.count == 136) }

    @Test(arguments: cases)
    func specCase(_ module: String, _ spec: SpecCase) throws {
        let template = try MustacheTemplate(spec.template, name: "\(module): \(spec.name)")
        let output = try template.render(spec.data) { spec.partials?[$0] }
        #expect(output == spec.expected, "\(module) — \(spec.name): \(spec.desc)")
    }
}

let specFolder: URL? = {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../../shared/conformance/mustache").standardized
    return FileManager.default.fileExists(atPath: url.path) ? url : nil
}()

struct MustacheErrorTests {
    @Test func reportsLineAndColumn() {
        #expect(throws: MustacheError(file: "t.html", line: 2, column: 3, message: "{{#items}} is never closed")) {
            try MustacheTemplate("ok\n  {{#items}}\nx", name: "t.html")
        }
        #expect(throws: MustacheError.self) { try MustacheTemplate("{{#a}}{{/b}}") }
        #expect(throws: MustacheError.self) { try MustacheTemplate("hello {{name") }
    }

    @Test func escapesUntrustedText() throws {
        let out = try MustacheTemplate("<p title=\"{{t}}\">{{t}}</p>").render(["t": "<script>'\"&"])
        #expect(out == "<p title=\"&lt;script&gt;&#39;&quot;&amp;\">&lt;script&gt;&#39;&quot;&amp;</p>")
    }

    @Test func refusesEndlessPartialRecursion() {
        #expect(throws: MustacheError.self) { try MustacheTemplate("{{>me}}").render([:]) { _ in "{{>me}}" } }
    }
}
