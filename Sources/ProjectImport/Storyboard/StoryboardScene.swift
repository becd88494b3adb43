/// A rectangle of a design-time frame, in points.
struct Rect: Sendable, Equatable {
    var x = 0.0, y = 0.0, width = 0.0, height = 0.0
}

/// One view of the scene: what kind of UIKit view it is, its element, its design-time frame and
/// its subviews (a stack view's arranged subviews, a visual effect view's content view's).
struct SceneView: Sendable {
    enum Kind: Sendable, Equatable { case view, label, imageView, textView, button, stackView, other }
    var kind: Kind
    var element: IBElement
    var id: String
    var frame: Rect?
    var subviews: [SceneView] = []

    /// `<label>` is a UILabel, `<switch>` a UISwitch: how messages name it.
    var className: String {
        if let custom = element["customClass"] { return custom }
        let name = element.name
        return "UI" + name.prefix(1).uppercased() + name.dropFirst()
    }

    /// Its sizes come from its content when no constraint gives them.
    var hasIntrinsicSize: Bool { [.label, .button, .textView, .stackView].contains(kind) }
}

/// The part of an Interface Builder document that becomes the template: the root view of the
/// storyboard's initial (else first) view controller, or of the XIB, as a tree of views; every
/// constraint and layout guide inside it; and the outlets that point into it, in document order.
struct StoryboardScene: Sendable {
    /// More views than a notification could show: the rest are said, not drawn.
    static let maxViews = 500
    /// Views inside views this deep; the template's HTML may nest 64 elements.
    static let maxDepth = 24
    /// A scene of 500 views needs a few hundred constraints; solving is quadratic in them.
    static let maxConstraints = 5_000

    struct Outlet: Sendable { var property: String; var destination: String; var line: Int }
    /// A constraint as written, with the view whose `<constraints>` holds it (the item an omitted
    /// `firstItem` or `secondItem` means).
    struct Constraint: Sendable { var element: IBElement; var holder: String }
    /// A layout guide: the view it belongs to and which one it is (`safeArea`, `layoutMargins`,
    /// or a view controller's `top` and `bottom` guides).
    struct Guide: Sendable { var owner: String; var kind: String }

    var file: String
    var root: SceneView
    /// The view controller's (or File's Owner's) class, for the template's header.
    var ownerClass: String?
    /// The root is a view controller's view (UIKit gives it 16 pt side margins), not a custom view's.
    var rootIsControllerView = true
    var outlets: [Outlet] = []
    var constraints: [Constraint] = []
    var guides: [String: Guide] = [:]
    /// `<resources>`: the design-time values of system and named colours.
    var resources: IBElement?
    var problems: [ConversionProblem] = []
    private var viewCount = 0
    private var seenIDs: Set<String> = []

    init(document: IBElement, file: String) throws(XcodeProject.ReadError) {
        self.file = file
        func fail(_ line: Int, _ message: String) -> XcodeProject.ReadError { .init(description: "\(file):\(line): \(message)") }
        let type = document["type"] ?? ""
        guard document.name == "document", type.hasPrefix("com.apple.InterfaceBuilder3.") else {
            throw fail(document.line, "not an Interface Builder document (the root element is <\(document.name.prefix(40))>, not <document type=\"com.apple.InterfaceBuilder3.…\">)")
        }
        guard type.contains("CocoaTouch") else { throw fail(document.line, "a \(type.prefix(80)) document is not an iOS one (CocoaTouch); not converted") }
        resources = document.child("resources")
        root = SceneView(kind: .view, element: document, id: "", frame: nil)
        var ownerConnections: [IBElement] = []
        let rootElement: IBElement
        if type.contains("Storyboard") {
            let controllers = document.child("scenes")?.children("scene").flatMap { $0.child("objects")?.children ?? [] }
                .filter { $0["sceneMemberID"] == "viewController" } ?? []
            guard let controller = controllers.first(where: { $0["id"] == document["initialViewController"] }) ?? controllers.first else {
                throw fail(document.line, "the storyboard has no view controller")
            }
            guard let view = controller.child(key: "view") else { throw fail(controller.line, "the view controller <\(controller.name.prefix(40))> has no view") }
            if controllers.count > 1 {
                problems.append(.init(line: controller.line, message: "\(controllers.count) view controllers; only the initial one (\(controller["customClass"] ?? controller.name)) is converted"))
            }
            ownerClass = controller["customClass"]
            ownerConnections = controller.child("connections")?.children ?? []
            for guide in controller.child("layoutGuides")?.children("viewControllerLayoutGuide") ?? [] {
                if let id = guide["id"], let kind = guide["type"], let owner = view["id"] { guides[id] = Guide(owner: owner, kind: kind) }
            }
            rootElement = view
        } else {
            let objects = document.child("objects")?.children ?? []
            let owner = objects.first { $0["placeholderIdentifier"] == "IBFilesOwner" }
            ownerClass = owner?["customClass"]
            ownerConnections = owner?.child("connections")?.children ?? []
            let views = objects.filter { $0.name != "placeholder" && $0["id"] != nil && ($0.child("rect", key: "frame") != nil || $0.child("subviews") != nil) }
            let viewOutlet = ownerConnections.first { $0.name == "outlet" && $0["property"] == "view" }?["destination"]
            guard let view = views.first(where: { $0["id"] == viewOutlet }) ?? views.first else { throw fail(document.line, "the XIB has no view") }
            rootIsControllerView = viewOutlet != nil && viewOutlet == view["id"]
            if views.count > 1 {
                problems.append(.init(line: view.line, message: "\(views.count) top-level views; only \(viewOutlet != nil ? "File's Owner's view" : "the first") is converted"))
            }
            rootElement = view
        }
        for c in ownerConnections where (c.name == "outlet" || c.name == "outletCollection") && c["property"] != "view" {
            if let property = c["property"], let destination = c["destination"] { outlets.append(Outlet(property: property, destination: destination, line: c.line)) }
        }
        root = view(rootElement, depth: 0) ?? root
        outlets.sort { $0.line < $1.line }
        if viewCount > Self.maxViews {
            problems.append(.init(line: rootElement.line, message: "more than \(Self.maxViews) views; the first \(Self.maxViews) are drawn, the rest are not"))
        }
    }

    /// The view and its subviews, collecting constraints, guides and the views' own outlets.
    private mutating func view(_ e: IBElement, depth: Int) -> SceneView? {
        viewCount += 1
        guard viewCount <= Self.maxViews else { return nil }
        let kinds: [String: SceneView.Kind] = ["view": .view, "label": .label, "imageView": .imageView, "textView": .textView,
                                               "button": .button, "stackView": .stackView]
        var id = e["id"] ?? "line\(e.line)"
        if !seenIDs.insert(id).inserted {
            // Constraints and outlets name views by id: a second view with one is not matched.
            problems.append(.init(line: e.line, message: "the id \"\(id)\" is used by an earlier view too; constraints and outlets naming it go to the first"))
            id = "\(id)@\(e.line)"
        }
        var v = SceneView(kind: kinds[e.name] ?? .other, element: e, id: id)
        if let r = e.child("rect", key: "frame") {
            v.frame = Rect(x: r.number("x") ?? 0, y: r.number("y") ?? 0, width: r.number("width") ?? 0, height: r.number("height") ?? 0)
        }
        for c in e.child("constraints")?.children("constraint") ?? [] {
            guard constraints.count < Self.maxConstraints else {
                problems.append(.init(line: c.line, message: "more than \(Self.maxConstraints) constraints; the rest are not read"))
                break
            }
            constraints.append(Constraint(element: c, holder: id))
        }
        if let variation = e.child("variation") {
            problems.append(.init(line: variation.line, message: "the size-class variations of \(v.className.prefix(40)) are not converted; its base layout is drawn"))
        }
        for g in e.children("viewLayoutGuide") { if let gid = g["id"], let key = g["key"] { guides[gid] = Guide(owner: id, kind: key) } }
        for c in e.child("connections")?.children ?? [] where c.name == "outlet" || c.name == "outletCollection" {
            if let property = c["property"], let destination = c["destination"] { outlets.append(Outlet(property: property, destination: destination, line: c.line)) }
        }
        // A visual effect view keeps its subviews in its content view.
        let subviews = e.child("subviews") ?? e.child(key: "contentView")?.child("subviews")
        guard let subviews, !subviews.children.isEmpty else { return v }
        guard depth < Self.maxDepth else {
            problems.append(.init(line: subviews.line, message: "views nest deeper than \(Self.maxDepth) levels here; what is inside \(v.className) is not drawn"))
            return v
        }
        for s in subviews.children {
            if let child = view(s, depth: depth + 1) { v.subviews.append(child) }
        }
        return v
    }
}
