import Foundation
import Imaging
import Testing
import PushPreview

/// Every way a project or template reached outside itself, judged by evidence: the picture we
/// drew, and what headless Chromium fetched and showed when it opened the page from disk.
struct EscapeTests {
    typealias Fixture = ContentStageTests.Fixture

    /// A folder beside the project with a magenta "secret" image and a partial.
    func outside(_ name: String = #function) throws -> URL {
        let folder = temporaryFolder("outside" + name)
        try Data(PNGCodec.encode(RGBAImage(width: 16, height: 16, filledWith: (255, 0, 255, 255)))).write(to: folder.appendingPathComponent("secret.png"))
        try Data("<p>SECRET-PARTIAL</p>".utf8).write(to: folder.appendingPathComponent("secret.html"))
        return folder
    }

    struct Seen: Decodable { var resources: [String]; var images: [Image]; var text: String; var navigated: Bool; var fonts: [String]
        struct Image: Decodable { var src: String; var loaded: Bool } }

    func openInChromium(_ pages: [String]) throws -> [Seen]? {
        guard FileManager.default.fileExists(atPath: "/usr/bin/chromium") else {
            Issue.record("Chromium is not installed (make deps installs it): the pages were not opened in a browser")
            return nil
        }
        let r = try runProcess(URL(fileURLWithPath: "/usr/bin/python3"), [repositoryRoot.appendingPathComponent("Tests/Support/page-resources.py").path] + pages)
        #expect(r.status == 0, "\(r.stderr)")
        return try r.stdout.split(separator: "\n").map { try JSONDecoder().decode(Seen.self, from: Data($0.utf8)) }
    }

    static func hasMagenta(_ image: RGBAImage) -> Bool {
        for y in stride(from: 0, to: image.height, by: 2) {
            for x in stride(from: 0, to: image.width, by: 2) { let p = image.pixel(x: x, y: y); if p.r > 230 && p.g < 30 && p.b > 230 { return true } }
        }
        return false
    }

    @Test func templateURLsAndPartialsStayInTheProject() throws {
        let secret = try outside()
        var f = Fixture()
        let fm = FileManager.default
        try fm.createDirectory(at: f.folder.appendingPathComponent("media"), withIntermediateDirectories: true)
        try Data(PNGCodec.encode(RGBAImage(width: 8, height: 8, filledWith: (0, 160, 60, 255)))).write(to: f.folder.appendingPathComponent("media/ok.png"))
        try fm.createDirectory(at: f.folder.appendingPathComponent("Templates"), withIntermediateDirectories: true)
        try fm.createSymbolicLink(at: f.folder.appendingPathComponent("Templates/leak.html"), withDestinationURL: secret.appendingPathComponent("secret.html"))
        let abs = secret.appendingPathComponent("secret.png").path
        let climb = "%2e%2e/%2e%2e/%2e%2e/\(secret.lastPathComponent)/secret.png"
        f.template = """
        <img src="\(abs)" style="width: 40px; height: 40px"><img src="\(climb)" style="width: 40px; height: 40px">
        <img src="media/ok.png" lowsrc="\(abs)" style="width: 40px; height: 40px">
        <div style="width: 40px; height: 40px; background-image: url('\(abs)')"></div>
        <svg width="40" height="40"><image href="\(abs)" width="40" height="40"/><set attributeName="href" to="\(abs)"/></svg>
        <a href="\(abs)" ping="http://127.0.0.1:9/ping">link</a>
        {{> leak}}
        """
        let results = try f.render()
        let expanded = try #require(results.first { $0.view == "expanded" })
        #expect(expanded.errors.isEmpty, "\(expanded.errors)")
        #expect(expanded.warnings.filter { $0.contains("removed") }.count >= 5, "\(expanded.warnings)")
        #expect(!Self.hasMagenta(try ContentStageTests.png(expanded)), "the PNG shows the secret image")
        let page = try #require(expanded.outputs.first { $0.hasSuffix(".html") })
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(!html.contains("secret") && !html.contains("SECRET-PARTIAL") && !html.contains("ping="), "\(html)")
        #expect(html.contains("base-uri 'none'") && html.contains("form-action 'none'"))
        guard let seen = try openInChromium([page]) else { return }
        for s in seen {
            #expect(!s.resources.contains { $0.contains("secret") || $0.contains("127.0.0.1") }, "\(s.resources)")
            // What loads is the project's own image, copied into the output's shared media folder.
            let shared = f.folder.appendingPathComponent("Output/media").path
            #expect(s.images.filter(\.loaded).allSatisfy { $0.src.hasPrefix("file://" + shared) || $0.src.hasPrefix("data:") }, "\(s.images)")
            #expect(s.images.contains { $0.loaded && $0.src.hasPrefix("file://" + shared) })
            #expect(!s.text.contains("SECRET-PARTIAL") && !s.navigated)
        }
    }

    @Test func appIconOutsideTheProjectIsNotRead() throws {
        let secret = try outside()
        for icon in ["../\(secret.lastPathComponent)/secret.png", secret.appendingPathComponent("secret.png").path] {
            var f = Fixture()
            f.settings = #"{"appName": "Harbor", "appIcon": "\#(icon)"}"#
            let results = try f.render()
            let banner = try #require(results.first { $0.view == "banner" })
            #expect(banner.warnings.contains { $0.contains("outside the project") }, "\(banner.warnings)")
            #expect(!Self.hasMagenta(try ContentStageTests.png(banner)))
        }
    }

    /// A shard's report.json is input: a path out of its folder is refused, and strings that
    /// look like markup are escaped — the browser stays on the page.
    @Test func mergedReportsAreUntrusted() throws {
        let root = temporaryFolder()
        let project = try examplesCopy(payloads: ["body-only.apns"])
        let shard = root.appendingPathComponent("shard")
        let r = try runProcess(pushpreviewBinary, ["gallery", project.path, "--out", shard.path, "--device", "iphone-17", "--locale", "en"])
        #expect(r.status == 0, "\(r.stderr)")
        let reportFile = shard.appendingPathComponent("report.json")
        let original = try String(contentsOf: reportFile, encoding: .utf8)

        let evil = #"<meta http-equiv=\"refresh\" content=\"0;url=http://127.0.0.1:9/\">"#
        var report = try JSONSerialization.jsonObject(with: Data(original.utf8)) as! [String: Any]
        var inputs = report["inputs"] as! [[String: Any]]
        var mockups = inputs[0]["mockups"] as! [[String: Any]]
        mockups[0]["warnings"] = [evil]
        mockups[0]["actions"] = [["identifier": evil, "title": evil, "options": [evil], "textInput": false]]
        inputs[0]["mockups"] = mockups
        report["inputs"] = inputs
        report["shard"] = "1/1"
        try JSONSerialization.data(withJSONObject: report).write(to: reportFile)
        let merged = root.appendingPathComponent("merged")
        let m = try runProcess(pushpreviewBinary, ["gallery", "--merge", shard.path, "--out", merged.path])
        #expect(m.status == 0, "\(m.stderr)")
        let page = try String(contentsOf: merged.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(!page.contains("<meta http-equiv=\"refresh\""), "unescaped markup from a shard")
        if let seen = try openInChromium([merged.appendingPathComponent("index.html").path]) { #expect(seen.allSatisfy { !$0.navigated }) }

        for (key, value) in [("outcome", #""rendered\" data-x=\"1""#), ("outputs", #"["../../../../etc/passwd.png"]"#), ("payload", #""/etc/passwd""#)] {
            var bad = try JSONSerialization.jsonObject(with: Data(original.utf8)) as! [String: Any]
            var inputs = bad["inputs"] as! [[String: Any]]
            let parsed = try JSONSerialization.jsonObject(with: Data(value.utf8), options: .fragmentsAllowed)
            if key == "outputs" { var ms = inputs[0]["mockups"] as! [[String: Any]]; ms[0]["outputs"] = parsed; inputs[0]["mockups"] = ms } else { inputs[0][key] = parsed }
            bad["inputs"] = inputs
            try JSONSerialization.data(withJSONObject: bad).write(to: reportFile)
            let refused = try runProcess(pushpreviewBinary, ["gallery", "--merge", shard.path, "--out", root.appendingPathComponent("bad-\(key)").path])
            #expect(refused.status == 1 && refused.stderr.contains("not merged"), "\(key): \(refused.stderr)")
        }
    }
}
