import Styling
import Templating
import Typography

/// The HTML backend: one self-contained page per mock-up that a browser lays out like the
/// Scene. Scripts are forbidden by a Content-Security-Policy; images sit beside the page.
public enum HTMLWriter {
    public struct Page {
        public var title: String
        public var body: Element
        public var sheets: [Stylesheet]
        public var appearance: Appearance
        public var width: Double
        public var background: RGBA
        public var language: String
        /// The device's scale (2 or 3), which the PNG is drawn and laid out at.
        public var deviceScale: Int
        /// Where the page finds each @font-face `url()` the PNG renderer loaded (beside the page).
        public var fontFiles: [String: String] = [:]
        /// The display setting the page's @media rules were answered for.
        public var accessibility = AccessibilitySetting.standard
        public init(title: String, body: Element, sheets: [Stylesheet], appearance: Appearance, width: Double, deviceScale: Int,
                    background: RGBA, language: String) {
            self.title = title; self.body = body; self.sheets = sheets; self.appearance = appearance
            self.width = width; self.deviceScale = deviceScale; self.background = background; self.language = language
        }
    }

    /// The script faces the PNG renderer loads (FontSystem.scriptFaces), each named for its own
    /// Unicode blocks only, so a browser falls back to them instead of whatever its system prefers.
    static let fallbackFaces: String = {
        var families: [String] = [], ranges: [String: [String]] = [:]
        for (range, family) in FontSystem.scriptFaces {
            if ranges[family] == nil { families.append(family) }
            ranges[family, default: []].append(String(format: "U+%04X-%04X", range.lowerBound, range.upperBound))
        }
        return families.flatMap { family in
            [("Regular", 400), ("Bold", 700)].map { style, weight in
                let postScript = family.replacingOccurrences(of: " ", with: "") + "-" + style
                return #"@font-face { font-family: "PushPreview Fallback"; src: local("\#(family) \#(style)"), local("\#(postScript)"); font-weight: \#(weight); unicode-range: \#(ranges[family]!.joined(separator: ", ")) }"#
            }
        }.joined(separator: "\n")
    }()

    /// Every page we write starts from this: nothing loads but what each page allows, and no
    /// `<base>` or form can send the reader elsewhere (neither is covered by default-src).
    public static let lockedDown = "default-src 'none'; base-uri 'none'; form-action 'none'"
    public static let contentSecurityPolicy = "\(lockedDown); img-src 'self' data:; style-src 'unsafe-inline'; font-src 'self' data:"

    /// The meta element naming the device scale: a browser lays text out as the PNG only on a
    /// screen of that scale (a phone of the profile's kind, or Chromium started with
    /// `--force-device-scale-factor`, which is how the fidelity check opens the page), since
    /// line heights and borders are snapped to device pixels; the viewport's initial-scale=1
    /// keeps a CSS pixel one point there.
    public static let deviceScaleMeta = "pushpreview-device-scale"

    public static func html(_ page: Page, rewriteURL: (String) -> String) -> String {
        let css = page.sheets.map { $0.css(for: MediaFeatures(appearance: page.appearance, accessibility: page.accessibility), fontURL: { page.fontFiles[$0] }, rewriteURL: rewriteURL) }.filter { !$0.isEmpty }.joined(separator: "\n")
        return """
        <!DOCTYPE html>
        <html lang="\(escapeHTML(page.language))"\(isRightToLeftLanguage(page.language) ? " dir=\"rtl\"" : "")>
        <head>
        <meta charset="utf-8">
        <meta http-equiv="Content-Security-Policy" content="\(contentSecurityPolicy)">
        <meta name="viewport" content="width=\(formatNumber(page.width)), initial-scale=1">
        <meta name="\(deviceScaleMeta)" content="\(page.deviceScale)">
        <title>\(escapeHTML(page.title))</title>
        <style>
        \(fallbackFaces)
        html { background: \(page.background.css); color-scheme: \(page.appearance.rawValue) }
        body { margin: 0; width: \(formatNumber(page.width))px; font-family: Inter, "PushPreview Fallback", sans-serif; font-size: 16px; -webkit-font-smoothing: antialiased; text-rendering: geometricPrecision }
        \(css)
        </style>
        </head>
        <body>\(page.body.html(rewriteURL: rewriteURL, includeSelf: false))</body>
        </html>

        """
    }
}
