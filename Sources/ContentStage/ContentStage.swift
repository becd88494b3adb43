import Checked
import ConfinedFiles
import Foundation
import Styling
import Templating

/// The Notification Content Extension stage: turns the delivered notification into a page of
/// HTML from the system templates, with the category's custom view inside the expanded one.
public struct ContentStage: Sendable {
    /// Folders templates are looked up in, first match wins: the project's, then the tool's own;
    /// each held open, a template read beneath it (a partial linked out of it is not read).
    public var templateFolders: [ConfinedFolder]
    /// The system's symbol look-alikes, `Templates/system/icons/NAME.svg`, by name.
    public let icons: [String: String]
    /// Parsed templates by name and text: the system chrome is parsed once, not once per view.
    private let parsed = ParsedTemplates()

    public init(templateFolders: [ConfinedFolder]) {
        self.templateFolders = templateFolders
        var icons: [String: String] = [:]
        for folder in templateFolders.reversed() {
            for name in (try? folder.names("system/icons")) ?? [] where name.hasSuffix(".svg") {
                if let data = try? folder.read("system/icons/" + name, limit: 1 << 20) {
                    icons[String(name.dropLast(4))] = String(decoding: data, as: UTF8.self).trimmed
                }
            }
        }
        self.icons = icons
    }

    /// The project's `Templates/` (opened beneath the project folder), then the tool's own.
    public init(project: ConfinedFolder, templates: URL) {
        self.init(templateFolders: [try? project.folder("Templates"), try? ConfinedFolder(trusted: templates)].compactMap { $0 })
    }

    /// A page ready to style and lay out.
    public struct Composition: Sendable {
        public var document: HTMLDocument
        public var sheets: [Stylesheet]
        public var warnings: [TemplateWarning]
    }

    /// The mock-ups of one notification: the long-look, the collapsed banner, the long-look
    /// after tapping a text-input action, the thread's stack, and the Lock Screen around it.
    public enum View: String, Sendable, CaseIterable {
        case expanded, banner, reply, stack, lockScreen = "lockscreen"
        var template: String {
            switch self {
            case .expanded, .reply: "system/expanded.html"
            case .banner: "system/banner.html"
            case .stack: "system/stack.html"
            case .lockScreen: "system/lockscreen.html"
            }
        }
        /// Whether the view holds the category's custom view (the long-look's).
        public var showsCustomView: Bool { self == .expanded || self == .reply }
    }

    /// A category's custom view: its template source and the file it came from.
    public struct CustomView: Sendable {
        public var source: String
        public var file: String
        public init(source: String, file: String) { self.source = source; self.file = file }
    }

    /// Renders the view's system template with the context, parses and sanitizes it; a custom
    /// view is rendered with the same data, parsed and sanitized as its own file (so messages name
    /// its lines) and put into the system template's `#custom-view` element, followed by what the
    /// system draws over it (`system/media-button.html`).
    public func compose(_ view: View, context: TemplateContext, customView: CustomView? = nil,
                        allowURL: (String) -> String?) throws(TemplateError) -> Composition {
        let name = view.template
        guard let source = partial(name) else { throw TemplateError(file: name, line: 0, message: "template not found in \(templateFolders.map(\.url.path))") }
        var iconWarnings: [TemplateWarning] = []
        var data = context.value(icon: { icon in
            let (svg, warning) = self.symbol(icon)
            if let warning, !iconWarnings.contains(where: { $0.message == warning }) { iconWarnings.append(TemplateWarning(file: "categories.json", line: 0, message: warning)) }
            return svg
        }, icons: icons)
        if case .object(var members) = data, customView != nil, view.showsCustomView { members["hasCustomView"] = true; data = .object(members) }
        var document = try page(source, file: name, data: data, allowURL: allowURL)
        var sheets = document.styleSheets.map { parsed.stylesheet($0.text, file: name, firstLine: $0.line) }
        if let customView, view.showsCustomView {
            let custom = try page(customView.source, file: customView.file, data: data, allowURL: allowURL, reportMissing: true)
            let overlayName = "system/media-button.html"
            let overlay = try partial(overlayName).map { source throws(TemplateError) in try page(source, file: overlayName, data: data, allowURL: allowURL) }
            guard document.body.replaceChildren(ofId: "custom-view", with: custom.body.children + (overlay?.body.children ?? [])) else {
                throw TemplateError(file: name, line: 0, message: "has no element with id=\"custom-view\" for the custom view")
            }
            document.warnings += custom.warnings + Self.authorWarnings(customView.source, file: customView.file) + (overlay?.warnings ?? [])
            sheets += custom.styleSheets.map { parsed.stylesheet($0.text, file: customView.file, firstLine: $0.line, scope: "custom-view") }
        }
        let colors = partial("system/colors.css").map { parsed.stylesheet($0, file: "system/colors.css", firstLine: 1) }
        let type = parsed.stylesheet(TextStyle.stylesheet(context.textSize, face: context.systemFace), file: "system/text-styles.css", firstLine: 1)
        sheets = (colors.map { [$0] } ?? []) + [type] + sheets
        return Composition(document: document, sheets: sheets, warnings: document.warnings + sheets.flatMap(\.warnings) + iconWarnings)
    }

    /// An action's icon as SVG markup: a system name from our look-alikes (`trash.fill` and
    /// `checkmark` find `trash` and `check`), a template image from the project's
    /// `Templates/icons/NAME.svg`; anything else is a neutral placeholder and a warning.
    public func symbol(_ icon: NotificationAction.Icon?) -> (svg: String?, warning: String?) {
        switch icon {
        case nil: return (nil, nil)
        case .system(let name):
            let aliases = ["checkmark": "check", "arrowshape": "reply", "mappin": "location", "xmark": "placeholder"]
            let base = String(name.split(separator: ".").first ?? "")
            if let svg = icons[name] ?? icons[aliases[base] ?? base] { return (svg, nil) }
            return (icons["placeholder"], "no look-alike for the system image \"\(name)\"; drawing a placeholder (symbols: \(icons.keys.sorted().joined(separator: ", ")))")
        case .template(let name):
            if !name.contains("/"), !name.contains(".."), let svg = partial("icons/\(name).svg") { return (svg.trimmed, nil) }
            return (icons["placeholder"], "template image \"\(name)\" not found as Templates/icons/\(name).svg; drawing a placeholder")
        }
    }

    /// Mustache, then libxml2, then the sanitizer.
    /// `reportMissing`: warn about each `{{name}}` the data lacks (a custom view's, not the
    /// chrome's, whose optional parts are guarded by sections).
    private func page(_ source: String, file: String, data: TemplateValue, allowURL: (String) -> String?,
                      reportMissing: Bool = false) throws(TemplateError) -> HTMLDocument {
        let html: String
        var missing: [String] = []
        do {
            html = try parsed.template(source, name: file).render(data, partials: { self.partial($0) ?? self.partial($0 + ".html") },
                                                                  missing: reportMissing ? { if !missing.contains($0) { missing.append($0) } } : nil,
                                                                  cache: parsed.partials)
        } catch {
            throw TemplateError(file: error.file, line: error.line, message: error.message)
        }
        var document = Sanitizer.sanitize(try HTMLParser.parse(html, file: file), allowURL: allowURL)
        document.warnings += missing.map { TemplateWarning(file: file, line: 0, message: "reads {{\($0)}}, which this notification's template data lacks; it is drawn empty", code: .templateMissingKey) }
        return document
    }

    /// Each `{{! warning: … }}` comment in a custom view: what its author wants every mock-up
    /// drawn with it to say (init's starter for a view the app makes in code says where that is).
    public static func authorWarnings(_ source: String, file: String) -> [TemplateWarning] {
        var warnings: [TemplateWarning] = []
        var rest = source[...]
        while let open = rest.range(of: "{{!") {
            let after = rest[open.upperBound...].drop { $0 == " " || $0 == "\n" || $0 == "\t" }
            guard let close = after.range(of: "}}") else { break }
            if after.hasPrefix("warning:") {
                let text = after[after.index(after.startIndex, offsetBy: 8)..<close.lowerBound].split(whereSeparator: \.isWhitespace).joined(separator: " ")
                let line = source[..<open.lowerBound].reduce(1) { $1 == "\n" ? $0 + 1 : $0 }
                if !text.isEmpty { warnings.append(TemplateWarning(file: file, line: line, message: text)) }
            }
            rest = after[close.upperBound...]
        }
        return warnings
    }

    /// A template file's text by its name relative to a Templates folder, which it must lie in
    /// (a partial that is a symlink out of it is not read).
    public func partial(_ name: String) -> String? {
        guard !name.contains(".."), !name.hasPrefix("/") else { return nil }
        if let known = parsed.file(name) { return known }
        for folder in templateFolders {
            if let data = try? folder.read(name, limit: 4 << 20) {
                let text = String(decoding: data, as: UTF8.self)
                parsed.remember(name, text)
                return text
            }
        }
        return nil
    }
}

/// Template files read and parsed by this stage, shared by the views it composes.
final class ParsedTemplates: @unchecked Sendable {
    private let lock = NSLock()
    let partials = MustachePartialCache()
    /// Within 4 MB of template text: a template is a few kB, and `serve` parses each edit anew.
    private var templates = BoundedCache<String, MustacheTemplate>(budget: 4 << 20)
    private var files: [String: String] = [:]
    private var sheets = BoundedCache<String, Stylesheet>(budget: 64)

    func template(_ source: String, name: String) throws(MustacheError) -> MustacheTemplate {
        let key = name + "\u{0}" + contentKey(source)
        if let known = lock.withLock({ templates.value(key) }) { return known }
        let t = try MustacheTemplate(source, name: name)
        lock.withLock { templates.insert(t, for: key, cost: key.utf8.count + source.utf8.count) }
        return t
    }

    /// Stylesheets by text: the chrome's CSS differs per device, not per payload. The 64 used
    /// last are kept (a parsed chrome sheet is some 50 kB; a gallery's variety of them, hundreds).
    /// `scope`: the id the sheet's rules are confined to (a custom view's).
    func stylesheet(_ text: String, file: String, firstLine: Int, scope: String? = nil) -> Stylesheet {
        let key = "\(file)|\(firstLine)|\(scope ?? "")|\(contentKey(text))"
        if let known = lock.withLock({ sheets.value(key) }) { return known }
        let parsed = Stylesheet(text, file: file, firstLine: firstLine)
        let sheet = scope.map { parsed.scoped(toID: $0) } ?? parsed
        lock.withLock { sheets.insert(sheet, for: key, cost: 1) }
        return sheet
    }

    func file(_ name: String) -> String? { lock.withLock { files[name] } }
    func remember(_ name: String, _ text: String) { lock.withLock { files[name] = text } }
}
