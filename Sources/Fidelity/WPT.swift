import ConfinedFiles
import Foundation
import Layout
import LayoutFixtures
import Rendering
import Styling
import Templating
import Typography

// A sample of Web Platform Tests (Tests/Fixtures/wpt/sample.txt: the rule, the folders, the
// chosen paths and the WPT commit each was read at; no WPT file is in the repository), laid out
// by our engine and by Chromium on the same converted page, as the Yoga harness does: every
// element gets an id if it has none, scripts go, the test's styles stay. `wpt-prepare WORKDIR`
// converts what scripts/wpt-sample.py extracted into WORKDIR/src and lays each test out;
// scripts/chromium-capture.py measures the same pages; `wpt-compare WORKDIR` prints the table by
// folder and fails below WPT_FLOOR tests within 0.5 pt.

let wptSample = ProcessInfo.processInfo.environment["WPT_SAMPLE"].map { URL(fileURLWithPath: $0) }
    ?? root.appendingPathComponent("Tests/Fixtures/wpt/sample.txt")
let wptWidth = 800.0
/// The device scale the sample is laid out at, ours and Chromium's (started at it): WPT_SCALE, else 3.
let wptScale = Int(ProcessInfo.processInfo.environment["WPT_SCALE"] ?? "") ?? 3

struct WPTSample {
    var folders: [String]
    var tests: [String]

    init(_ text: String) {
        let lines = text.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        folders = lines.filter { $0.first == "folder" && $0.count > 1 }.map { $0[1] }
        tests = lines.filter { $0.first == "test" && $0.count > 1 }.map { $0[1] }
    }

    /// The sampled folder a test belongs to: the longest one its path starts with.
    func folder(of path: String) -> String {
        folders.filter { path.hasPrefix($0 + "/") }.max { $0.count < $1.count } ?? (path as NSString).deletingLastPathComponent
    }
}

/// One test as prepared: where it comes from, why it is skipped (nil if laid out), and what our
/// style sheets and resolver warned about.
struct WPTCase: Codable {
    var path: String
    var folder: String
    var skipped: String?
    var warnings: [String]
}

/// What a notification template can't have, so the test is skipped, in the order checked: the
/// first rule a test's source matches names the reason. Scripts of the test harness and of
/// check-layout are dropped, not skipped (their checks read the layout; they make none).
let wptSkipRules: [(reason: String, pattern: String)] = [
    ("script", #"<script(?![^>]*src=["']?[^"'>]*(testharness|testharnessreport|check-layout-th)\.js)[^>]*>(?!\s*(checkLayout\([^)]*\);?\s*|done\(\);?\s*)*</script>)"#),
    ("frame or embedded object", #"<(iframe|frame|frameset|object|embed)\b"#),
    ("form control", #"<(form|input|button|select|textarea|fieldset)\b"#),
    ("vertical writing mode", #"writing-mode\s*:\s*(vertical|sideways|tb)"#),
    ("canvas or media", #"<(canvas|video|audio|picture)\b"#),
    ("external style sheet", #"<link(?=[^>]*stylesheet)(?![^>]*ahem\.css)[^>]*>"#),
    ("paged media or print", #"@page|@media\s+print"#),
]

func wptSkipReason(_ source: String) -> String? {
    wptSkipRules.first { rule in source.range(of: rule.pattern, options: [.regularExpression, .caseInsensitive]) != nil }?.reason
}

func wptPrepare() throws -> Int32 {
    let source = work.appendingPathComponent("src")
    guard let sampleText = try? String(contentsOf: wptSample, encoding: .utf8) else { throw FidelityError("\(wptSample.path) is missing") }
    let sample = WPTSample(sampleText)
    guard FileManager.default.fileExists(atPath: source.path) else {
        print("wpt: skipped, nothing extracted into \(source.path) (scripts/wpt-sample.py extract)"); return 0
    }
    let ahem = yogaRoot.appendingPathComponent("fonts/Ahem.ttf").path
    let fonts = try FontSystem(fonts: FontSet(files: (try FontSet.standard()).files + [ahem]))
    var laidOut = 0, skipped = 0
    for (n, path) in sample.tests.enumerated() {
        let folder = work.appendingPathComponent(String(format: "case-%03d", n))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var found = WPTCase(path: path, folder: sample.folder(of: path), skipped: nil, warnings: [])
        defer { try? JSONEncoder().encode(found).write(to: folder.appendingPathComponent("case.json")) }
        guard var text = try? String(contentsOf: source.appendingPathComponent(path), encoding: .utf8) else {
            found.skipped = "not extracted"; skipped += 1; continue
        }
        // An XHTML test's style sheet is wrapped in a CDATA section, which an XML parser drops
        // and an HTML one (ours, and Chromium on the page we write) would read as CSS.
        if path.hasSuffix(".xht") || path.hasSuffix(".xhtml") {
            text = text.replacingOccurrences(of: "<![CDATA[", with: "").replacingOccurrences(of: "]]>", with: "")
        }
        if let reason = wptSkipReason(text) { found.skipped = reason; skipped += 1; continue }
        let parsed = Sanitizer.sanitize(try HTMLParser.parse(text, file: path), allowURL: Sanitizer.localURL)
        var next = 0
        func named(_ e: Element) -> Element {
            var e = e
            if e.id == nil { e.attributes.append(.init("id", "wpt-\(next)")); next += 1 }
            e.children = e.children.map { if case .element(let c) = $0 { .element(named(c)) } else { $0 } }
            return e
        }
        var body = parsed.body
        body.children = body.children.map { if case .element(let c) = $0 { .element(named(c)) } else { $0 } }
        let sheets = parsed.styleSheets.map { Stylesheet($0.text, file: path, firstLine: $0.line) }
        // The suite's own fonts (support/*.woff) are read beside the test, as Chromium reads them.
        let here = source.appendingPathComponent(path).deletingLastPathComponent()
        var fontWarnings: [String] = []
        for face in sheets.flatMap(\.fontFaces) {
            for src in face.sources where !((try? TrustedFiles.open(here.appendingPathComponent(src).standardizedFileURL)).map { fonts.addFace($0, family: face.family) } ?? false) {
                fontWarnings.append("@font-face \(src) of \(face.family) could not be loaded")
            }
        }
        let (styled, warnings) = StyleResolver(sheets: sheets, appearance: .light, deviceScale: DeviceScale(Double(wptScale)))
            .resolve(body, file: path, fonts: fonts)
        // What the style sheets and the cascade warned about: the parser's and sanitizer's notes
        // (a removed <link> or <meta>) say nothing about layout, so they do not make a miss "warned".
        found.warnings = (sheets.flatMap(\.warnings) + warnings).map(\.message) + fontWarnings
        // Images are the suite's support files, extracted beside the test: read relative to it
        // (as Chromium does through the page's <base>); a test naming one that is not there or
        // that we cannot read is skipped.
        let images = ImageStore()
        images.resolver = { src in
            let file = here.appendingPathComponent(src).standardizedFileURL
            return FileManager.default.contents(atPath: file.path).map { ([UInt8]($0), file.lastPathComponent, file.path) }
        }
        let scene = LayoutEngine(fonts: fonts) { images.size(of: $0) }.layout(styled, width: wptWidth)
        if !images.missing.isEmpty { found.skipped = "image file missing or unreadable"; skipped += 1; continue }
        let boxes = scene.boxes.filter { $0.id != nil }.map { Box(id: $0.id, x: $0.x, y: $0.y, width: $0.width, height: $0.height) }
        try JSONEncoder().encode(boxes).write(to: folder.appendingPathComponent("ours.json"))
        try wptPage(body: body, css: parsed.styleSheets.map(\.text), ahem: ahem, base: here).write(to: folder.appendingPathComponent("page.html"), atomically: true, encoding: .utf8)
        try "wpt".write(to: folder.appendingPathComponent("wpt.txt"), atomically: true, encoding: .utf8)
        laidOut += 1
    }
    print("wpt: prepared \(sample.tests.count) tests (\(laidOut) laid out, \(skipped) skipped) at device scale \(wptScale) in \(work.path)")
    return 0
}

/// The page Chromium lays out: the body as our parser read it (ids added), the test's own CSS
/// as written, after the prelude every page we emit starts with (HTMLWriter: no body margin,
/// Inter 16 px), Ahem for the tests that name it, the test's folder in the extracted suite as
/// the base its support files are found from, and the device scale it is laid out at.
func wptPage(body: Element, css: [String], ahem: String, base: URL) -> String {
    let attributes = body.attributes.map { " \($0.name)=\"\(escapeHTML($0.value))\"" }.joined()
    return """
    <!DOCTYPE html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="\(HTMLWriter.deviceScaleMeta)" content="\(wptScale)">
    <base href="\(escapeHTML(base.absoluteString))">
    <style>
    @font-face { font-family: Ahem; src: url("file://\(ahem)") }
    body { margin: 0; width: \(formatNumber(wptWidth))px; font-family: Inter, sans-serif; font-size: 16px; -webkit-font-smoothing: antialiased; text-rendering: geometricPrecision }
    </style>
    \(css.map { "<style>\n\($0)\n</style>" }.joined(separator: "\n"))
    </head>
    <body\(attributes)>\(body.html(includeSelf: false))</body>
    </html>

    """
}

func wptCompare() throws -> Int32 {
    let cases = ((try? FileManager.default.contentsOfDirectory(atPath: work.path)) ?? []).filter { $0.hasPrefix("case-") }.sorted()
    guard !cases.isEmpty else { print("wpt: skipped, nothing prepared"); return 0 }
    struct Row { var cases = 0, matched = 0, skipped = 0, warned = 0, silent = 0 }
    var rows: [String: Row] = [:], misses: [String] = [], skips: [String: Int] = [:]
    for name in cases {
        let folder = work.appendingPathComponent(name)
        let c = try JSONDecoder().decode(WPTCase.self, from: Data(contentsOf: folder.appendingPathComponent("case.json")))
        rows[c.folder, default: Row()].cases += 1
        if let reason = c.skipped { rows[c.folder]!.skipped += 1; skips[reason, default: 0] += 1; continue }
        let ours = try JSONDecoder().decode([Box].self, from: Data(contentsOf: folder.appendingPathComponent("ours.json")))
        guard let data = FileManager.default.contents(atPath: folder.appendingPathComponent("chrome.json").path) else {
            print("wpt: \(c.path) not captured"); return 1
        }
        let chrome = try JSONDecoder().decode(WPTMeasured.self, from: data)
        let laidOut = Dictionary(ours.compactMap { box in box.id.map { ($0, [box.x, box.y, box.width, box.height]) } }, uniquingKeysWith: { first, _ in first })
        let differences = BoxComparison.differences(ours: laidOut, chrome: chrome.boxes, displays: chrome.displays)
        if differences.isEmpty { rows[c.folder]!.matched += 1; continue }
        if c.warnings.isEmpty { rows[c.folder]!.silent += 1 } else { rows[c.folder]!.warned += 1 }
        let said = c.warnings.isEmpty ? "no warning" : "warned: " + c.warnings.prefix(3).joined(separator: "; ")
        misses.append("\(c.path): \(differences.count) boxes off, first \(differences.prefix(2).joined(separator: "; ")) — \(said)")
    }
    print("\nWeb Platform Tests sample against Chromium at device scale \(wptScale), every box within 0.5 pt")
    print("folder                              cases  within  skipped  miss:warned  silent")
    var total = Row()
    for (folder, r) in rows.sorted(by: { $0.key < $1.key }) {
        print("\(folder.padding(toLength: 34, withPad: " ", startingAt: 0)) \(String(format: "%6d  %6d  %7d  %11d  %6d", r.cases, r.matched, r.skipped, r.warned, r.silent))")
        total.cases += r.cases; total.matched += r.matched; total.skipped += r.skipped; total.warned += r.warned; total.silent += r.silent
    }
    print("\("all".padding(toLength: 34, withPad: " ", startingAt: 0)) \(String(format: "%6d  %6d  %7d  %11d  %6d", total.cases, total.matched, total.skipped, total.warned, total.silent))")
    print("skipped: " + skips.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
    if !misses.isEmpty { print("\nmisses:\n" + misses.joined(separator: "\n")) }
    let floor = Int(ProcessInfo.processInfo.environment["WPT_FLOOR"] ?? "") ?? 0
    let met = total.matched >= floor
    print(met ? "wpt: floor met (\(total.matched) ≥ \(floor) within 0.5 pt)" : "wpt: floor NOT met (\(total.matched) < \(floor) within 0.5 pt)")
    return met ? 0 : 1
}

/// chrome.json of a WPT case (scripts/chromium-capture.py): each id'd element's border box, nil
/// without one, and its computed display.
struct WPTMeasured: Decodable {
    var boxes: [String: [Double]?]
    var displays: [String: String]
}
