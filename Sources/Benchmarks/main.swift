import Foundation
import Imaging
import Layout
import PushPreview
import Rendering
import Styling
import Templating
import Typography

// `make bench`: prints numbers, asserts nothing. Peak memory is measured in a child process
// per case, so one case's allocations never count against another's.

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

let arguments = CommandLine.arguments
if arguments.count == 3 && arguments[1] == "thumbnail-child" {
    // Child: thumbnail one file to 120x120 and report time and peak RSS.
    let before = peakRSSMegabytes()
    let data = try ImageFile.read(arguments[2])
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

print("PushPreview benchmarks (release build, \(ProcessInfo.processInfo.activeProcessorCount) cores)\n")

// 1. Warm mock-ups at @3x, in-process.
let project = try Project(folder: root.appendingPathComponent("Examples"))
let renderer = try MockupRenderer(fonts: try FontSet.standard(), templates: root.appendingPathComponent("Templates"))
for name in ["plain-alert", "image-jpeg"] {
    let file = root.appendingPathComponent("Examples/payloads/\(name).apns")
    var options = RenderOptions()
    options.outputFolder = scratch
    options.formats = ["png"]
    for _ in 0..<3 { _ = renderer.render(payloadFile: file, project: project, options: options) } // warm up
    let runs = 20
    let total = seconds { for _ in 0..<runs { _ = renderer.render(payloadFile: file, project: project, options: options) } }
    // The PNG encoding share: encode the same mock-up's pixels alone.
    let png = try PNGCodec.decode([UInt8](Data(contentsOf: scratch.appendingPathComponent("\(name)/iphone-15-light-expanded.png"))))
    let encode = try seconds { for _ in 0..<runs { _ = try PNGCodec.encode(png, scale: 3, compressionLevel: options.pngCompressionLevel, filters: options.pngFilters) } }
    print(String(format: "mock-up %-12@ @3x %dx%d: %.1f ms warm, of which PNG encoding %.1f ms (%.0f%%)",
                 name, png.width, png.height, total / Double(runs) * 1000, encode / Double(runs) * 1000, encode / total * 100))
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
    let encode = try seconds { for _ in 0..<runs { _ = try PNGCodec.encode(image, scale: 3, compressionLevel: 3, filters: 0x08) } }
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
print("\ntargets (issue 2): warm @3x mock-up < 20 ms; 6000x4000 baseline thumbnail < 45 MB peak RSS")
