/// The CSS declarations of one view's look, apart from where it is: its background, opacity,
/// clipping, corner radius and border (user-defined runtime attributes), tint, font and text.
extension TemplateWriter {
    /// Interface Builder's text style names → the `--font-NAME` properties of DynamicType.swift.
    static let textStyles: [String: String] = [
        "Title0": "large-title", "Title1": "title1", "Title2": "title2", "Title3": "title3", "Headline": "headline",
        "Subhead": "subheadline", "Subheadline": "subheadline", "Body": "body", "Callout": "callout", "Footnote": "footnote",
        "Caption1": "caption1", "Caption2": "caption2",
    ]
    static let weights: [String: Int] = [
        "ultraLight": 100, "thin": 200, "light": 300, "regular": 400, "medium": 500, "semibold": 600, "bold": 700, "heavy": 800, "black": 900,
    ]

    /// A PostScript name's face → CSS weight, longer names first ("semibold" before "bold").
    static let faceWeights: [(String, Int)] = [
        ("ultralight", 200), ("extralight", 200), ("thin", 100), ("light", 300), ("book", 400), ("roman", 400), ("regular", 400),
        ("medium", 500), ("demibold", 600), ("semibold", 600), ("extrabold", 800), ("ultrabold", 800), ("bold", 700), ("heavy", 800), ("black", 900),
    ]

    mutating func look(_ v: SceneView) -> [String] {
        let e = v.element
        var out: [String] = []
        if let c = e.child("color", key: "backgroundColor"), let css = colors.css(c), css != "transparent" { out.append("background-color: \(css)") }
        if let tint = e.child("color", key: "tintColor"), let css = colors.css(tint) { out.append("--tint: \(css)") }
        if let alpha = e.number("alpha"), alpha < 1 { out.append("opacity: \(CSS.number(max(alpha, 0)))") }
        var clips = e.flag("clipsSubviews")
        var border: (width: Double, color: String)?
        for a in e.child("userDefinedRuntimeAttributes")?.children("userDefinedRuntimeAttribute") ?? [] {
            let key = a["keyPath"] ?? ""
            let number = a.children.first { $0["key"] == "value" }?.number("value") ?? a.number("value")
            switch key {
            case _ where key.hasSuffix("cornerRadius"): if let r = number { out.append("border-radius: \(CSS.px(r))") }
            case "layer.masksToBounds", "clipsToBounds": clips = clips || a["value"] == "YES"
            case "layer.borderWidth": if let w = number { border = (w, border?.color ?? "#000000") }
            case "layer.borderColor", "borderColor":
                if let c = a.child("color", key: "value"), let css = colors.css(c) { border = (border?.width ?? 0, css) }
            default: problems.append(.init(line: a.line, message: "the runtime attribute \(key) of \(label(v)) is not converted"))
            }
        }
        if let border, border.width > 0 { out.append("border: \(CSS.px(border.width)) solid \(border.color)") }
        if clips { out.append("overflow: hidden") }
        return out
    }

    /// `font: var(--font-headline)` for a text style (Dynamic Type), else the size, weight and
    /// family the file gives; `fallback` is UIKit's default size for the view.
    mutating func font(_ v: SceneView, fallback: Double) -> [String] {
        guard let f = v.element.child("fontDescription") ?? v.element.child("buttonConfiguration")?.child("fontDescription") else {
            return ["font-size: \(CSS.px(fallback))"]
        }
        if let style = f["style"] {
            let name = style.replacingOccurrences(of: "UICTFontTextStyle", with: "")
            guard let property = Self.textStyles[name] else {
                problems.append(.init(line: f.line, message: "the text style \(style) is not known here; drawn as body"))
                return ["font: var(--font-body)", "letter-spacing: var(--font-body-tracking)"]
            }
            return ["font: var(--font-\(property))", "letter-spacing: var(--font-\(property)-tracking)"]
        }
        var out = ["font-size: \(CSS.px(f.number("pointSize") ?? fallback))"]
        if let family = f["family"] ?? f["name"] {
            // Only what a family name holds, so that no name can end the rule or the style sheet.
            let name = String(family.unicodeScalars.filter { $0.properties.isAlphabetic || $0.properties.numericType != nil || " -_.".unicodeScalars.contains($0) }.prefix(64))
            out.insert("font-family: \"\(name)\"", at: 0)
            // PostScript names carry the weight: Avenir-Heavy, Helvetica-BoldOblique.
            let face = (f["name"] ?? "").split(separator: "-").dropFirst().last.map { $0.lowercased() } ?? ""
            if let w = Self.faceWeights.first(where: { face.hasPrefix($0.0) })?.1, w != 400 { out.append("font-weight: \(w)") }
            if face.contains("italic") || face.contains("oblique") { out.append("font-style: italic") }
            return out
        }
        switch f["type"] ?? "system" {
        case "boldSystem": out.append("font-weight: 700")
        case "italicSystem": out.append("font-style: italic")
        default: if let w = f["weight"].flatMap({ Self.weights[$0] }), w != 400 { out.append("font-weight: \(w)") }
        }
        return out
    }

    /// Text colour, alignment and line limits of a label or text view.
    mutating func text(_ v: SceneView, lines: Int?) -> [String] {
        let e = v.element
        var out = ["color: \(e.child("color", key: "textColor").flatMap { colors.css($0) } ?? "var(--label)")"]
        switch e["textAlignment"] {
        case "center": out.append("text-align: center")
        case "right": out.append("text-align: right")
        case "justified": out.append("text-align: justify")
        default: break
        }
        switch lines {
        case 1?: out += ["white-space: nowrap", "overflow: hidden", "text-overflow: ellipsis"]
        case let n? where n > 1: out += ["display: -webkit-box", "-webkit-box-orient: vertical", "-webkit-line-clamp: \(n)", "overflow: hidden"]
        default: break
        }
        return out
    }

    /// A button: its title's font and colour, and the fill of its configuration (iOS 15) style.
    mutating func buttonLook(_ v: SceneView) -> [String] {
        let e = v.element, config = e.child("buttonConfiguration")
        var out = ["display: flex", "align-items: center", "justify-content: center", "white-space: nowrap"]
        let titleColor = (e.child("state", key: "normal")?.child("color", key: "titleColor") ?? config?.child("color", key: "baseForegroundColor")).flatMap { colors.css($0) }
        let fill = config?.child("color", key: "baseBackgroundColor").flatMap { colors.css($0) }
        let radius = ["capsule": "999px", "large": "12px", "medium": "6px", "small": "4px"][config?["cornerStyle"] ?? "medium"] ?? "6px"
        switch config?["style"] {
        case "filled"?: out += ["padding: 7px 12px", "border-radius: \(radius)", "background-color: \(fill ?? "var(--tint)")", "color: \(titleColor ?? "#ffffff")"]
        case "tinted"?, "gray"?: out += ["padding: 7px 12px", "border-radius: \(radius)", "background-color: \(fill ?? "var(--tertiary-fill)")", "color: \(titleColor ?? "var(--tint)")"]
        case nil where e["buttonType"] == "custom": out.append("color: \(titleColor ?? "#ffffff")")
        default: out.append("color: \(titleColor ?? "var(--tint)")")
        }
        return out + font(v, fallback: config == nil ? 15 : 17)
    }
}
