import Foundation
import Imaging
import PushPreview
import Layout
import LayoutFixtures
import Rendering
import Styling
import Templating
import Typography

// `make fidelity`: the browser is the reference. `prepare` renders every fixture in
// Tests/Fixtures/layout with our engine (PNG, boxes, and the HTML page we emit);
// scripts/chromium-capture.py has Chromium lay out and screenshot that same page;
// The system chrome (expanded, banner and reply views around the stock templates) is checked
// the same way on Examples payloads, as `chrome-…` cases.
// `compare` prints, per case, the largest box difference (pt) and the share of pixels
// that differ by more than 25%, and checks the targets.

let width = FixtureLab.width
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardizedFileURL
let fixtures = root.appendingPathComponent("Tests/Fixtures/layout")
let arguments = CommandLine.arguments
guard arguments.count == 3, ["prepare", "compare", "yoga-prepare", "yoga-compare", "wpt-prepare", "wpt-compare"].contains(arguments[1]) else {
    print("usage: pushpreview-fidelity prepare|compare|yoga-prepare|yoga-compare|wpt-prepare|wpt-compare WORKDIR")
    exit(2)
}
let work = URL(fileURLWithPath: arguments[2])
let names = ((try? FileManager.default.contentsOfDirectory(atPath: fixtures.path)) ?? []).filter { $0.hasSuffix(".html") }.sorted()

struct Box: Codable { var id: String?; var x, y, width, height: Double }

func prepare() throws {
    let lab = try FixtureLab(folder: fixtures)
    // FIDELITY_ONLY=NAME,NAME: those fixtures alone and no chrome pages (while working on them).
    let only = ProcessInfo.processInfo.environment["FIDELITY_ONLY"].map { Set($0.split(separator: ",").map { String($0) + ".html" }) }
    let chosen = names.filter { only?.contains($0) ?? true }
    for name in chosen {
        for scale in FixtureLab.scales {
            try prepare(name, scale: scale, lab: lab)
        }
    }
    let chrome = only == nil ? try prepareChrome() : 0
    print("prepared \(chosen.count) fixtures at scales \(FixtureLab.scales.map(String.init).joined(separator: " and ")) and \(chrome) system chrome pages in \(work.path)")
}

/// One fixture at one device scale, as the case NAME@SCALEx: our PNG and boxes, and the page.
func prepare(_ name: String, scale: Int, lab: FixtureLab) throws {
    let page = try lab.page(name, scale: scale)
    let folder = work.appendingPathComponent("\(page.stem)@\(scale)x")
    try FileManager.default.createDirectory(at: folder.appendingPathComponent("media"), withIntermediateDirectories: true)
    if scale == FixtureLab.scales[0] { for w in page.warnings { print("warning: \(w)") } }
    // @font-face files sit beside the page, copied from the system files our engine loaded.
    var html = HTMLWriter.Page(title: page.stem, body: page.body, sheets: page.sheets, appearance: page.appearance, width: width,
                               deviceScale: scale, background: page.background, language: "en")
    for (src, system) in page.fontFaces.sorted(by: { $0.key < $1.key }) {
        let copy = folder.appendingPathComponent(src)
        try? FileManager.default.removeItem(at: copy)
        try FileManager.default.copyItem(atPath: system, toPath: copy.path)
        html.fontFiles[src] = src
    }
    let painted = PNGPainter(fonts: lab.fonts, images: lab.images, scale: scale).paint(page.scene, background: page.background)
    try Data(try PNGCodec.encode(painted.image, scale: scale, compressionLevel: 1)).write(to: folder.appendingPathComponent("ours.png"))
    let boxes = page.scene.boxes.filter { $0.id != nil }.map { Box(id: $0.id, x: $0.x, y: $0.y, width: $0.width, height: $0.height) }
    try JSONEncoder().encode(["width": width, "height": page.scene.height, "scale": Double(scale)]).write(to: folder.appendingPathComponent("size.json"))
    try JSONEncoder().encode(boxes).write(to: folder.appendingPathComponent("ours.json"))
    try HTMLWriter.html(html) { $0 }.write(to: folder.appendingPathComponent("page.html"), atomically: true, encoding: .utf8)
    for entry in lab.images.entries.values { try Data(entry.bytes).write(to: folder.appendingPathComponent(entry.fileName)) }
}

/// Examples payloads that between them show every part of the chrome, rendered on iPhone 15 in
/// light and dark, each view becoming a case with our PNG, our boxes and the emitted page; one
/// also on the Lock Screen and in Notification Center, and the crew thread's stack.
let chromePayloads = ["image-jpeg", "long-body", "sunset-clipped", "harbor-master", "localized-boarding", "photo-hero",
                      "video-clip", "voice-note", "crew-message", "berth-location", "dinner-reservation", "emoji", "bilge-alarm"]

func prepareChrome() throws -> Int {
    let examples = root.appendingPathComponent("Examples")
    let renderer = try MockupRenderer(fonts: try FontSet.standard(), templates: root.appendingPathComponent("Templates"))
    let project = try Project(folder: examples)
    let device = try require(try renderer.deviceProfiles(for: project).first { $0.id == "iphone-15" })
    var options = RenderOptions()
    options.devices = [device.id]
    options.appearances = [.light, .dark]
    options.layoutJSON = true
    options.outputFolder = work.appendingPathComponent("chrome-output")
    var count = 0
    // The whole-screen views and a thread's stack too: the Lock Screen's gradient and blur, the plates.
    var screens = options
    screens.extraViews = ["lockscreen", "notification-center"]
    let thread = ["crew-message", "crew-reef", "thread"].map { examples.appendingPathComponent("payloads/\($0).apns") }
    let runs: [(String, [MockupResult])] = chromePayloads.map { payload in
        (payload, renderer.render(payloadFile: examples.appendingPathComponent("payloads/\(payload).apns"), project: project,
                                  options: payload == "bilge-alarm" ? screens : options))
    } + [("thread", renderer.renderStack(members: thread, project: project, options: screens))]
    for (payload, results) in runs {
        for result in results {
            guard result.errors.isEmpty, let html = result.outputs.first(where: { $0.hasSuffix(".html") }),
                  let png = result.outputs.first(where: { $0.hasSuffix(".png") }), let layout = result.outputs.first(where: { $0.hasSuffix(".layout.json") }) else {
                throw FidelityError("\(payload): \(result.errors.joined(separator: "; "))")
            }
            let folder = work.appendingPathComponent("chrome-\(payload)-\(result.view)-\(result.appearance)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: URL(fileURLWithPath: html), to: folder.appendingPathComponent("page.html"))
            try FileManager.default.copyItem(at: URL(fileURLWithPath: png), to: folder.appendingPathComponent("ours.png"))
            let boxes = try JSONDecoder().decode([Box].self, from: Data(contentsOf: URL(fileURLWithPath: layout))).filter { $0.id != nil }
            try JSONEncoder().encode(boxes).write(to: folder.appendingPathComponent("ours.json"))
            let image = try PNGCodec.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: png))))
            try JSONEncoder().encode(["width": device.width, "height": Double(image.height) / Double(device.scale), "scale": Double(device.scale)])
                .write(to: folder.appendingPathComponent("size.json"))
            count += 1
        }
    }
    // Pages show their images from ../media/ (shared by an output folder): beside the cases.
    try? FileManager.default.removeItem(at: work.appendingPathComponent("media"))
    try FileManager.default.moveItem(at: options.outputFolder.appendingPathComponent("media"), to: work.appendingPathComponent("media"))
    try FileManager.default.removeItem(at: options.outputFolder)
    return count
}

struct FidelityError: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}

func require<T>(_ value: T?) throws -> T {
    guard let value else { throw FidelityError("iphone-15 is not a device profile") }
    return value
}

func compare() throws -> Int32 {
    var pixelShares: [Double] = []
    var geometryMisses = 0, missing = 0
    print("case                                 max Δbox (pt)   pixels >25% off")
    let cases = ((try? FileManager.default.contentsOfDirectory(atPath: work.path)) ?? []).filter {
        FileManager.default.fileExists(atPath: work.appendingPathComponent($0).appendingPathComponent("page.html").path)
    }.sorted()
    for stem in cases {
        let folder = work.appendingPathComponent(stem)
        guard let oursData = FileManager.default.contents(atPath: folder.appendingPathComponent("ours.json").path),
              let chromeData = FileManager.default.contents(atPath: folder.appendingPathComponent("chrome.json").path),
              let chromePNG = FileManager.default.contents(atPath: folder.appendingPathComponent("chrome.png").path) else {
            print("\(stem.padding(toLength: 36, withPad: " ", startingAt: 0)) not captured"); missing += 1; continue
        }
        let ours = try JSONDecoder().decode([Box].self, from: oursData), chrome = try JSONDecoder().decode([Box].self, from: chromeData)
        var worst = 0.0, worstId = ""
        for box in ours {
            guard let other = chrome.first(where: { $0.id == box.id }) else { worst = .infinity; worstId = box.id ?? "?"; continue }
            let d = [abs(box.x - other.x), abs(box.y - other.y), abs(box.width - other.width), abs(box.height - other.height)].max()!
            if d > worst { worst = d; worstId = box.id ?? "?" }
        }
        let a = try PNGCodec.decode([UInt8](try Data(contentsOf: folder.appendingPathComponent("ours.png")))), b = try PNGCodec.decode([UInt8](chromePNG))
        var differing = 0
        let w = min(a.width, b.width), h = min(a.height, b.height)
        for y in 0..<max(a.height, b.height) {
            for x in 0..<max(a.width, b.width) {
                guard x < w, y < h else { differing += 1; continue }
                let p = a.pixel(x: x, y: y), q = b.pixel(x: x, y: y)
                if max(abs(Int(p.r) - Int(q.r)), abs(Int(p.g) - Int(q.g)), abs(Int(p.b) - Int(q.b))) > 64 { differing += 1 }
            }
        }
        let share = Double(differing) / Double(max(a.width, b.width) * max(a.height, b.height))
        pixelShares.append(share)
        if worst > 0.5 { geometryMisses += 1 }
        let geometry = worst.isInfinite ? "missing #\(worstId)" : String(format: "%6.2f %@", worst, worst > 0.5 ? "#" + worstId : "")
        print("\(stem.padding(toLength: 36, withPad: " ", startingAt: 0)) \(geometry.padding(toLength: 16, withPad: " ", startingAt: 0)) \(String(format: "%6.2f%%", share * 100))")
    }
    let under1 = pixelShares.filter { $0 < 0.01 }.count, under3 = pixelShares.filter { $0 < 0.03 }.count
    let n = pixelShares.count
    print("\n\(n) cases: geometry within 0.5 pt on \(n - geometryMisses); pixels under 1% on \(under1) (\(n == 0 ? 0 : under1 * 100 / n)%), under 3% on \(under3)")
    let met = missing == 0 && geometryMisses == 0 && Double(under1) >= 0.9 * Double(n) && under3 == n
    print(met ? "targets met" : "targets NOT met (geometry ≤ 0.5 pt everywhere; < 1% pixels on 90%, < 3% on all)")
    return met ? 0 : 1
}

do {
    switch arguments[1] {
    case "prepare": try prepare(); exit(0)
    case "yoga-prepare": exit(try yogaPrepare())
    case "yoga-compare": exit(try yogaCompare())
    case "wpt-prepare": exit(try wptPrepare())
    case "wpt-compare": exit(try wptCompare())
    default: exit(try compare())
    }
} catch {
    print("pushpreview-fidelity: \(error)")
    exit(1)
}
