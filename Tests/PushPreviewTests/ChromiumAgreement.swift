import Foundation
import Imaging
import Testing

/// Pages PushPreview wrote, drawn by real Chromium at the device's scale (scripts/chromium-capture.py)
/// and compared with our PNGs of them: the fidelity check's target (under 1% of pixels more than
/// 25% off) and a few levels on average over every pixel, text included. `views` are stems in
/// `folder` (PAYLOAD/STEM, each with its .html and .png); `media` the output's shared images.
/// `fontFolders`: more fonts Chromium finds (by name, as a person's installed fonts).
/// Records an issue and returns false when Chromium is not installed.
@discardableResult
func expectChromiumAgrees(_ label: String, views: [String], in folder: URL, work: URL, width: Double, scale: Int = 3, fontFolders: [URL] = []) throws -> Bool {
    guard FileManager.default.fileExists(atPath: "/usr/bin/chromium") else {
        Issue.record("Chromium is not installed (make deps installs it): the \(label) was not compared with a browser")
        return false
    }
    try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    try FileManager.default.copyItem(at: folder.appendingPathComponent("media"), to: work.appendingPathComponent("media"))
    func case_(_ view: String) -> URL { work.appendingPathComponent(view.replacingOccurrences(of: "/", with: "-")) }
    for view in views {
        try FileManager.default.createDirectory(at: case_(view), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: folder.appendingPathComponent(view + ".html"), to: case_(view).appendingPathComponent("page.html"))
        let png = try PNGCodec.decode([UInt8](try Data(contentsOf: folder.appendingPathComponent(view + ".png"))))
        try JSONEncoder().encode(["width": width, "height": Double(png.height) / Double(scale), "scale": Double(scale)]).write(to: case_(view).appendingPathComponent("size.json"))
    }
    var environment: [String: String]?
    if !fontFolders.isEmpty {
        let config = work.appendingPathComponent("fonts.conf")
        try Data(("<?xml version=\"1.0\"?><!DOCTYPE fontconfig SYSTEM \"fonts.dtd\"><fontconfig><include>/etc/fonts/fonts.conf</include>"
                  + fontFolders.map { "<dir>\($0.path)</dir>" }.joined() + "</fontconfig>").utf8).write(to: config)
        environment = ProcessInfo.processInfo.environment.merging(["FONTCONFIG_FILE": config.path]) { $1 }
    }
    let capture = try runProcess(URL(fileURLWithPath: "/usr/bin/python3"), [repositoryRoot.appendingPathComponent("scripts/chromium-capture.py").path, work.path], environment: environment)
    #expect(capture.status == 0, "\(capture.stderr)")
    for view in views {
        let ours = try PNGCodec.decode([UInt8](try Data(contentsOf: folder.appendingPathComponent(view + ".png"))))
        let chrome = try PNGCodec.decode([UInt8](try Data(contentsOf: case_(view).appendingPathComponent("chrome.png"))))
        #expect((ours.width, ours.height) == (chrome.width, chrome.height), "\(view)")
        var off = 0, total = 0, sum = 0
        for y in 0..<min(ours.height, chrome.height) {
            for x in 0..<min(ours.width, chrome.width) {
                let p = ours.pixel(x: x, y: y), q = chrome.pixel(x: x, y: y)
                let d = max(abs(Int(p.r) - Int(q.r)), abs(Int(p.g) - Int(q.g)), abs(Int(p.b) - Int(q.b)))
                if d > 64 { off += 1 }
                sum += d
                total += 1
            }
        }
        let share = Double(off) / Double(max(total, 1)), mean = Double(sum) / Double(max(total, 1))
        print("\(label) \(view): \(String(format: "%.3f", share * 100))% of pixels > 25% off, mean difference \(String(format: "%.2f", mean)) levels")
        #expect(share < 0.01 && mean < 4, "\(view): \(share * 100)% off, mean \(mean)")
    }
    return true
}
