import ConfinedFiles
import Foundation

/// What the converter could not carry over: the line of the file and what was drawn instead.
struct ConversionProblem: Sendable {
    var line: Int
    var message: String
}

/// A starter template for `pushpreview init`, converted from the content extension's storyboard
/// (`NSExtensionMainStoryboard`) or a XIB: its views as HTML, positioned by their constraints
/// where those map to CSS (else by their design-time frames), stack views as flex boxes, text
/// styles as the Dynamic Type properties, colours with their dark variants, and each outlet as a
/// Mustache placeholder with a comment saying what to bind.
public struct StoryboardTemplate: Sendable {
    /// A complete template: `<style>…</style>` and markup, the same bytes for the same input.
    public var html: String
    /// Outlet property names found, in document order.
    public var outlets: [String]
    /// "FILE:LINE: what was not converted (and what was drawn instead)".
    public var problems: [String]

    /// Converts the scene of the storyboard's initial (else first) view controller, or the root
    /// view of a XIB. `bindings`: outlet name → Mustache path found in the extension's code
    /// ("titleLabel" → "title"); an outlet with none keeps its design-time text or image and gets
    /// a comment saying what to bind. `colors`: the asset catalogs' named colours by name.
    /// The file is read beneath `repository` (by default the one around it).
    public static func convert(_ file: URL, in repository: Repository? = nil, bindings: [String: String], colors: [String: NamedColor]) throws(XcodeProject.ReadError) -> StoryboardTemplate {
        var numbers: [ConversionProblem] = []
        let document = try InterfaceBuilderXML.read(file, in: repository ?? Repository(around: file.deletingLastPathComponent()), problems: &numbers)
        let scene = try StoryboardScene(document: document, file: file.path)
        var writer = TemplateWriter(scene: scene, bindings: bindings, catalog: colors)
        let html = writer.write()
        let problems = (numbers + scene.problems + writer.problems + writer.colors.problems).enumerated()
            .sorted { ($0.element.line, $0.offset) < ($1.element.line, $1.offset) }.map { "\(file.path):\($0.element.line): \($0.element.message)" }
        return StoryboardTemplate(html: html, outlets: scene.outlets.map(\.property), problems: problems)
    }
}

/// Writes the template: one CSS rule per view, in document order, and the markup beside it.
struct TemplateWriter {
    let scene: StoryboardScene
    let bindings: [String: String]
    var colors: ColorResolver
    var solver: ConstraintSolver
    var problems: [ConversionProblem] = []
    /// View id → class name (`ib-` and the outlet's, label's or kind's name).
    var names: [String: String] = [:]
    var outletsByView: [String: [StoryboardScene.Outlet]] = [:]
    var rules: [(selector: String, declarations: [String])] = []
    var markup: [String] = []
    var usesPlaceholder = false
    var solved: [String: [String: Placement]] = [:]
    /// Labels given a height (points at the design-time size): UILabel centres its text in it.
    var boxHeights: [String: Double] = [:]
    var file: String { scene.file }

    init(scene: StoryboardScene, bindings: [String: String], catalog: [String: NamedColor]) {
        self.scene = scene
        self.bindings = bindings
        colors = ColorResolver(catalog: catalog, resources: scene.resources)
        var rules: [LayoutRule] = []
        var unreadable: [ConversionProblem] = []
        for c in scene.constraints {
            do { rules.append(try LayoutRule(c, guides: scene.guides)) } catch {
                unreadable.append(.init(line: c.element.line, message: "a constraint is not converted: \(error.why)"))
            }
        }
        var margins: [String: Margins] = [:]
        func visit(_ v: SceneView, root: Bool) {
            margins[v.id] = Margins(v, isRoot: root)
            v.subviews.forEach { visit($0, root: false) }
        }
        visit(scene.root, root: scene.rootIsControllerView)
        solver = ConstraintSolver(rules: rules, margins: margins)
        problems = unreadable
        for o in scene.outlets { outletsByView[o.destination, default: []].append(o) }
        var taken: Set<String> = []
        func name(_ v: SceneView, root: Bool) {
            let kinds: [SceneView.Kind: String] = [.label: "label", .imageView: "image", .textView: "text", .button: "button", .stackView: "stack", .view: "view"]
            let base = "ib-" + CSS.name(String((root ? "root" : outletsByView[v.id]?.first?.property ?? v.element["userLabel"] ?? kinds[v.kind] ?? v.element.name).prefix(40)))
            var unique = base, n = 1
            while !taken.insert(unique).inserted { n += 1; unique = "\(base)-\(n)" }
            names[v.id] = unique
            v.subviews.forEach { name($0, root: false) }
        }
        name(scene.root, root: true)
    }

    /// How messages name a view: its outlet or label and its class.
    func label(_ v: SceneView) -> String {
        let name = outletsByView[v.id]?.first?.property ?? v.element["userLabel"] ?? v.element["text"].map { "\"\($0.prefix(24))\"" }
        return name.map { "\($0.prefix(40)) (\(v.className.prefix(40)))" } ?? String(v.className.prefix(40))
    }

    mutating func write() -> String {
        let root = scene.root
        var decls = ["position: relative"]
        let flow = flowChild(root)
        if let flow {
            decls.append("padding: \(flow.padding.map(CSS.px).joined(separator: " "))")
        } else {
            // Absolutely placed views need the view's height; iOS sizes it by the Info.plist's
            // UNNotificationExtensionInitialContentSizeRatio or the code's preferredContentSize.
            decls.append("height: \(CSS.px(root.frame?.height ?? scene.root.element.child("size", key: "freeformSize")?.number("height") ?? 300))")
        }
        emit(root, position: decls, indent: 0, bounded: (true, flow == nil))
        for (i, r) in solver.rules.enumerated() where !solver.used.contains(i) && isDrawn(r) {
            problems.append(.init(line: r.element.line, message: "the constraint \(r.text(viewName)) is not converted; what it places is drawn at its design-time frame"))
        }
        for i in solver.approximated.sorted() {
            let r = solver.rules[i]
            problems.append(.init(line: r.element.line, message: "the constraint \(r.text(viewName)) aligns baselines; drawn as top or bottom alignment"))
        }
        if usesPlaceholder { rules.append((".ib-placeholder", ["background-color: var(--tertiary-fill)"])) }
        return document()
    }

    /// A view by its class name without `ib-` (the root is `view`), a guide as its view's.
    func viewName(_ id: String) -> String {
        if let guide = scene.guides[id] {
            return viewName(guide.owner) + "." + (["top": "topLayoutGuide", "bottom": "bottomLayoutGuide"][guide.kind] ?? guide.kind)
        }
        guard let name = names[id] else { return id }
        return name == "ib-root" ? "view" : String(name.dropFirst(3))
    }

    /// Whether every item of the rule is a view that is drawn.
    func isDrawn(_ r: LayoutRule) -> Bool { names[r.first.item] != nil && (r.second.map { names[$0.item] != nil } ?? true) }

    /// The header comment, the style sheet and the markup.
    func document() -> String {
        let source = URL(fileURLWithPath: file).lastPathComponent
        var lines = ["{{! Starter template converted by pushpreview init from \(CSS.comment(source))\(scene.ownerClass.map { " (\(CSS.comment($0)))" } ?? ""). Each outlet is",
                     "    marked where it is drawn: a bound one shows the notification's data, an unbound one its design-time content."]
        let notDrawn = scene.outlets.filter { names[$0.destination] == nil }.map(\.property)
        if !notDrawn.isEmpty { lines.append("    Outlets that are not views drawn here: \(CSS.comment(notDrawn.joined(separator: ", ")))." ) }
        lines[lines.count - 1] += " }}"
        lines.append("<style>")
        lines += colors.stylesheet
        for r in rules {
            var seen: Set<String> = []
            lines.append("  \(r.selector) { \(r.declarations.filter { seen.insert($0).inserted }.joined(separator: "; ")); }")
        }
        lines.append("</style>")
        return (lines + markup).joined(separator: "\n") + "\n"
    }
}
