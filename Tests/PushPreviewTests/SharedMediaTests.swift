import Foundation
import Imaging
import Testing
import PushPreview

/// Shared files are written once per output folder: a real project's 3 MB app icon used to be
/// copied beside every payload's pages (23 MB for five payloads).
struct SharedMediaTests {
    @Test func aLargeIconIsStoredOnceAtTheSizeDrawn() throws {
        let project = try examplesCopy(payloads: ["body-only.apns", "emoji.apns", "plain-alert.apns", "crew-message.apns", "image-jpeg.apns"])
        // 1024 px of noise: about 3 MB as a PNG, as an unoptimised marketing icon is.
        var generator = SystemRandomNumberGenerator()
        let pixels = (0..<(1024 * 1024 * 4)).map { i in i % 4 == 3 ? UInt8(255) : UInt8.random(in: 0...255, using: &generator) }
        let icon = try PNGCodec.encode(RGBAImage(width: 1024, height: 1024, pixels: pixels), compressionLevel: 9)
        #expect(icon.count > 2_500_000)
        try Data(icon).write(to: project.appendingPathComponent("media/AppIcon.png"))
        let settings = project.appendingPathComponent("pushpreview.json")
        var json = try JSONSerialization.jsonObject(with: Data(contentsOf: settings)) as! [String: Any]
        json["appIcon"] = "media/AppIcon.png"
        try JSONSerialization.data(withJSONObject: json).write(to: settings)

        let out = project.deletingLastPathComponent().appendingPathComponent("Output")
        let r = try runProcess(pushpreviewBinary, ["gallery", project.path, "--out", out.path, "--device", "iphone-17", "--appearance", "light,dark", "--locale", "en"])
        #expect(r.status == 0, "\(r.stderr)")
        var total = 0
        for (path, bytes) in tree(out) {
            total += bytes.count
            #expect(bytes != icon, "\(path) is a copy of the 3 MB icon")
        }
        #expect(total < 6_000_000, "\(total) bytes of output")
        // Every page's icon is the same one file, 38 pt at @3x.
        var icons: Set<String> = []
        for page in tree(out).keys where page.hasSuffix(".html") && page != "/index.html" {
            let html = try String(contentsOf: out.appendingPathComponent(page), encoding: .utf8)
            guard let tag = html.components(separatedBy: "<img").first(where: { $0.contains("id=\"app-icon\"") }),
                  let src = tag.components(separatedBy: "src=\"").dropFirst().first?.prefix(while: { $0 != "\"" }) else { continue }
            icons.insert(out.appendingPathComponent(page).deletingLastPathComponent().appendingPathComponent(String(src)).standardizedFileURL.path)
        }
        #expect(icons.count == 1, "\(icons)")
        if let file = icons.first { #expect(try PNGCodec.size([UInt8](Data(contentsOf: URL(fileURLWithPath: file)))) == (114, 114)) }
        // Every page still opens from disk with its images beside it.
        let pages = tree(out).keys.filter { $0.hasSuffix(".html") && $0 != "/index.html" }
        #expect(pages.count >= 10)
        for page in pages {
            let html = try String(contentsOf: out.appendingPathComponent(page), encoding: .utf8)
            for src in html.components(separatedBy: "src=\"").dropFirst().map({ String($0.prefix { $0 != "\"" }) }) where !src.hasPrefix("data:") {
                let file = out.appendingPathComponent(page).deletingLastPathComponent().appendingPathComponent(src).standardizedFileURL
                #expect(FileManager.default.fileExists(atPath: file.path), "\(page): \(src)")
            }
        }
    }
}
