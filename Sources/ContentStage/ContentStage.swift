import Foundation
import Styling
import Templating

/// The Notification Content Extension stage: turns the delivered notification into a page of
/// HTML from the system templates (and later the category's custom view).
public struct ContentStage: Sendable {
    /// Folders partials are looked up in, first match wins: the project's, then the repository's.
    public var templateFolders: [URL]

    public init(templateFolders: [URL]) { self.templateFolders = templateFolders }

    /// A page ready to style and lay out.
    public struct Composition: Sendable {
        public var document: HTMLDocument
        public var sheets: [Stylesheet]
        public var warnings: [TemplateWarning]
    }

    public enum View: String, Sendable, CaseIterable { case expanded, banner }

    /// Renders `system/<view>.html` with the context, parses and sanitizes it.
    public func compose(_ view: View, context: TemplateContext, allowURL: (String) -> Bool) throws(TemplateError) -> Composition {
        let name = "system/\(view.rawValue).html"
        guard let source = partial(name) else { throw TemplateError(file: name, line: 0, message: "template not found in \(templateFolders.map(\.path))") }
        let html: String
        do {
            html = try MustacheTemplate(source, name: name).render(context.value) { self.partial($0) ?? self.partial($0 + ".html") }
        } catch {
            throw TemplateError(file: error.file, line: error.line, message: error.message)
        }
        let document = Sanitizer.sanitize(try HTMLParser.parse(html, file: name), allowURL: allowURL)
        let colors = partial("system/colors.css").map { Stylesheet($0, file: "system/colors.css") }
        let sheets = (colors.map { [$0] } ?? []) + document.styleSheets.map { Stylesheet($0.text, file: name, firstLine: $0.line) }
        return Composition(document: document, sheets: sheets, warnings: document.warnings + sheets.flatMap(\.warnings))
    }

    /// A template file's text by its name relative to a Templates folder.
    func partial(_ name: String) -> String? {
        guard !name.contains("..") else { return nil }
        for folder in templateFolders {
            if let data = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path) {
                return String(decoding: data, as: UTF8.self)
            }
        }
        return nil
    }
}
