import ContentStage
import Foundation
import Imaging
import PushPreview
import Testing

/// Issue 15: a project whose `pushpreview.json` names an Xcode project (`"xcode"`) reads the
/// app where it lives on every run — its name, icon (dark in dark mode), fonts, strings and
/// content extensions — from Tests/Fixtures/xcode/Lighthouse, written in the shapes Xcode writes.
struct XcodeRunTests {
    /// A face the standard fonts lack (Noto Serif is the system `serif` now), standing in for the app's.
    static let appFont = "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"

    /// The Lighthouse repository copied to a temporary folder, with a font where its UIAppFonts
    /// names one (DejaVu Serif stands in for the app's), and a project folder inside it.
    struct Repo {
        let root: URL
        var project: URL { root.appendingPathComponent("pushpreview") }

        init(font: Bool = true, _ name: String = #function) throws {
            root = temporaryFolder(name).appendingPathComponent("Lighthouse")
            try FileManager.default.copyItem(at: repositoryRoot.appendingPathComponent("Tests/Fixtures/xcode/Lighthouse"), to: root)
            if font {
                try FileManager.default.createDirectory(at: root.appendingPathComponent("App/Fonts"), withIntermediateDirectories: true)
                try FileManager.default.copyItem(atPath: XcodeRunTests.appFont, toPath: root.appendingPathComponent("App/Fonts/LighthouseSerif.ttf").path)
            }
            try FileManager.default.createDirectory(at: project.appendingPathComponent("payloads"), withIntermediateDirectories: true)
            try write("pushpreview.json", #"{"xcode": "../Lighthouse.xcodeproj"}"#)
            try write("payloads/storm.apns", #"{"aps": {"alert": {"title-loc-key": "storm.title", "title-loc-args": ["Cape Point"], "body": "Gusts up to 9 Beaufort"}, "category": "STORM_WARNING"}}"#)
            try write("payloads/plain.apns", #"{"aps": {"alert": {"body": "The lamp is lit"}}}"#)
            try write("Templates/STORM_WARNING.html", #"<div style="padding: 16px">{{title}}</div>"#)
        }

        func write(_ path: String, _ text: String) throws {
            let file = project.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file)
        }

        func render(_ extra: [String] = []) throws -> [MockupResult] {
            let out = root.appendingPathComponent("out-\(UUID().uuidString.prefix(6))")
            let payloads = ["storm", "plain"].map { project.appendingPathComponent("payloads/\($0).apns").path }
            let run = try runProcess(pushpreviewBinary, ["render"] + payloads + ["--out", out.path, "--json", "--device", "iphone-17"] + extra)
            #expect(run.status == 0, "\(run.stderr)")
            return run.stdout.split(separator: "\n").compactMap { try? JSONDecoder().decode(MockupResult.self, from: Data($0.utf8)) }
        }
    }

    /// strace works here (a container may forbid ptrace): the one evidence of which process
    /// opened a file (inotify merges the opens of several processes into one event).
    static let canTrace = (try? runProcess(URL(fileURLWithPath: "/usr/bin/strace"), ["-f", "-o", "/dev/null", "/bin/true"]).status) == 0

    /// The Xcode app is read once per run, by the project's reading: the render workers are sent
    /// what it found instead of each reading the pbxproj again.
    @Test(.enabled(if: canTrace, "strace cannot trace here (not installed, or ptrace forbidden)"))
    func theAppIsReadOncePerRunWhateverTheJobs() throws {
        let repo = try Repo()
        for i in 0..<6 { try repo.write("payloads/more-\(i).apns", #"{"aps": {"alert": {"body": "Lamp \#(i)"}}}"#) }
        func readers(jobs: Int) throws -> Set<Substring> {
            let trace = repo.root.appendingPathComponent("trace-\(jobs)")
            let run = try runProcess(URL(fileURLWithPath: "/usr/bin/strace"), ["-f", "-e", "trace=openat,openat2", "-o", trace.path, pushpreviewBinary.path,
                                                                              "gallery", repo.project.path, "--out", repo.root.appendingPathComponent("out-\(jobs)").path,
                                                                              "--device", "iphone-17", "--appearance", "light", "--jobs", "\(jobs)"])
            #expect(run.status == 0, "\(run.stderr)")
            let lines = try String(contentsOf: trace, encoding: .utf8).split(separator: "\n")
            return Set(lines.filter { $0.contains("Lighthouse.xcodeproj/project.pbxproj") && !$0.contains("ENOENT") }.compactMap { $0.split(separator: " ").first })
        }
        let one = try readers(jobs: 1), two = try readers(jobs: 2)
        // The supervisor (hashing it for --incremental) and the project's reading; no render worker.
        #expect(one.count == 2 && two.count == 2, "processes that opened the pbxproj: \(one.count) with --jobs 1, \(two.count) with --jobs 2")
    }

    @Test func theAppIsReadWhereItLives() throws {
        let repo = try Repo()
        let project = try Project(folder: repo.project)
        #expect(project.appName == "Lighthouse")
        #expect(project.appIcon?.light.lastPathComponent == "AppIcon.png" && project.appIcon?.dark?.lastPathComponent == "AppIcon-Dark.png"
                && project.appIcon?.tinted?.lastPathComponent == "AppIcon-Tinted.png")
        #expect(project.fonts.map(\.lastPathComponent) == ["LighthouseSerif.ttf"])
        #expect(project.stringsFolders.map(\.url.lastPathComponent) == ["pushpreview", "App"])
        let ext = try #require(project.content.extensions.first)
        #expect(project.content.extensions.count == 1 && ext.categories == ["STORM_WARNING"] && ext.initialContentSizeRatio == 0.5)
        #expect(ext.file.hasSuffix("Content/Info.plist"))
        #expect(project.issues.isEmpty, "\(project.issues)")
    }

    /// The strings are the app's, per locale; the display name comes from its InfoPlist.strings;
    /// a string changed in the app is what the next run shows.
    /// serve's APNs endpoint requires the app's bundle ID as apns-topic: the setting, else the
    /// app target's PRODUCT_BUNDLE_IDENTIFIER in its default configuration, expanded (Lighthouse
    /// builds "org.example.lighthouse$(BUNDLE_SUFFIX)", the suffix empty in Release).
    @Test func theBundleIDIsTheSettingElseTheAppTargets() throws {
        let repo = try Repo(font: false)
        #expect(try Project(folder: repo.project).bundleID == "org.example.lighthouse")
        try repo.write("pushpreview.json", #"{"xcode": "../Lighthouse.xcodeproj", "bundleId": "com.example.other"}"#)
        #expect(try Project(folder: repo.project).bundleID == "com.example.other")
        try repo.write("pushpreview.json", #"{}"#)
        #expect(try Project(folder: repo.project).bundleID == nil)
    }

    @Test func stringsAreReadAgainOnEveryRun() throws {
        let repo = try Repo()
        func banner(_ results: [MockupResult], _ payload: String = "storm") throws -> MockupResult {
            try #require(results.first { $0.view == "banner" && $0.appearance == "light" && $0.payload.hasSuffix("\(payload).apns") })
        }
        func page(_ r: MockupResult) throws -> String { try String(contentsOfFile: try #require(r.outputs.first { $0.hasSuffix(".html") }), encoding: .utf8) }
        let en = try repo.render(["--locale", "en"]), nl = try repo.render(["--locale", "nl"])
        #expect(try page(try banner(en)).contains("Storm warning: Cape Point") && page(try banner(en, "plain")).contains("Lighthouse"))
        #expect(try page(try banner(nl)).contains("Stormwaarschuwing: Cape Point") && page(try banner(nl, "plain")).contains("Vuurtoren"))

        let catalog = repo.root.appendingPathComponent("App/Localizable.xcstrings")
        let changed = try String(contentsOf: catalog, encoding: .utf8).replacingOccurrences(of: "\"Storm warning: %@\"", with: "\"Gale warning: %@\"")
        try Data(changed.utf8).write(to: catalog)
        let again = try page(try banner(try repo.render(["--locale", "en"])))
        #expect(again.contains("Gale warning: Cape Point") && !again.contains("Storm warning"))
    }

    /// `gallery --incremental` keeps what is unchanged, and draws again when the app's strings change.
    @Test func incrementalGallerySeesTheAppChange() throws {
        let repo = try Repo()
        let out = repo.root.appendingPathComponent("gallery")
        let run = { try runProcess(pushpreviewBinary, ["gallery", repo.project.path, "--out", out.path, "--incremental", "--device", "iphone-17", "--locale", "en", "--jobs", "1"]) }
        _ = try run()
        #expect(try run().stderr.contains("(2 payloads unchanged, kept)"))
        let catalog = repo.root.appendingPathComponent("App/Localizable.xcstrings")
        try Data(try String(contentsOf: catalog, encoding: .utf8).replacingOccurrences(of: "Storm warning", with: "Gale warning").utf8).write(to: catalog)
        let third = try run()
        #expect(third.stderr.contains("(0 payloads unchanged, kept)"), "\(third.stderr)")
    }

    /// The icon set's dark image in dark mode: the light icon's blue is in the light banner only,
    /// the dark icon's amber beam in the dark one only.
    @Test func theDarkIconInDarkMode() throws {
        let repo = try Repo()
        let results = try repo.render(["--appearance", "light,dark"])
        func count(_ appearance: String, near colour: (Int, Int, Int)) throws -> Int {
            let r = try #require(results.first { $0.view == "banner" && $0.appearance == appearance && $0.payload.hasSuffix("storm.apns") })
            let png = try ContentStageTests.png(r)
            var n = 0
            for i in stride(from: 0, to: png.pixels.count, by: 4) where abs(Int(png.pixels[i]) - colour.0) < 12 && abs(Int(png.pixels[i + 1]) - colour.1) < 12 && abs(Int(png.pixels[i + 2]) - colour.2) < 12 { n += 1 }
            return n
        }
        #expect(try count("light", near: (20, 80, 200)) > 200)
        #expect(try count("dark", near: (20, 80, 200)) == 0)
        #expect(try count("dark", near: (255, 184, 46)) > 20)
        #expect(try count("light", near: (255, 184, 46)) == 0)
    }

    /// UIAppFonts: a template naming the app's font draws in it with no --font-dir; without the
    /// file, the mock-up says the font is missing.
    @Test func theAppsFontsAreLoaded() throws {
        for present in [true, false] {
            let repo = try Repo(font: present)
            try repo.write("Templates/STORM_WARNING.html", #"<div style="padding: 16px; font-family: 'DejaVu Serif'; font-size: 20px">{{title}}</div>"#)
            let expanded = try #require(try repo.render().first { $0.view == "expanded" && $0.appearance == "light" })
            let unknown = expanded.warnings.filter { $0.contains("no loaded font provides it") }
            if present { #expect(unknown.isEmpty, "\(expanded.warnings)") }
            else { #expect(!unknown.isEmpty && expanded.warnings.contains { $0.contains("LighthouseSerif.ttf") }, "\(expanded.warnings)") }
        }
    }

    /// `pushpreview init` then `gallery`, as a new user runs them: no file written by hand, every
    /// mock-up drawn, the storyboard's template with the amber wind label, the actions from the
    /// Swift code in the locale's words; init run again writes nothing.
    @Test func initThenGallery() throws {
        let repo = try Repo()
        try FileManager.default.removeItem(at: repo.project)
        let first = try runProcess(pushpreviewBinary, ["init", repo.root.path])
        #expect(first.status == 0 && first.stdout.contains("8 written, 0 unchanged, 0 kept"), "\(first.stdout)\(first.stderr)")
        #expect(first.stdout.contains("category STORM_WARNING: ACKNOWLEDGE, REPLY, MUTE_FOR_DAY (App/NotificationCategories.swift:28)"))
        #expect(first.stderr.contains("not read: App/AppDelegate.swift:9:"), "what could not be followed is said with its place")
        // The chart the service extension downloads: a media key, and the sample image in media/ (issue 22).
        #expect(first.stdout.contains("media keys (the service extension downloads and attaches them): chart-url") && first.stdout.contains("wrote media/sample-image.png"))
        let again = try runProcess(pushpreviewBinary, ["init", repo.root.path])
        #expect(again.stdout.contains("0 written, 8 unchanged, 0 kept"))
        let out = repo.root.appendingPathComponent("gallery")
        let g = try runProcess(pushpreviewBinary, ["gallery", repo.project.path, "--out", out.path, "--device", "iphone-17"])
        #expect(g.status == 0 && g.stderr.contains("3 payloads") && g.stderr.contains(" 0 failed, 0 with warnings"), "\(g.stderr)")
        let report = try JSONDecoder().decode(GalleryReport.self, from: Data(contentsOf: out.appendingPathComponent("report.json")))
        let storm = try #require(report.inputs.first { $0.payload.hasSuffix("STORM_WARNING.apns") }?.mockups.first { $0.view == "expanded" && $0.locale == "nl" && $0.appearance == "light" })
        #expect(storm.actions?.map(\.title) == ["Bevestigen", "Antwoorden", "Mute for a day"])
        let png = try PNGCodec.decode(sha(out.appendingPathComponent(try #require(storm.outputs.first { $0.hasSuffix(".png") }))))
        var amber = 0, navy = 0
        for i in stride(from: 0, to: png.pixels.count, by: 4) {
            let (r, g, b) = (Int(png.pixels[i]), Int(png.pixels[i + 1]), Int(png.pixels[i + 2]))
            if abs(r - 255) < 16 && abs(g - 184) < 16 && abs(b - 46) < 16 { amber += 1 }
            if abs(r - 14) < 6 && abs(g - 40) < 6 && abs(b - 78) < 6 { navy += 1 }
        }
        #expect(amber > 500 && navy > 50_000, "the storyboard's navy view and its amber label: \(navy), \(amber)")
    }

    /// `"fonts"` in pushpreview.json: a file in the project is loaded for every page; one outside
    /// it is a project warning and not read.
    @Test func fontsSetting() throws {
        let repo = try Repo(font: false)
        try FileManager.default.createDirectory(at: repo.project.appendingPathComponent("media"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.appFont, toPath: repo.project.appendingPathComponent("media/Serif.ttf").path)
        try repo.write("Templates/STORM_WARNING.html", #"<div style="padding: 16px; font-family: 'DejaVu Serif'">{{title}}</div>"#)
        for (fonts, loaded) in [(#"["media/Serif.ttf"]"#, true), (#"["../../etc/Serif.ttf"]"#, false)] {
            try repo.write("pushpreview.json", #"{"xcode": "../Lighthouse.xcodeproj", "fonts": \#(fonts)}"#)
            let project = try Project(folder: repo.project)
            #expect(project.fonts.map(\.lastPathComponent) == (loaded ? ["Serif.ttf", "LighthouseSerif.ttf"] : ["LighthouseSerif.ttf"]), "the setting's, then the app's (absent here)")
            if !loaded { #expect(project.issues.contains { $0.description.contains("fonts: ../../etc/Serif.ttf lies outside the project") }) }
            let expanded = try #require(try repo.render().first { $0.view == "expanded" && $0.appearance == "light" })
            #expect(expanded.warnings.contains { $0.contains("no loaded font provides it") } == !loaded, "\(expanded.warnings)")
        }
    }

    /// A bad "xcode" setting is an error naming the file and key; a missing project names the path.
    @Test func badXcodeSettings() throws {
        let repo = try Repo()
        for (settings, said) in [(#"{"xcode": 7}"#, "xcode: expected the path"), (#"{"xcode": "../Nowhere.xcodeproj"}"#, "Nowhere.xcodeproj")] {
            try repo.write("pushpreview.json", settings)
            do {
                _ = try Project(folder: repo.project)
                Issue.record("\(settings) was read")
            } catch {
                #expect(error.description.contains("pushpreview.json") && error.description.contains(said), "\(error)")
            }
        }
    }
}
