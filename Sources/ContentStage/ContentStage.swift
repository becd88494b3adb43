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

    /// A category's custom view: its template source and the file it came from.
    public struct CustomView: Sendable {
        public var source: String
        public var file: String
        public init(source: String, file: String) { self.source = source; self.file = file }
    }

    /// Renders `system/<view>.html` with the context, parses and sanitizes it; a custom view is
    /// rendered with the same data, parsed and sanitized as its own file (so messages name its
    /// lines) and put into the system template's `#custom-view` element.
    public func compose(_ view: View, context: TemplateContext, customView: CustomView? = nil,
                        allowURL: (String) -> Bool) throws(TemplateError) -> Composition {
        let name = "system/\(view.rawValue).html"
        guard let source = partial(name) else { throw TemplateError(file: name, line: 0, message: "template not found in \(templateFolders.map(\.path))") }
        var data = context.value
        if case .object(var members) = data, customView != nil { members["hasCustomView"] = true; data = .object(members) }
        var document = try page(source, file: name, data: data, allowURL: allowURL)
        var sheets = document.styleSheets.map { Stylesheet($0.text, file: name, firstLine: $0.line) }
        if let customView {
            let custom = try page(customView.source, file: customView.file, data: data, allowURL: allowURL)
            guard document.body.replaceChildren(ofId: "custom-view", with: custom.body.children) else {
                throw TemplateError(file: name, line: 0, message: "has no element with id=\"custom-view\" for the custom view")
            }
            document.warnings += custom.warnings
            sheets += custom.styleSheets.map { Stylesheet($0.text, file: customView.file, firstLine: $0.line) }
        }
        let colors = partial("system/colors.css").map { Stylesheet($0, file: "system/colors.css") }
        sheets = (colors.map { [$0] } ?? []) + sheets
        return Composition(document: document, sheets: sheets, warnings: document.warnings + sheets.flatMap(\.warnings))
    }

    /// Mustache, then libxml2, then the sanitizer.
    private func page(_ source: String, file: String, data: TemplateValue, allowURL: (String) -> Bool) throws(TemplateError) -> HTMLDocument {
        let html: String
        do {
            html = try MustacheTemplate(source, name: file).render(data) { self.partial($0) ?? self.partial($0 + ".html") }
        } catch {
            throw TemplateError(file: error.file, line: error.line, message: error.message)
        }
        return Sanitizer.sanitize(try HTMLParser.parse(html, file: file), allowURL: allowURL)
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
