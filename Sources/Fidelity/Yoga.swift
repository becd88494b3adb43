import Foundation
import Layout
import Styling
import Templating
import Typography

// Yoga's gentest fixtures (../shared/conformance/yoga, facebook/yoga, MIT), laid out by our
// engine and by Chromium on the same page: every node's box relative to its case's root, as
// written and with `direction: rtl` on the root. `yoga-prepare` writes, per fixture file, the
// page Chromium loads (scripts/chromium-capture.py measures it) and our boxes; `yoga-compare`
// prints a table per file and every case still failing, with its first differing node.

let yogaRoot = URL(fileURLWithPath: ProcessInfo.processInfo.environment["SHARED"] ?? root.appendingPathComponent("../shared").path)
    .appendingPathComponent("conformance/yoga").standardizedFileURL
let directions = ["ltr", "rtl"]

/// One case's boxes in both directions, in document order from the case root; what our style
/// resolver warned about, and whether Yoga itself disagrees with Chrome on it.
struct YogaCase: Codable {
    var id: String
    var disabled: Bool
    /// x, y, width, height per node; nil for a node with no box (display: none or contents).
    var boxes: [String: [[Double]?]]
    var warnings: [String]
}

func yogaPrepare() throws -> Int32 {
    try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    let fixtures = yogaRoot.appendingPathComponent("fixtures")
    guard let template = try? String(contentsOf: yogaRoot.appendingPathComponent("test-template.html"), encoding: .utf8),
          let files = try? FileManager.default.contentsOfDirectory(atPath: fixtures.path).filter({ $0.hasSuffix(".html") }).sorted() else {
        print("yoga: skipped, \(yogaRoot.path) is not there (the shared conformance folder; set SHARED=… to point at it)")
        return 0
    }
    let fontFolder = yogaRoot.appendingPathComponent("fonts")
    let fonts = try FontSystem(fonts: FontSet(files: (try FontSet.standard()).files + [fontFolder.appendingPathComponent("Ahem.ttf").path]))
    let css = try yogaStyle(template)
    let sheet = Stylesheet(css, file: "test-template.html", firstLine: 1)
    var total = 0
    for file in files {
        let stem = String(file.dropLast(5))
        let fixture = try String(contentsOf: fixtures.appendingPathComponent(file), encoding: .utf8)
        let folder = work.appendingPathComponent(stem)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let page = template.replacingOccurrences(of: "%FONT_PATH%", with: fontFolder.appendingPathComponent("Ahem.ttf").path)
            .replacingOccurrences(of: "%FIXTURE%", with: fixture)
        try page.write(to: folder.appendingPathComponent("page.html"), atomically: true, encoding: .utf8)
        try "yoga".write(to: folder.appendingPathComponent("yoga.txt"), atomically: true, encoding: .utf8)

        let document = try HTMLParser.parse("<div id=\"container\">\(fixture)</div>", file: file)
        guard case .element(let container)? = document.body.children.first(where: { if case .element = $0 { true } else { false } }) else { continue }
        var cases: [YogaCase] = []
        for case .element(let caseRoot) in container.children {
            var found = YogaCase(id: caseRoot.id ?? "?", disabled: caseRoot[attribute: "data-disabled"] == "true", boxes: [:], warnings: [])
            for direction in directions {
                var (root, nodes) = numbered(caseRoot)
                if direction == "rtl" {
                    root.attributes.removeAll { $0.name == "style" }
                    root.attributes.append(.init("style", "direction: rtl; " + (caseRoot[attribute: "style"] ?? "")))
                }
                var body = document.body
                body.children = [.element(Element(tag: "div", attributes: container.attributes, children: [.element(root)]))]
                let (styled, warnings) = StyleResolver(sheets: [sheet], appearance: .light).resolve(body, file: file, fonts: fonts)
                if direction == "ltr" { found.warnings = warnings.map(\.message) }
                let scene = LayoutEngine(fonts: fonts) { _ in nil }.layout(styled, width: 800)
                var boxes: [[Double]?] = Array(repeating: nil, count: nodes)
                for box in scene.boxes {
                    if let id = box.id, id.hasPrefix("yoga-node-"), let n = Int(id.dropFirst(10)) { boxes[n] = [box.x, box.y, box.width, box.height] }
                }
                let origin = boxes.first.flatMap { $0 } ?? [0, 0]
                found.boxes[direction] = boxes.map { $0.map { [$0[0] - origin[0], $0[1] - origin[1], $0[2], $0[3]] } }
            }
            cases.append(found)
        }
        total += cases.count
        try JSONEncoder().encode(cases).write(to: folder.appendingPathComponent("ours.json"))
    }
    print("yoga: prepared \(total) cases from \(files.count) fixture files in \(work.path)")
    return 0
}

/// The template's stylesheet, which scopes every case.
func yogaStyle(_ template: String) throws -> String {
    guard let open = template.range(of: "<style>"), let close = template.range(of: "</style>") else {
        throw FidelityError("test-template.html has no <style>")
    }
    return String(template[open.upperBound..<close.lowerBound])
}

/// The case with every element named by its place in document order, as the capture script
/// names Chromium's (ids match nothing in the template's stylesheet, so layout is unchanged).
func numbered(_ root: Element) -> (Element, count: Int) {
    var next = 0
    func walk(_ e: Element) -> Element {
        var e = e
        e.attributes.removeAll { $0.name == "id" }
        e.attributes.append(.init("id", "yoga-node-\(next)"))
        next += 1
        e.children = e.children.map { if case .element(let c) = $0 { .element(walk(c)) } else { $0 } }
        return e
    }
    let numbered = walk(root)
    return (numbered, next)
}

func yogaCompare() throws -> Int32 {
    let stems = ((try? FileManager.default.contentsOfDirectory(atPath: work.path)) ?? []).filter {
        FileManager.default.fileExists(atPath: work.appendingPathComponent($0).appendingPathComponent("yoga.txt").path)
    }.sorted()
    guard !stems.isEmpty else { print("yoga: skipped, nothing prepared"); return 0 }
    var passed = ["ltr": 0, "rtl": 0], count = 0
    var failures: [String] = []
    print("\nYoga gentest fixtures against Chromium, every node within 0.5 px")
    print("fixture file                    cases      ltr      rtl")
    for stem in stems {
        let folder = work.appendingPathComponent(stem)
        let ours = try JSONDecoder().decode([YogaCase].self, from: Data(contentsOf: folder.appendingPathComponent("ours.json")))
        guard let chromeData = FileManager.default.contents(atPath: folder.appendingPathComponent("chrome.json").path) else {
            print("\(stem): not captured"); return 1
        }
        let chrome = try JSONDecoder().decode([String: [String: [[Double]?]]].self, from: chromeData)
        var filePassed = ["ltr": 0, "rtl": 0]
        for c in ours {
            for direction in directions {
                let mine = c.boxes[direction] ?? [], theirs = chrome[c.id]?[direction] ?? []
                if let miss = firstMiss(mine, theirs) {
                    let warned = c.warnings.isEmpty ? "no warning" : "warned: " + c.warnings.joined(separator: "; ")
                    failures.append("\(stem) \(c.id)\(c.disabled ? " (disabled in Yoga)" : "") \(direction): \(miss) — \(warned)")
                } else { filePassed[direction]! += 1 }
            }
        }
        count += ours.count
        for d in directions { passed[d]! += filePassed[d]! }
        print("\(stem.padding(toLength: 30, withPad: " ", startingAt: 0)) \(String(format: "%6d  %7d  %7d", ours.count, filePassed["ltr"]!, filePassed["rtl"]!))")
    }
    let share = { (d: String) in count == 0 ? 0 : Double(passed[d]!) / Double(count) * 100 }
    print(String(format: "%@ %6d  %7d  %7d   (%.1f%% ltr, %.1f%% rtl)", "all".padding(toLength: 30, withPad: " ", startingAt: 0),
                 count, passed["ltr"]!, passed["rtl"]!, share("ltr"), share("rtl")))
    if !failures.isEmpty { print("\nstill failing:\n" + failures.joined(separator: "\n")) }
    let met = share("ltr") >= 97 && share("rtl") >= 97
    print(met ? "yoga: target met (≥ 97% of cases in each direction)" : "yoga: target NOT met (≥ 97% of cases in each direction)")
    return met ? 0 : 1
}

/// The first node whose box differs by more than 0.5 px, said as "node N: ours … chrome …".
func firstMiss(_ ours: [[Double]?], _ chrome: [[Double]?]) -> String? {
    guard ours.count == chrome.count else { return "\(ours.count) nodes, Chromium has \(chrome.count)" }
    let f = { (r: [Double]?) in r.map { "(" + $0.map { String(format: "%g", ($0 * 100).rounded() / 100) }.joined(separator: ",") + ")" } ?? "no box" }
    for (i, (a, b)) in zip(ours, chrome).enumerated() {
        let same = switch (a, b) {
        case (nil, nil): true
        case (let a?, let b?): !zip(a, b).contains { abs($0 - $1) > 0.5 }
        default: false
        }
        if !same { return "node \(i): ours \(f(a)) chrome \(f(b))" }
    }
    return nil
}
