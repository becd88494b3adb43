/// The markup of each kind of view, with its outlets' comments and placeholders.
extension TemplateWriter {
    /// Writes `v` (its rule, then its markup and its subviews'); `position` places it in its
    /// container, `bounded` says whether its width and height are fixed from outside.
    mutating func emit(_ v: SceneView, position: [String], indent: Int, bounded: (Bool, Bool)) {
        let cls = names[v.id]!, pad = String(repeating: "  ", count: indent)
        for o in outletsByView[v.id] ?? [] { markup.append(pad + "{{! \(CSS.comment(outletNote(o, v))) }}") }
        var decls = position + look(v)
        let path = binding(v)
        switch v.kind {
        case .label, .textView:
            let isLabel = v.kind == .label
            let lines = isLabel ? Int(v.element["numberOfLines"] ?? "1") : nil
            decls += font(v, fallback: isLabel ? 17 : 14)
            if !isLabel { decls += ["padding: 8px 5px", "overflow: hidden"] }
            // A label taller than its text draws it centred: one line by its line height, more
            // as the one item of a column.
            if let h = boxHeights[v.id], h > 0 {
                decls += text(v, lines: lines == 1 ? 1 : nil) + (lines == 1 ? ["line-height: \(CSS.px(h))"] : ["display: flex", "flex-direction: column", "justify-content: center", "overflow: hidden"])
            } else {
                decls += text(v, lines: lines)
            }
            rules.append((".\(cls)", decls))
            markup.append(pad + "<div class=\"\(cls)\">\(path.map { "{{\($0)}}" } ?? CSS.text(designText(v)))</div>")
        case .button:
            decls += buttonLook(v)
            rules.append((".\(cls)", decls))
            let config = v.element.child("buttonConfiguration"), normal = v.element.child("state", key: "normal")
            if (normal?["image"] ?? config?["image"] ?? v.element.child("imageReference")?["image"]) != nil {
                problems.append(.init(line: v.element.line, message: "the image of \(label(v)) is not drawn; only its title is"))
            }
            let title = config?["title"] ?? normal?["title"] ?? ""
            markup.append(pad + "<div class=\"\(cls)\">\(path.map { "{{\($0)}}" } ?? CSS.text(title))</div>")
        case .imageView:
            image(v, decls: decls, path: path, pad: pad)
        case .view, .stackView, .other:
            if v.kind == .other {
                let what = v.subviews.isEmpty ? "an empty box of its design-time size is drawn" : "drawn as a plain view with its subviews"
                problems.append(.init(line: v.element.line, message: "<\(v.element.name.prefix(40))> (\(v.className.prefix(40))) is not converted; \(what)"))
                if v.subviews.isEmpty, v.element.child("color", key: "backgroundColor") == nil { decls.append("background-color: var(--quaternary-fill)") }
            }
            container(v, decls: decls, pad: pad, indent: indent, bounded: bounded)
        }
    }

    /// A plain view or a stack view and what is inside it.
    mutating func container(_ v: SceneView, decls: [String], pad: String, indent: Int, bounded: (Bool, Bool)) {
        var decls = decls
        let cls = names[v.id]!
        let placements = placements(v)
        let flow = v.kind == .stackView ? nil : flowChild(v)
        if v.kind == .stackView { decls += stack(v) } else if let flow, v.id != scene.root.id { decls.append("padding: \(flow.padding.map(CSS.px).joined(separator: " "))") }
        rules.append((".\(cls)", decls))
        guard !v.subviews.isEmpty else { return markup.append(pad + "<div class=\"\(cls)\"></div>") }
        markup.append(pad + "<div class=\"\(cls)\">")
        let grow = v.kind == .stackView ? growingItem(v, bounded: bounded) : nil
        for child in v.subviews {
            guard !child.element.flag("hidden") else {
                markup.append(pad + "  {{! \(CSS.comment(label(child))) is hidden at design time; not drawn }}")
                continue
            }
            let p = placements[child.id] ?? Placement()
            if v.kind == .stackView {
                emit(child, position: stackItem(child, p, stack: v, grows: child.id == grow), indent: indent + 1, bounded: (true, true))
            } else if flow != nil {
                emit(child, position: ["position: relative"], indent: indent + 1, bounded: (true, false))
            } else {
                emit(child, position: absolute(child, p, container: v), indent: indent + 1, bounded: (true, true))
            }
        }
        markup.append(pad + "</div>")
    }

    /// An image view: the bound image, else a placeholder where code or the catalog puts one.
    mutating func image(_ v: SceneView, decls: [String], path: String?, pad: String) {
        let cls = names[v.id]!
        let fit = ["scaleAspectFill": "cover", "scaleAspectFit": "contain", "scaleToFill": "fill"][v.element["contentMode"] ?? "scaleToFill"] ?? "none"
        rules.append((".\(cls)", decls + ["display: block", "object-fit: \(fit)"]))
        let hasFill = v.element.child("color", key: "backgroundColor") != nil
        let placeholder = "<div class=\"\(cls)\(hasFill ? "" : " ib-placeholder")\"></div>"
        if let path {
            markup.append(pad + "{{#\(path)}}<img class=\"\(cls)\" src=\"{{\(path)}}\" alt=\"\">{{/\(path)}}{{^\(path)}}\(placeholder){{/\(path)}}")
        } else if let asset = v.element["image"] ?? v.element.child("imageReference", key: "image")?["image"] {
            let kind = v.element.child("imageReference", key: "image")?["catalog"] == "system" ? "the SF Symbol" : "the asset catalog's image"
            problems.append(.init(line: v.element.line, message: "\(kind) \"\(asset)\" of \(label(v)) is not drawn; a placeholder is"))
            markup.append(pad + placeholder)
        } else if outletsByView[v.id] != nil {
            markup.append(pad + placeholder) // the code sets the image
        } else {
            markup.append(pad + "<div class=\"\(cls)\"></div>")
            return
        }
        usesPlaceholder = usesPlaceholder || !hasFill
    }

    /// The Mustache path an outlet of `v` is bound to, when it is a plain dotted name.
    func binding(_ v: SceneView) -> String? {
        for o in outletsByView[v.id] ?? [] {
            if let path = bindings[o.property], !path.isEmpty, path.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "_.-".contains($0)) }) { return path }
        }
        return nil
    }

    /// The comment beside an outlet: where its content comes from, or what to bind.
    func outletNote(_ o: StoryboardScene.Outlet, _ v: SceneView) -> String {
        let what = "outlet \(o.property) (\(v.className))"
        if let path = bindings[o.property], binding(v) == path { return "\(what): the extension's code sets it from \(path)" }
        switch v.kind {
        case .label, .textView, .button:
            return "\(what): bind it: put what the extension's code sets here in double braces (title, subtitle, body, userInfo.KEY) in place of the design-time text"
        case .imageView:
            return "\(what): bind it: an <img> whose src is what the extension's code shows in double braces (attachment.url, userInfo.KEY) in place of the placeholder"
        default:
            return "\(what): set up by the extension's code; drawn as designed"
        }
    }

    /// A label's or text view's text as designed: plain, a `<string key="text">`, or the
    /// fragments of attributed text (whose fonts and colours are not converted, said).
    mutating func designText(_ v: SceneView) -> String {
        let e = v.element
        if let text = e["text"] ?? e.child("string", key: "text")?["content"] { return text }
        guard let attributed = e.child("attributedString") else { return "" }
        problems.append(.init(line: attributed.line, message: "the attributed text of \(label(v)) is drawn as plain text in the view's font"))
        return attributed.children("fragment").map { $0["content"] ?? $0.child("string", key: "content")?["content"] ?? "" }.joined()
    }
}
