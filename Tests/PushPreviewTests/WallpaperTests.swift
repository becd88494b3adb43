import Foundation
import Imaging
import PushPreview
import Testing

/// `--wallpaper FILE` (issue 36): the team's picture behind the banner and the Lock Screen,
/// cropped to the device's screen as iOS crops it (scaled to fill, centred), the same in the page
/// as Chromium draws it and in the PNG; what is not a usable picture is said, naming the file.
struct WallpaperTests {
    /// A landscape picture, red on the left half and blue on the right: a portrait screen filled
    /// and centred shows both halves, split down its middle; anchored at the left it would be all red.
    func picture(_ folder: URL) throws -> URL {
        var pixels = [UInt8](repeating: 255, count: 1600 * 1200 * 4)
        for y in 0..<1200 {
            for x in 0..<1600 {
                let i = (y * 1600 + x) * 4
                (pixels[i], pixels[i + 1], pixels[i + 2]) = x < 800 ? (200, 40, 40) : (40, 60, 200)
            }
        }
        let url = folder.appendingPathComponent("wall.png")
        try Data(try PNGCodec.encode(RGBAImage(width: 1600, height: 1200, pixels: pixels))).write(to: url)
        return url
    }

    func render(_ project: URL, out: URL, wallpaper: String, _ extra: [String] = []) throws -> ProcessRun {
        try runProcess(pushpreviewBinary, ["render", project.appendingPathComponent("payloads/crew-message.apns").path, "--project", project.path,
                                           "--out", out.path, "--device", "iphone-15", "--view", "lockscreen", "--wallpaper", wallpaper] + extra)
    }

    @Test func thePictureIsCroppedAsIOSCropsItAndTheBrowserAgrees() throws {
        let project = try examplesCopy(payloads: ["crew-message.apns"])
        let root = project.deletingLastPathComponent(), out = root.appendingPathComponent("Out")
        let run = try render(project, out: out, wallpaper: try picture(root).path)
        #expect(run.status == 0, "\(run.stderr)")
        let lock = try PNGCodec.decode([UInt8](try Data(contentsOf: out.appendingPathComponent("crew-message/iphone-15-light-lockscreen.png"))))
        // Mid-screen, where nothing is drawn over the wallpaper: red left of the middle, blue right.
        let left = lock.pixel(x: lock.width / 4, y: lock.height / 2), right = lock.pixel(x: lock.width * 3 / 4, y: lock.height / 2)
        #expect(left.r > 150 && left.b < 90 && right.b > 150 && right.r < 90, "\(left) \(right)")
        let split = (0..<lock.width).first { lock.pixel(x: $0, y: lock.height / 2).b > 120 } ?? -1
        #expect(abs(split - lock.width / 2) <= 3, "the halves meet at x = \(split) of \(lock.width)")
        let page = try String(contentsOf: out.appendingPathComponent("crew-message/iphone-15-light-banner.html"), encoding: .utf8)
        // The page's style sheet names the copy written beside the pages, as its <img>s do.
        let src = try #require(page.firstMatch(of: /background-image: url\("(\.\.\/media\/[0-9a-f]+\.jpg)"\)/)?.output.1, "\(page)")
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("crew-message").appendingPathComponent(String(src)).standardizedFileURL.path), "\(src) was not written")

        try expectChromiumAgrees("wallpaper", views: ["crew-message/iphone-15-light-banner", "crew-message/iphone-15-light-lockscreen"],
                                 in: out, work: root.appendingPathComponent("fidelity"), width: 393)
    }

    /// `--backdrop app:FILE`: the banner comes down over the app (the picture cropped as the
    /// wallpaper), the Lock Screen keeps the wallpaper, and the page agrees in Chromium under iOS
    /// 26's glass; a bad value or file is refused naming it.
    @Test func theBannerComesDownOverTheApp() throws {
        let project = try examplesCopy(payloads: ["crew-message.apns"])
        let root = project.deletingLastPathComponent(), out = root.appendingPathComponent("Out")
        var green = [UInt8](repeating: 255, count: 300 * 600 * 4)
        for i in stride(from: 0, to: green.count, by: 4) { (green[i], green[i + 1], green[i + 2]) = (30, 170, 60) }
        let app = root.appendingPathComponent("app.png")
        try Data(try PNGCodec.encode(RGBAImage(width: 300, height: 600, pixels: green))).write(to: app)
        let run = try runProcess(pushpreviewBinary, ["render", project.appendingPathComponent("payloads/crew-message.apns").path, "--project", project.path,
                                                     "--out", out.path, "--device", "iphone-15", "--view", "lockscreen", "--backdrop", "app:" + app.path])
        #expect(run.status == 0, "\(run.stderr)")
        func png(_ view: String) throws -> RGBAImage {
            try PNGCodec.decode([UInt8](try Data(contentsOf: out.appendingPathComponent("crew-message/iphone-15-light-\(view).png"))))
        }
        let banner = try png("banner"), lock = try png("lockscreen")
        let corner = banner.pixel(x: 3, y: 3), lockMiddle = lock.pixel(x: lock.width / 2, y: lock.height / 2)
        #expect(corner.g > 140 && corner.r < 70 && corner.b < 90, "the app behind the banner: \(corner)")
        #expect(!(lockMiddle.g > 140 && lockMiddle.r < 70), "the Lock Screen keeps the wallpaper: \(lockMiddle)")
        try expectChromiumAgrees("app backdrop", views: ["crew-message/iphone-15-light-banner"], in: out, work: root.appendingPathComponent("fidelity"), width: 393)
        for (value, said) in [("app:" + root.appendingPathComponent("nowhere.png").path, "nowhere.png"), ("home", "wallpaper or app:FILE"), ("app:", "wallpaper or app:FILE")] {
            let bad = try runProcess(pushpreviewBinary, ["render", project.appendingPathComponent("payloads/crew-message.apns").path, "--project", project.path,
                                                         "--out", out.path, "--backdrop", value])
            #expect(bad.status != 0 && bad.stderr.contains("--backdrop") && bad.stderr.contains(said), "\(value): \(bad.stderr)")
        }
    }

    @Test func whatIsNotAUsablePictureIsSaid() throws {
        let project = try examplesCopy(payloads: ["crew-message.apns"])
        let root = project.deletingLastPathComponent(), out = root.appendingPathComponent("Out")
        let missing = try render(project, out: out, wallpaper: root.appendingPathComponent("nowhere.jpg").path)
        #expect(missing.status != 0 && missing.stderr.contains("--wallpaper") && missing.stderr.contains("nowhere.jpg"), "\(missing.stderr)")
        let text = root.appendingPathComponent("notes.txt")
        try Data("not a picture".utf8).write(to: text)
        let notImage = try render(project, out: out, wallpaper: text.path)
        #expect(notImage.status != 0 && notImage.stderr.contains("notes.txt") && notImage.stderr.contains("not an image"), "\(notImage.stderr)")
        // A picture whose header reads but whose data stops: said per mock-up, ours drawn instead.
        let whole = try Data(contentsOf: try picture(root))
        let cut = root.appendingPathComponent("cut.png")
        try whole.prefix(whole.count / 3).write(to: cut)
        let truncated = try render(project, out: out, wallpaper: cut.path, ["--json"])
        #expect(truncated.stdout.contains("cut.png: the wallpaper is not usable now") || truncated.stderr.contains("cut.png"), "\(truncated.status) \(truncated.stdout.prefix(400)) \(truncated.stderr)")
    }

    /// The project's `"wallpaper"` is read through the project's confinement: inside it, drawn; a
    /// path leading out, or a link out, is said and ours drawn.
    @Test func theProjectsWallpaperStaysInTheProject() throws {
        let project = try examplesCopy(payloads: ["crew-message.apns"])
        let root = project.deletingLastPathComponent()
        let picture = try picture(root)
        try FileManager.default.copyItem(at: picture, to: project.appendingPathComponent("wall.png"))
        try FileManager.default.createSymbolicLink(at: project.appendingPathComponent("link.png"), withDestinationURL: picture)
        let settings = project.appendingPathComponent("pushpreview.json")
        let original = try String(contentsOf: settings, encoding: .utf8)
        func lockScreen(_ wallpaper: String, _ name: String) throws -> (ProcessRun, RGBAImage?) {
            try original.replacingOccurrences(of: "{", with: "{\"wallpaper\": \"\(wallpaper)\", ", options: [], range: original.range(of: "{"))
                .write(to: settings, atomically: true, encoding: .utf8)
            let out = root.appendingPathComponent(name)
            let run = try runProcess(pushpreviewBinary, ["render", project.appendingPathComponent("payloads/crew-message.apns").path, "--project", project.path,
                                                         "--out", out.path, "--device", "iphone-15", "--view", "lockscreen", "--format", "png", "--json"])
            let png = try? PNGCodec.decode([UInt8](try Data(contentsOf: out.appendingPathComponent("crew-message/iphone-15-light-lockscreen.png"))))
            return (run, png)
        }
        let (inside, drawn) = try lockScreen("wall.png", "In")
        let lock = try #require(drawn, "\(inside.stderr)")
        let left = lock.pixel(x: lock.width / 4, y: lock.height / 2), right = lock.pixel(x: lock.width * 3 / 4, y: lock.height / 2)
        #expect(left.r > 150 && left.b < 90 && right.b > 150 && right.r < 90, "\(left) \(right)")
        for (path, said) in [("../wall.png", "lies outside the project"), ("link.png", "lies outside the project")] {
            let (run, png) = try lockScreen(path, "Out-" + path.replacingOccurrences(of: "/", with: "_"))
            #expect((run.stdout + run.stderr).contains(said), "\(path): \(run.stdout.prefix(600)) \(run.stderr)")
            let mid = try #require(png).pixel(x: lock.width / 4, y: lock.height / 2)
            #expect(!(mid.r > 150 && mid.b < 90), "\(path): the picture outside was drawn")
        }
    }
}
