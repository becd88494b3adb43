import Foundation
import Imaging
import Testing
import PushPreview

/// `pushpreview diff`: a template colour and a string change exactly the mock-ups they feed; a
/// pure re-render changes none.
struct DiffTests {
    @Test func reportsExactlyTheAffectedMockups() throws {
        let project = try examplesCopy(payloads: ["localized-boarding.apns", "localized-messages.apns", "image-jpeg.apns", "crew-message.apns"])
        let root = project.deletingLastPathComponent()
        func gallery(_ out: String) throws {
            let r = try runProcess(pushpreviewBinary, ["gallery", project.path, "--out", root.appendingPathComponent(out).path, "--device", "iphone-17", "--locale", "en"])
            #expect(r.status == 0, "\(r.stderr)")
        }
        try gallery("base")
        try gallery("again")
        let same = try runProcess(pushpreviewBinary, ["diff", root.appendingPathComponent("base").path, root.appendingPathComponent("again").path,
                                                      "--out", root.appendingPathComponent("diff-same").path])
        #expect(same.status == 0 && same.stdout.isEmpty, "a pure re-render changes nothing: \(same.stdout)")

        // The boarding pass's colour (its custom view: the expanded views only) and the inbox title
        // string (every view of localized-messages).
        let template = project.appendingPathComponent("Templates/boarding-pass.html")
        try Data(try String(contentsOf: template, encoding: .utf8).replacingOccurrences(of: "#1fb5a8", with: "#e76f51").utf8).write(to: template)
        let strings = project.appendingPathComponent("Localizable.xcstrings")
        try Data(try String(contentsOf: strings, encoding: .utf8).replacingOccurrences(of: "\"Harbor inbox\"", with: "\"Harbour messages\"").utf8).write(to: strings)
        try gallery("new")
        let out = root.appendingPathComponent("diff"), md = root.appendingPathComponent("comment.md")
        let r = try runProcess(pushpreviewBinary, ["diff", root.appendingPathComponent("base").path, root.appendingPathComponent("new").path, "--out", out.path,
                                                   "--markdown", md.path, "--image-base-url", "https://ci.example.com/run/7/diff"])
        #expect(r.status == 1, "a change exits 1 for CI")
        let changed = Set(r.stdout.split(separator: "\n").map(String.init))
        let expected: Set<String> = ["changed\tlocalized-boarding/iphone-17-light-en-expanded", "changed\tlocalized-boarding/iphone-17-dark-en-expanded",
                                     "changed\tlocalized-messages/iphone-17-light-en-expanded", "changed\tlocalized-messages/iphone-17-dark-en-expanded",
                                     "changed\tlocalized-messages/iphone-17-light-en-banner", "changed\tlocalized-messages/iphone-17-dark-en-banner"]
        #expect(changed == expected, "\(changed.symmetricDifference(expected))")
        for name in ["localized-boarding/iphone-17-light-en-expanded-before.png", "localized-boarding/iphone-17-light-en-expanded-after.png",
                     "localized-boarding/iphone-17-light-en-expanded-diff.png", "index.html", "diff.json"] {
            #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent(name).path), "\(name)")
        }
        // The difference image marks the card's new colour in red.
        let diff = try PNGCodec.decode(sha(out.appendingPathComponent("localized-boarding/iphone-17-light-en-expanded-diff.png")))
        var red = 0
        for y in stride(from: 0, to: diff.height, by: 3) { for x in stride(from: 0, to: diff.width, by: 3) { let p = diff.pixel(x: x, y: y); if p.r == 255 && p.g == 0 { red += 1 } } }
        #expect(red > 1000)
        // The comment: one row per payload's view, light and dark folded into it, one of them shown.
        let comment = try String(contentsOf: md, encoding: .utf8)
        #expect(comment.contains("6 changed, 0 added, 0 removed"), "\(comment)")
        #expect(comment.contains("#### `payloads/localized-messages.apns` — `Localizable.xcstrings`"), "the payload, and the input that changed for it")
        #expect(comment.contains("#### `payloads/localized-boarding.apns` — `Localizable.xcstrings`, `Templates/boarding-pass.html`"), "\(comment)")
        let rows = comment.split(separator: "\n").filter { $0.hasPrefix("| banner |") || $0.hasPrefix("| expanded |") }
        #expect(rows.count == 3 && rows.allSatisfy { $0.contains("| 2 of 2: iphone-17 × light, dark × en |") }, "\(rows)")
        #expect(comment.contains("<img src=\"https://ci.example.com/run/7/diff/localized-boarding/iphone-17-"), "\(comment)")
        #expect(comment.contains("[the full diff](https://ci.example.com/run/7/diff/index.html)"))

        // Without an image URL: no <img> at all, each picture named in the diff folder instead.
        let bare = root.appendingPathComponent("bare.md")
        let unpublished = try runProcess(pushpreviewBinary, ["diff", root.appendingPathComponent("base").path, root.appendingPathComponent("new").path, "--out", out.path, "--markdown", bare.path])
        #expect(unpublished.status == 1)
        let plain = try String(contentsOf: bare, encoding: .utf8)
        #expect(!plain.contains("<img") && plain.contains("-compare.png`") && plain.contains("`index.html` in the diff folder (`diff`)"), "\(plain)")
    }

    @Test func addedRemovedAndTheThreshold() throws {
        let root = temporaryFolder()
        let base = root.appendingPathComponent("base"), new = root.appendingPathComponent("new")
        func png(_ folder: URL, _ name: String, _ colour: (UInt8, UInt8, UInt8)) throws {
            try FileManager.default.createDirectory(at: folder.appendingPathComponent("p"), withIntermediateDirectories: true)
            let image = RGBAImage(width: 20, height: 10, filledWith: (colour.0, colour.1, colour.2, 255))
            try Data(try PNGCodec.encode(image)).write(to: folder.appendingPathComponent("p/\(name).png"))
        }
        try png(base, "gone", (0, 0, 0)); try png(new, "fresh", (0, 0, 0))
        try png(base, "nudged", (100, 100, 100)); try png(new, "nudged", (102, 101, 100))   // anti-aliasing-sized
        try png(base, "recoloured", (100, 100, 100)); try png(new, "recoloured", (200, 40, 40))
        let r = try runProcess(pushpreviewBinary, ["diff", base.path, new.path, "--out", root.appendingPathComponent("d").path])
        #expect(Set(r.stdout.split(separator: "\n").map(String.init)) == ["added\tp/fresh", "removed\tp/gone", "changed\tp/recoloured"], "\(r.stdout)")
        let strict = try runProcess(pushpreviewBinary, ["diff", base.path, new.path, "--out", root.appendingPathComponent("d2").path, "--threshold", "0"])
        #expect(strict.stdout.contains("changed\tp/nudged"))
        #expect(try runProcess(pushpreviewBinary, ["diff", base.path, root.appendingPathComponent("missing").path]).status == 2)

        // A truncated PNG is one changed mock-up with a warning naming it; the others still compare.
        try png(base, "cut", (0, 0, 0)); try png(new, "cut", (0, 0, 0))
        let cut = new.appendingPathComponent("p/cut.png")
        try Data(try Data(contentsOf: cut).prefix(40)).write(to: cut)
        let broken = try runProcess(pushpreviewBinary, ["diff", base.path, new.path, "--out", root.appendingPathComponent("d3").path])
        #expect(broken.status == 1 && broken.stdout.contains("changed\tp/cut") && broken.stdout.contains("changed\tp/recoloured"), "\(broken.stdout)")
        #expect(broken.stderr.contains("p/cut.png: not a readable PNG"), "\(broken.stderr)")
    }
}
