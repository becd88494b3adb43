import ConfinedFiles
import Foundation
import Imaging
import PushPreview
import Testing
import Typography

/// `pushpreview gallery` as users run it: the page in a real Chromium, byte-identical reruns,
/// shards that merge into the same gallery, incremental reruns, and a run killed half-way.
struct GalleryTests {
    static let some = ["image-jpeg.apns", "crew-message.apns", "harbor-master.apns", "photo-tall.apns", "voice-note.apns", "emoji.apns"]

    func gallery(_ project: URL, _ out: URL, _ extra: [String] = []) throws -> ProcessRun {
        try runProcess(pushpreviewBinary, ["gallery", project.path, "--out", out.path, "--device", "iphone-17"] + extra)
    }

    @Test func galleryWorksInChromium() throws {
        let project = try examplesCopy(payloads: Self.some)
        try Data(#"{"aps": {"alert": "#.utf8).write(to: project.appendingPathComponent("payloads/truncated.apns"))
        let out = project.deletingLastPathComponent().appendingPathComponent("Output")
        let r = try gallery(project, out, ["--jobs", "2"])
        #expect(r.status == 1, "a failed input makes the status 1: \(r.stderr)")
        let report = try GalleryReport.read(in: ConfinedFolder(trusted: out, links: .refused))
        #expect(report.inputs.map(\.payload) == (Self.some + ["truncated.apns"]).sorted().map { "payloads/\($0)" })
        let failed = try #require(report.inputs.first { $0.payload == "payloads/truncated.apns" })
        #expect(failed.outcome == "failed" && failed.mockups.first?.errors.first.map { $0.contains("truncated.apns") && $0.contains("1:19") } == true)
        // Expanded and banner for each, reply for the two text-input categories, and the review
        // views: hidden previews (crew-message), the clipped view whole (photo-tall), playing (voice-note).
        #expect(report.summary.failed == 1 && report.summary.mockups == 34)
        let views = Set(report.inputs.flatMap(\.mockups).map { "\($0.payload.dropFirst(9)) \($0.view)" })
        #expect(views.isSuperset(of: ["crew-message.apns banner-hidden", "crew-message.apns reply", "photo-tall.apns expanded-limits", "voice-note.apns expanded-playing"]))
        let html = try String(contentsOf: out.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(html.contains("Content-Security-Policy") && !html.contains("http://") && !html.contains("https://"))
        for file in report.inputs.flatMap(\.mockups).flatMap(\.outputs) {
            #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent(file).path), "\(file)")
        }
        guard FileManager.default.fileExists(atPath: "/usr/bin/chromium") else {
            Issue.record("Chromium is not installed (make deps installs it): the gallery was not checked in a browser")
            return
        }
        let check = try runProcess(URL(fileURLWithPath: "/usr/bin/python3"), [repositoryRoot.appendingPathComponent("Tests/Support/gallery-check.py").path, out.path, "truncated.apns"])
        #expect(check.status == 0, "\(check.stdout) \(check.stderr)")
    }

    /// Issue 40: at 1,000 payloads the page was 322k elements and its filters worked after 16.9 s.
    /// Cards past the first of each category wait in an inert template and are placed as the
    /// reader scrolls; the filters count them all. A gallery of 200 payloads (400 cards, one
    /// payload drawn and listed under 200 names, the page written again by --merge).
    @Test func aLargeGalleryPlacesItsCardsLazily() throws {
        let project = try examplesCopy(payloads: ["plain-alert.apns"])
        let out = project.deletingLastPathComponent().appendingPathComponent("Output")
        let r = try gallery(project, out, ["--appearance", "light,dark", "--locale", "en"])
        #expect(r.status == 0, "\(r.stderr)")
        let file = out.appendingPathComponent("report.json")
        var report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        let input = try #require((report["inputs"] as? [[String: Any]])?.first)
        report["inputs"] = (0..<200).map { n -> [String: Any] in
            var copy = input
            copy["payload"] = String(format: "payloads/copy-%03d.apns", n)
            copy["mockups"] = (input["mockups"] as? [[String: Any]] ?? []).map { var m = $0; m["payload"] = copy["payload"]; return m }
            return copy
        }
        try JSONSerialization.data(withJSONObject: report).write(to: file)
        let merged = try runProcess(pushpreviewBinary, ["gallery", "--merge", out.path, "--out", out.path])
        #expect(merged.status == 0, "\(merged.stderr)")
        let html = try String(contentsOf: out.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(html.components(separatedBy: "<template class=\"cards\">").count == 2, "one category, one template")
        guard FileManager.default.fileExists(atPath: "/usr/bin/chromium") else {
            Issue.record("Chromium is not installed (make deps installs it): the lazy gallery was not checked in a browser")
            return
        }
        let check = try runProcess(URL(fileURLWithPath: "/usr/bin/python3"), [repositoryRoot.appendingPathComponent("Tests/Support/lazy-gallery-check.py").path, out.path, "400"])
        #expect(check.status == 0, "\(check.stdout) \(check.stderr)")
    }

    /// Same inputs, same bytes: two clean runs of the whole Examples gallery (what `make demo` does).
    @Test func twoCleanRunsAreByteIdentical() throws {
        let project = try examplesCopy()
        let a = project.deletingLastPathComponent().appendingPathComponent("A"), b = project.deletingLastPathComponent().appendingPathComponent("B")
        let first = try runProcess(pushpreviewBinary, ["gallery", project.path, "--out", a.path, "--jobs", "2"])
        try? FileManager.default.removeItem(at: project.appendingPathComponent("app-group/cache"))
        let second = try runProcess(pushpreviewBinary, ["gallery", project.path, "--out", b.path, "--jobs", "1"])
        #expect(first.status == 0 && second.status == 0, "\(first.stderr) \(second.stderr)")
        let ta = tree(a), tb = tree(b)
        #expect(ta.count > 300 && ta.keys.sorted() == tb.keys.sorted())
        let differing = ta.keys.filter { ta[$0] != tb[$0] }.sorted()
        #expect(differing.isEmpty, "differ: \(differing.prefix(5))")
    }

    /// Shards rendered apart and merged give the gallery one run gives, byte for byte.
    @Test func shardsMergeIntoTheSameGallery() throws {
        let project = try examplesCopy(payloads: Self.some)
        let root = project.deletingLastPathComponent()
        let whole = root.appendingPathComponent("whole"), merged = root.appendingPathComponent("merged")
        #expect(try gallery(project, whole).status == 0)
        var shardReports: [GalleryReport] = []
        for i in 1...3 {
            let r = try gallery(project, root.appendingPathComponent("shard\(i)"), ["--shard", "\(i)/3"])
            #expect(r.status == 0, "\(r.stderr)")
            shardReports.append(try GalleryReport.read(in: ConfinedFolder(trusted: root.appendingPathComponent("shard\(i)"), links: .refused)))
        }
        // Each payload in exactly one slice (by its path's hash, so not evenly for a few payloads).
        #expect(shardReports.map(\.inputs.count).reduce(0, +) == 6 && Set(shardReports.flatMap(\.inputs).map(\.payload)).count == 6)
        let m = try runProcess(pushpreviewBinary, ["gallery", "--merge"] + (1...3).map { root.appendingPathComponent("shard\($0)").path } + ["--out", merged.path])
        #expect(m.status == 0, "\(m.stderr)")
        #expect(tree(merged) == tree(whole))

        // Overlapping shards are refused, naming both.
        let overlap = try runProcess(pushpreviewBinary, ["gallery", "--merge", root.appendingPathComponent("shard1").path, whole.path, "--out", root.appendingPathComponent("bad").path])
        #expect(overlap.status == 1 && overlap.stderr.contains("shards overlap"))

        // A shard whose report is not one is named, and nothing is merged.
        let junk = root.appendingPathComponent("junk")
        try FileManager.default.createDirectory(at: junk, withIntermediateDirectories: true)
        try Data("{\"tool\": ".utf8).write(to: junk.appendingPathComponent("report.json"))
        let bad = try runProcess(pushpreviewBinary, ["gallery", "--merge", root.appendingPathComponent("shard1").path, junk.path, "--out", root.appendingPathComponent("bad2").path])
        #expect(bad.status == 1 && bad.stderr.contains("junk/report.json: not a gallery report"), "\(bad.stderr)")
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("bad2/index.html").path))
    }

    /// Shards drawn for other variants are refused, whichever axis differs: text size (merged with
    /// exit 0 before the axes were one `VariantAxes`) as much as appearance.
    @Test func shardsOfOtherVariantsAreRefused() throws {
        let project = try examplesCopy(payloads: ["emoji.apns", "crew-message.apns"])
        let root = project.deletingLastPathComponent()
        let a = root.appendingPathComponent("a"), b = root.appendingPathComponent("b"), c = root.appendingPathComponent("c")
        #expect(try gallery(project, a, ["--shard", "1/2", "--text-size", "large"]).status == 0)
        #expect(try gallery(project, b, ["--shard", "2/2", "--text-size", "xxxLarge"]).status == 0)
        let sizes = try runProcess(pushpreviewBinary, ["gallery", "--merge", a.path, b.path, "--out", root.appendingPathComponent("m1").path])
        #expect(sizes.status == 1 && sizes.stderr.contains("text sizes [\"xxxLarge\"] vs [\"large\"]"), "\(sizes.stderr)")
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("m1/index.html").path))
        #expect(try gallery(project, c, ["--shard", "2/2", "--text-size", "large", "--appearance", "dark"]).status == 0)
        let looks = try runProcess(pushpreviewBinary, ["gallery", "--merge", a.path, c.path, "--out", root.appendingPathComponent("m2").path])
        #expect(looks.status == 1 && looks.stderr.contains("appearances"), "\(looks.stderr)")
    }

    @Test func incrementalRendersOnlyWhatChanged() throws {
        let project = try examplesCopy(payloads: Self.some)
        let out = project.deletingLastPathComponent().appendingPathComponent("Output")
        #expect(try gallery(project, out, ["--incremental"]).status == 0)
        let again = try gallery(project, out, ["--incremental"])
        #expect(again.stderr.contains("(6 payloads unchanged, kept)"), "\(again.stderr)")
        // One payload edited, one string of a template changed: exactly what they feed is redone.
        let payload = project.appendingPathComponent("payloads/emoji.apns")
        try Data(try String(contentsOf: payload, encoding: .utf8).replacingOccurrences(of: "congrats crew", with: "well sailed").utf8).write(to: payload)
        let edited = try gallery(project, out, ["--incremental"])
        #expect(edited.stderr.contains("(5 payloads unchanged, kept)"), "\(edited.stderr)")
        // A category's template touches the payloads drawn with it: none of these.
        try Data("<div>changed</div>".utf8).write(to: project.appendingPathComponent("Templates/boarding-pass.html"))
        let templated = try gallery(project, out, ["--incremental"])
        #expect(templated.stderr.contains("(6 payloads unchanged, kept)"), "no payload here draws with boarding-pass.html: \(templated.stderr)")
        // Strings are read by every payload's reading of the project.
        let strings = project.appendingPathComponent("en.lproj/Localizable.strings")
        try Data((try String(contentsOf: strings, encoding: .utf8) + "\n\"EXTRA\" = \"Extra\";\n").utf8).write(to: strings)
        let localized = try gallery(project, out, ["--incremental"])
        #expect(localized.stderr.contains("(0 payloads unchanged, kept)"), "\(localized.stderr)")
        // A payload removed: its mock-ups go with it (what the report lists is what is there).
        try FileManager.default.removeItem(at: payload)
        let removed = try gallery(project, out, ["--incremental"])
        #expect(removed.stderr.contains("(5 payloads unchanged, kept)"), "\(removed.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("emoji").path))
        let fresh = project.deletingLastPathComponent().appendingPathComponent("Fresh")
        #expect(try gallery(project, fresh).status == 0)
        #expect(tree(fresh) == tree(out), "an incremental run ends where a clean one does")
    }

    /// SIGKILL half-way leaves only whole files; a rerun completes.
    @Test func killedRunLeavesNoPartialFile() throws {
        let project = try examplesCopy()
        let out = project.deletingLastPathComponent().appendingPathComponent("Output")
        let process = Process()
        process.executableURL = pushpreviewBinary
        process.arguments = ["gallery", project.path, "--out", out.path, "--jobs", "2"]
        process.standardError = FileHandle.nullDevice
        try process.run()
        var pngs: [String] = []
        for _ in 0..<400 where pngs.count < 40 {
            usleep(25_000)
            pngs = tree(out).keys.filter { $0.hasSuffix(".png") }
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let files = tree(out)
        #expect(files.keys.contains { $0.hasSuffix(".png") } && !files.keys.contains("/report.json"), "killed mid-way: \(files.count) files")
        for (name, bytes) in files where !name.hasSuffix(".tmp") {
            if name.hasSuffix(".png") { #expect((try? PNGCodec.decode(bytes)) != nil, "\(name) is not a whole PNG") }
            if name.hasSuffix(".html") { #expect(String(decoding: bytes, as: UTF8.self).hasSuffix("</html>\n"), "\(name) is cut short") }
        }
        let rerun = try runProcess(pushpreviewBinary, ["gallery", project.path, "--out", out.path, "--jobs", "2"])
        #expect(rerun.status == 0, "\(rerun.stderr)")
        let after = tree(out)
        #expect(!after.keys.contains { $0.hasSuffix(".tmp") } && after.keys.contains("/report.json"))
        let report = try GalleryReport.read(in: ConfinedFolder(trusted: out, links: .refused))
        let payloads = try Project(folder: project).payloadFiles.count
        #expect(report.summary.failed == 0 && report.inputs.count == payloads)
    }
}

/// Batch work done once: a photo shared by many payloads is decoded once per run, whichever
/// worker needs it first, and resampled once per size.
struct SharedDecodingTests {
    @Test func sharedAttachmentIsDecodedOncePerRun() throws {
        func run(copies: Int) throws -> (decoded: Int, resampled: Int) {
            let project = try examplesCopy(payloads: ["image-jpeg.apns"], "shared\(copies)")
            let payloads = project.appendingPathComponent("payloads")
            let source = try String(contentsOf: payloads.appendingPathComponent("image-jpeg.apns"), encoding: .utf8)
            for i in 0..<copies { try Data(source.replacingOccurrences(of: "Tonight's sunset", with: "Sunset \(i)").utf8).write(to: payloads.appendingPathComponent("copy\(i).apns")) }
            var options = RenderOptions()
            options.devices = ["iphone-17"]
            options.appearances = [.light, .dark]
            options.outputFolder = project.deletingLastPathComponent().appendingPathComponent("Output")
            var run = GalleryRun(project: try Project(folder: project), templates: repositoryRoot.appendingPathComponent("Templates"), fonts: try FontSet.standard(), options: options)
            run.jobs = 2
            let (report, _, _) = try run.run()
            #expect(report.summary.failed == 0 && report.inputs.count == copies + 1, "\(report.inputs.flatMap(\.mockups).flatMap(\.errors))")
            return run.pixelCache.counts
        }
        // The photo, the app icon and the banner thumbnail: each decoded once and drawn at one
        // size per view, however many payloads and workers share them.
        let one = try run(copies: 0), eight = try run(copies: 7)
        #expect(one.decoded == 3 && eight.decoded == 3 && one.resampled == eight.resampled, "1 payload: \(one), 8 payloads: \(eight)")
    }
}
