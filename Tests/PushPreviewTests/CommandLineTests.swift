import Foundation
import Testing
import Imaging

/// The `pushpreview` binary as users run it: exit status 0 / 1 / 2 and messages on stderr.
struct CommandLineTests {
    static let binary = pushpreviewBinary

    struct Run { var status: Int32; var stdout: String; var stderr: String }

    func run(_ arguments: [String]) throws -> Run {
        let process = Process()
        process.executableURL = Self.binary
        process.arguments = arguments
        process.currentDirectoryURL = repositoryRoot
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile(), stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self))
    }

    @Test func binaryWasBuilt() {
        #expect(FileManager.default.isExecutableFile(atPath: Self.binary.path), "run `swift build --build-tests` (make test does)")
    }

    /// A project folder that is not there (init never ran, a typo) is an error, not an empty
    /// gallery that exits 0 (issue 22's survey: "0 payloads, 0 mock-ups, 0 failed").
    @Test func aMissingProjectIsAnError() throws {
        let missing = temporaryFolder().appendingPathComponent("pushpreview")
        let gallery = try run(["gallery", missing.path, "--out", temporaryFolder().appendingPathComponent("out").path])
        #expect(gallery.status == 1 && gallery.stderr.contains("\(missing.path): no such project folder"), "\(gallery.status) \(gallery.stderr)")
        let validate = try run(["validate", missing.path, "--json"])
        #expect(validate.status == 1 && validate.stdout.contains(#""severity":"error""#), "\(validate.stdout)")
    }

    @Test func rendersAndReportsJSON() throws {
        let out = temporaryFolder()
        let r = try run(["render", "Examples/payloads/image-gif.apns", "--out", out.path, "--json", "--appearance", "dark"])
        #expect(r.status == 0, "\(r.stderr)")
        let objects = r.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        // Without --device, the project's devices (Examples/pushpreview.json), each with both views.
        #expect(objects.map { "\($0["device"]!) \($0["view"]!)" } == ["iphone-se-3 expanded", "iphone-se-3 banner", "iphone-15 expanded", "iphone-15 banner",
                                                                       "ipad-10 expanded", "ipad-10 banner"])
        #expect(objects.allSatisfy { $0["appearance"] as? String == "dark" })
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("image-gif/iphone-15-dark-expanded.png").path))
    }

    /// The Examples exercise every service step; `--json` carries the trace contract
    /// `service: {ran, level, steps: [{step, outcome, ms, bytes, message}]}`.
    @Test func jsonShowsServiceTraces() throws {
        let out = temporaryFolder()
        let r = try run(["render", "Examples/payloads/encrypted-message.apns", "Examples/payloads/enriched-crew.apns",
                         "Examples/payloads/localized-boarding.apns", "Examples/payloads/plain-alert.apns",
                         "--out", out.path, "--json", "--locale", "nl", "--device", "iphone-17"])
        #expect(r.status == 0, "\(r.stderr)")
        let objects = r.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            .filter { $0["view"] as? String == "expanded" }
        #expect(objects.count == 4)
        func steps(_ payload: String) -> (ran: Bool, level: String, steps: [[String: Any]]) {
            let o = objects.first { ($0["payload"] as? String)?.hasSuffix(payload) == true }
            let service = o?["service"] as? [String: Any]
            return (service?["ran"] as? Bool ?? false, service?["level"] as? String ?? "", service?["steps"] as? [[String: Any]] ?? [])
        }
        func outcomes(_ s: [[String: Any]]) -> [String] { s.map { "\($0["step"]!):\($0["outcome"]!)" } }
        let encrypted = steps("encrypted-message.apns")
        #expect(encrypted.ran && encrypted.level == "full")
        #expect(outcomes(encrypted.steps) == ["decrypt:decrypted", "enrich:enriched", "communicate:donated", "attach:attached"])
        #expect(encrypted.steps.allSatisfy { $0["ms"] is Double || $0["ms"] is Int } && (encrypted.steps.last?["bytes"] as? Int ?? 0) > 0)
        #expect(outcomes(steps("enriched-crew.apns").steps).contains("enrich:enriched"))
        let localized = steps("localized-boarding.apns")
        #expect(!localized.ran && localized.level == "original" && outcomes(localized.steps).filter { $0 == "localize:localized" }.count == 2)
        #expect(!steps("plain-alert.apns").ran)
    }

    @Test func oneBadPayloadMakesStatusOneAndTheRestStillRender() throws {
        let folder = temporaryFolder()
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("payloads"), withIntermediateDirectories: true)
        let bad = folder.appendingPathComponent("payloads/bad.apns")
        try Data("{\"aps\": {\"alert\": }}".utf8).write(to: bad)
        let out = folder.appendingPathComponent("Output")
        let r = try run(["render", bad.path, "Examples/payloads/plain-alert.apns", "--out", out.path])
        #expect(r.status == 1)
        #expect(r.stderr.contains("bad.apns") && r.stderr.contains("1:19"), "\(r.stderr)")
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("plain-alert/iphone-15-light-expanded.png").path))
    }

    @Test(arguments: [
        ["render"], ["render", "x.apns", "--device", "nokia-3310"], ["render", "x.apns", "--appearance", "sepia"],
        ["render", "x.apns", "--bogus"], ["frobnicate"], ["thumbnail", "a.jpg"], ["thumbnail", "a.jpg", "--size", "0x5", "--out", "t.png"],
        ["render", "x.apns", "--text-size", "huge"], ["render", "x.apns", "--text-size", "Large"],
        ["render", "x.apns", "--view", "home-screen"], ["gallery", "--view", "lockscreen,widgets"],
    ])
    func usageErrorsExitTwo(_ arguments: [String]) throws {
        let r = try run(arguments)
        #expect(r.status == 2, "\(arguments): \(r.status) \(r.stderr)")
        #expect(!r.stderr.isEmpty)
    }

    /// `validate` checks a project's parts against each other and writes nothing.
    @Test func validateFindsWhatIsWrongAndWritesNothing() throws {
        let clean = try run(["validate", "Examples", "--json"])
        #expect(clean.status == 0 && clean.stdout.isEmpty, "Examples should validate cleanly: \(clean.stdout)")

        let folder = temporaryFolder()
        let fm = FileManager.default
        try fm.createDirectory(at: folder.appendingPathComponent("payloads"), withIntermediateDirectories: true)
        try fm.createDirectory(at: folder.appendingPathComponent("Templates"), withIntermediateDirectories: true)
        let plist: [String: Any] = ["NSExtension": ["NSExtensionPointIdentifier": "com.apple.usernotifications.content",
                                                    "NSExtensionAttributes": ["UNNotificationExtensionCategory": ["ticket", "ghost"], "UNNotificationExtensionInitialContentSizeRatio": 0.5]]]
        try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0).write(to: folder.appendingPathComponent("Info.plist"))
        try Data(#"{"categories": [{"identifier": "ticket", "actions": [{"identifier": "a", "title": "A", "icon": "tortoise"}]}]}"#.utf8)
            .write(to: folder.appendingPathComponent("categories.json"))
        try Data(#"<style>.t { vertical-align: middle }</style><div class="t" onclick="x()">{{title}}</div>"#.utf8).write(to: folder.appendingPathComponent("Templates/ticket.html"))
        try Data(#"<div>never shown</div>"#.utf8).write(to: folder.appendingPathComponent("Templates/orphan.html"))
        try Data(#"{"aps": {"alert": "Hi", "category": "Ticket"}}"#.utf8).write(to: folder.appendingPathComponent("payloads/p.apns"))
        let before = tree(folder)
        let r = try run(["validate", folder.path])
        #expect(r.status == 1, "the claimed category without a template is an error")
        for expected in ["Info.plist: NSExtension.NSExtensionPointIdentifier", "claims category \"ghost\" but there is no Templates/ghost.html",
                         "ticket.html:1: removed event handler onclick", "ticket.html:1: CSS vertical-align", "orphan.html: a template for category \"orphan\", which no extension",
                         "no look-alike for the system image \"tortoise\"", "p.apns: aps.category: \"Ticket\" is not a category of this project", "did you mean \"ticket\""] {
            #expect(r.stdout.contains(expected), "missing: \(expected)\n\(r.stdout)")
        }
        #expect(tree(folder) == before)
    }

    @Test func thumbnailCommand() throws {
        let folder = temporaryFolder()
        let out = folder.appendingPathComponent("thumb.png")
        let r = try run(["thumbnail", "Examples/media/harbor-sunset.jpg", "--size", "120x90", "--clip", "0.5,0.25,0.5,0.5", "--out", out.path])
        #expect(r.status == 0, "\(r.stderr)")
        let image = try PNGCodec.decode([UInt8](Data(contentsOf: out)))
        #expect(image.width == 120 && image.height == 90)

        let gif = try run(["thumbnail", "Examples/media/bounce.gif", "--size", "40x40", "--frame", "7", "--out", out.path])
        #expect(gif.status == 1 && gif.stderr.contains("frame 7") && gif.stderr.contains("bounce.gif"), "\(gif.stderr)")

        let truncated = folder.appendingPathComponent("cut.jpg")
        let jpeg = try Data(contentsOf: repositoryRoot.appendingPathComponent("Examples/media/harbor-sunset.jpg"))
        try jpeg.prefix(jpeg.count / 3).write(to: truncated)
        let cut = try run(["thumbnail", truncated.path, "--size", "40x40", "--out", out.path])
        #expect(cut.status == 1 && cut.stderr.contains("cut.jpg") && cut.stderr.contains("corrupt JPEG"), "\(cut.stderr)")
        let missing = try run(["thumbnail", "/nonexistent.png", "--size", "40x40", "--out", out.path])
        #expect(missing.status == 1 && missing.stderr.contains("no such file"))
    }
}
