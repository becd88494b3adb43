import ConfinedFiles
import ContentStage
import Foundation
import Imaging
import Layout
import PushPreview
import Rendering
import Styling
import Templating
import Typography

// `make bench`: prints numbers, asserts nothing (`pushpreview-bench memory`: the PSS cases
// alone). Peak memory is measured in a child process per case, so one case's allocations never
// count against another's.

/// VmHWM: this address space's peak. (getrusage's ru_maxrss survives exec, so a spawned child
/// would report its parent's peak.)
func peakRSSMegabytes() -> Double {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
    return (Double(line.split(separator: " ").dropFirst().first ?? "") ?? 0) / 1024
}

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

/// Times the mock-up PNG writer on an image, `runs` times, from the B, G, R, A rows cairo holds.
func secondsToWriteMockup(_ image: RGBAImage, runs: Int) throws -> Double {
    var bgra = image.pixels
    for i in stride(from: 0, to: bgra.count, by: 4) { bgra.swapAt(i, i + 2) }
    return try seconds { for _ in 0..<runs { _ = try PNGCodec.encodeOpaqueBGRA(bgra, width: image.width, height: image.height, stride: image.width * 4, scale: 3) } }
}

let arguments = CommandLine.arguments
if arguments.count == 3 && arguments[1] == "thumbnail-child" {
    // Child: thumbnail one file to 120x120 and report time and peak RSS.
    let before = peakRSSMegabytes()
    let data = try ImageFile.read(try TrustedFiles.open(URL(fileURLWithPath: arguments[2])))
    var thumb: RGBAImage?
    let t = try seconds { thumb = try Thumbnailer.thumbnail(data, width: 120, height: 120) }
    print(String(format: "%.1f ms  %.1f MB peak RSS (process before reading the file: %.1f MB)  (%dx%d)",
                 t * 1000, peakRSSMegabytes(), before, thumb!.width, thumb!.height))
    exit(0)
}

let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardizedFileURL
let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("pushpreview-bench-\(getpid())")
try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: scratch) }

let binary = URL(fileURLWithPath: arguments[0]).deletingLastPathComponent().appendingPathComponent("pushpreview")
// `pushpreview-bench memory [PUSHPREVIEW]`: the memory cases alone, of another build if given.
if arguments.count >= 2 && arguments[1] == "memory" {
    try memoryBenchmark(root: root, scratch: scratch, binary: arguments.count > 2 ? URL(fileURLWithPath: arguments[2]) : binary)
    try? FileManager.default.removeItem(at: scratch)
    exit(0)
}

print("PushPreview benchmarks (release build, \(ProcessInfo.processInfo.activeProcessorCount) cores)\n")

// 1. Warm mock-ups at @3x, in-process.
let project = try Project(folder: root.appendingPathComponent("Examples"))
let renderer = try MockupRenderer(fonts: try FontSet.standard(), templates: root.appendingPathComponent("Templates"))
// Each iOS look apart: iOS 26's glass blurs the wallpaper behind every platter, iOS 18 draws
// none, so the difference is what the glass costs.
for ios in IOSVersion.allCases {
    for name in ["plain-alert", "image-jpeg"] {
        let file = root.appendingPathComponent("Examples/payloads/\(name).apns")
        var options = RenderOptions()
        options.outputFolder = scratch
        options.formats = ["png"]
        options.devices = ["iphone-15"] // the device every earlier bench ran on (the default is now iPhone 17)
        options.axes.iosVersions = [ios]
        var views = 0
        for _ in 0..<3 { views = renderer.render(payloadFile: file, project: project, options: options).count } // warm up
        let runs = 20
        let total = seconds { for _ in 0..<runs { _ = renderer.render(payloadFile: file, project: project, options: options) } }
        // The PNG encoding share: encode the expanded view's pixels alone.
        let png = try PNGCodec.decode([UInt8](Data(contentsOf: scratch.appendingPathComponent("\(name)/iphone-15-light-expanded.png"))))
        let encode = try secondsToWriteMockup(png, runs: runs)
        let perView = total / Double(runs * views)
        print(String(format: "payload %-12@ iOS %@ @3x, %d views (expanded %dx%d, banner): %.1f ms warm, %.1f ms per view; PNG encoding of the expanded view %.1f ms",
                     name, ios.rawValue, views, png.width, png.height, total / Double(runs) * 1000, perView * 1000, encode / Double(runs) * 1000))
    }
}

// 2. A template with 20 boxes and 300 words at @3x, warm: layout, paint and PNG encoding apart.
do {
    let words = (0..<300).map { ["harbour", "ferry", "crossing", "pier", "tide", "boarding", "westhaven", "knots", "mooring", "sunset"][$0 % 10] }
    var html = "<style>.b { display: flex; gap: 6px; padding: 6px; margin: 2px 8px; border-radius: 8px; background: #f1faee; font-size: 13px; line-height: 17px } .b > div { flex: 1 }</style>"
    for i in 0..<20 { html += "<div class=\"b\" id=\"b\(i)\"><div>\(words[(i * 15)..<(i * 15 + 15)].joined(separator: " "))</div></div>" }
    let document = try HTMLParser.parse(html, file: "bench.html")
    let sheets = document.styleSheets.map { Stylesheet($0.text, file: "bench.html") }
    let (styled, _) = StyleResolver(sheets: sheets, appearance: .light).resolve(document.body, file: "bench.html")
    let fonts = try FontSystem(fonts: try FontSet.standard())
    let engine = LayoutEngine(fonts: fonts) { _ in nil }
    let painter = PNGPainter(fonts: fonts, images: ImageStore(), scale: 3)
    var scene = engine.layout(styled, width: 393)
    var image = painter.paint(scene, background: .white).image
    let runs = 20
    let layout = seconds { for _ in 0..<runs { scene = engine.layout(styled, width: 393) } }
    let paint = seconds { for _ in 0..<runs { image = painter.paint(scene, background: .white).image } }
    let encode = try secondsToWriteMockup(image, runs: runs)
    print(String(format: "\ntemplate, 20 boxes and 300 words @3x (%dx%d), warm: layout %.1f ms, paint %.1f ms, PNG encoding %.1f ms",
                 image.width, image.height, layout / Double(runs) * 1000, paint / Double(runs) * 1000, encode / Double(runs) * 1000))
}

// 3. Thumbnails of 6000x4000 photos, baseline and progressive, each in a fresh process.
print("")
var photo = [UInt8](repeating: 0, count: 6000 * 4000 * 4)
var seed: UInt32 = 12345
for y in 0..<4000 {
    for x in 0..<6000 {
        seed = seed &* 1_664_525 &+ 1_013_904_223
        let i = (y * 6000 + x) * 4, n = UInt8(truncatingIfNeeded: seed >> 24) / 8
        photo[i] = UInt8(x * 255 / 6000) &+ n; photo[i + 1] = UInt8(y * 255 / 4000) &+ n; photo[i + 2] = 128 &+ n; photo[i + 3] = 255
    }
}
let image = RGBAImage(width: 6000, height: 4000, pixels: photo)
photo = []
for progressive in [false, true] {
    var options = JPEGCodec.Options()
    options.progressive = progressive
    let file = scratch.appendingPathComponent(progressive ? "progressive.jpg" : "baseline.jpg")
    let bytes = try JPEGCodec.encode(image, options: options)
    try Data(bytes).write(to: file)
    let child = Process()
    child.executableURL = URL(fileURLWithPath: arguments[0])
    child.arguments = ["thumbnail-child", file.path]
    let pipe = Pipe()
    child.standardOutput = pipe
    try child.run()
    child.waitUntilExit()
    let line = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    print("thumbnail 6000x4000 \(progressive ? "progressive" : "baseline   ") JPEG (\(bytes.count / 1_000_000) MB) → 120x120: \(line)")
}
print("\ntargets (issue 2): warm @3x mock-up (one view) < 20 ms; 6000x4000 baseline thumbnail < 45 MB peak RSS")

// 4. A generated project through `pushpreview gallery`: 250 payloads × 2 devices × 2 appearances
// (iPhone 15 and iPhone 15 Pro Max, both @3x), HTML + PNG, a few large JPEGs shared between
// payloads; jobs 1 and 2; peak RSS at two sizes; and headless Chromium screenshotting 20 of the
// pages we emit.
print("")
func makeProject(payloads: Int) throws -> URL {
    let folder = scratch.appendingPathComponent("project-\(payloads)")
    let fm = FileManager.default
    let examples = root.appendingPathComponent("Examples")
    try fm.createDirectory(at: folder.appendingPathComponent("payloads"), withIntermediateDirectories: true)
    try fm.createDirectory(at: folder.appendingPathComponent("media"), withIntermediateDirectories: true)
    for item in ["Info.plist", "Extensions", "categories.json", "Templates"] {
        try fm.copyItem(at: examples.appendingPathComponent(item), to: folder.appendingPathComponent(item))
    }
    try fm.copyItem(at: examples.appendingPathComponent("media/AppIcon.png"), to: folder.appendingPathComponent("media/AppIcon.png"))
    try Data(#"{"appName": "Harbor", "appIcon": "media/AppIcon.png"}"#.utf8).write(to: folder.appendingPathComponent("pushpreview.json"))
    // Three 3000x2000 photos, shared by many payloads.
    for k in 0..<3 {
        var px = [UInt8](repeating: 255, count: 3000 * 2000 * 4)
        for y in 0..<2000 { for x in 0..<3000 {
            let i = (y * 3000 + x) * 4
            px[i] = UInt8((x / 12 + k * 60) & 255); px[i + 1] = UInt8((y / 8) & 255); px[i + 2] = UInt8(((x + y) / 20 + k * 90) & 255)
        } }
        try Data(try JPEGCodec.encode(RGBAImage(width: 3000, height: 2000, pixels: px), options: JPEGCodec.Options())).write(to: folder.appendingPathComponent("media/photo\(k).jpg"))
    }
    let kinds: [(String, String)] = [
        ("", ""), ("photo", #", "image-url": "media/photo{{k}}.jpg", "caption": "Photo {{i}}""#), ("message", #", "sender": {"name": "Marta"}"#),
        ("reservation", #", "restaurant": "The Lobster Pot", "time": "19:30", "date": "Saturday", "party": 4, "status": "confirmed""#),
        ("boarding", ""), ("harbor-master", ""), ("", #", "image-url": "media/photo{{k}}.jpg""#),
    ]
    for i in 0..<payloads {
        let (category, extra) = kinds[i % kinds.count]
        let aps = category.isEmpty ? #""mutable-content": 1"# : #""mutable-content": 1, "category": "\#(category)""#
        let json = #"{"aps": {"alert": {"title": "Notification \#(i)", "body": "Body text number \#(i): the ferry to Westhaven leaves from pier \#(i % 7) in \#(i % 50) minutes."}, \#(aps)}\#(extra)}"#
            .replacingOccurrences(of: "{{k}}", with: "\(i % 3)").replacingOccurrences(of: "{{i}}", with: "\(i)")
        try Data(json.utf8).write(to: folder.appendingPathComponent(String(format: "payloads/p%04d.apns", i)))
    }
    return folder
}
func gallery(_ project: URL, jobs: Int) throws -> (wall: Double, line: String) {
    let out = scratch.appendingPathComponent("out-\(project.lastPathComponent)-\(jobs)")
    try? FileManager.default.removeItem(at: out)
    let child = Process()
    child.executableURL = binary
    child.arguments = ["gallery", project.path, "--out", out.path, "--device", "iphone-15,iphone-15-pro-max", "--appearance", "light,dark", "--jobs", "\(jobs)", "--stats"]
    let pipe = Pipe()
    child.standardOutput = pipe
    child.standardError = FileHandle.nullDevice
    var wall = 0.0
    try wall = seconds { try child.run(); child.waitUntilExit() }
    let line = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    return (wall, line)
}
if FileManager.default.isExecutableFile(atPath: binary.path) {
    let small = try makeProject(payloads: 125), large = try makeProject(payloads: 250)
    let one = try gallery(large, jobs: 1), two = try gallery(large, jobs: 2), half = try gallery(small, jobs: 2)
    func peak(_ line: String) -> String { line.components(separatedBy: "peak PSS ").last?.components(separatedBy: " (").first ?? "?" }
    func count(_ line: String, _ label: String) -> Double {
        Double(line.components(separatedBy: " \(label)").first?.split(separator: " ").last ?? "") ?? 0
    }
    let views = count(one.line, "PNG mock-ups") / 1000
    print("gallery, 250 payloads × 2 devices × 2 appearances = 1,000 mock-ups at @3x, each an HTML page and PNG per view (expanded, banner, and reply or review views where they apply; \(String(format: "%.2f", views)) views a mock-up):")
    print(String(format: "  --jobs 1: %.1f s, %.0f mock-ups/s   %@", one.wall, 1000 / one.wall, one.line))
    print(String(format: "  --jobs 2: %.1f s, %.0f mock-ups/s   %@", two.wall, 1000 / two.wall, two.line))
    print(String(format: "  speed-up of --jobs 2 over --jobs 1: %.2f×", one.wall / two.wall))
    print("  peak PSS with --jobs 2: \(peak(half.line)) at 125 payloads, \(peak(two.line)) at 250")
    // Chromium on the first 20 pages we wrote for iPhone 15, light (all views of the first
    // mock-ups, so the mix of views is ours), per page, startup excluded. A mock-up costs it one
    // page per view.
    let folder = scratch.appendingPathComponent("out-project-250-2")
    let pages = (0..<250).flatMap { i -> [String] in
        let dir = folder.appendingPathComponent(String(format: "p%04d", i))
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        return names.filter { $0.hasPrefix("iphone-15-light-") && $0.hasSuffix(".html") }.sorted().map { dir.appendingPathComponent($0).path }
    }.prefix(20)
    let chrome = Process()
    chrome.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    chrome.arguments = [root.appendingPathComponent("scripts/chromium-time.py").path, "393", "3"] + Array(pages)
    let chromeOut = Pipe()
    chrome.standardOutput = chromeOut
    chrome.standardError = FileHandle.nullDevice
    if (try? chrome.run()) != nil {
        chrome.waitUntilExit()
        let perPage = Double(String(decoding: chromeOut.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        let ours = one.wall / 1000
        print(String(format: "  headless Chromium, 20 of these pages screenshotted: %.0f ms per page, so %.0f ms per mock-up (%.2f views); ours %.1f ms per mock-up on one core: %.0f× faster",
                     perPage * 1000, perPage * views * 1000, views, ours * 1000, perPage * views / ours))
    }
    print("targets (issue 6): ≥ 60 mock-ups/s with both cores, speed-up ≥ 1.7×, peak RSS < 200 MB and flat, ≥ 20× faster than Chromium")
    print("")
    try memoryBenchmark(root: root, scratch: scratch, binary: binary)
} else {
    print("gallery benchmark skipped: build .build/release/pushpreview first (make bench does)")
}
