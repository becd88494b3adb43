import Foundation
import Testing
import Imaging
import PushPreview

/// One bad input fails only itself, with a message that names the file and the position.
struct BadInputTests {
    /// A scratch project with the Examples' media plus whatever payloads a test writes.
    func project(_ payloads: [String: String], media: [String: [UInt8]] = [:]) throws -> (Project, URL) {
        let folder = temporaryFolder()
        let fm = FileManager.default
        try fm.createDirectory(at: folder.appendingPathComponent("payloads"), withIntermediateDirectories: true)
        try fm.createDirectory(at: folder.appendingPathComponent("media"), withIntermediateDirectories: true)
        for (name, text) in payloads { try Data(text.utf8).write(to: folder.appendingPathComponent("payloads/\(name)")) }
        for (name, bytes) in media { try Data(bytes).write(to: folder.appendingPathComponent("media/\(name)")) }
        return (try Project(folder: folder), folder)
    }

    @Test func badPayloadsFailAloneWithPositions() throws {
        let (project, folder) = try project([
            "a-good.apns": #"{"aps": {"alert": {"title": "Fine", "body": "Still rendered"}}}"#,
            "b-malformed.apns": "{\n  \"aps\": {\"alert\": \"x\",}\n}",
            "c-wrong-type.apns": #"{"aps": {"alert": {"title": 42}}}"#,
            "d-good.apns": #"{"aps": {"alert": "Also rendered"}}"#,
        ])
        var options = RenderOptions()
        options.outputFolder = folder.appendingPathComponent("Output")
        let renderer = try makeRenderer()
        var results: [String: MockupResult] = [:]
        for file in project.payloadFiles + [folder.appendingPathComponent("payloads/e-missing.apns")] {
            results[file.lastPathComponent] = renderer.render(payloadFile: file, project: project, options: options).first
        }
        #expect(results["a-good.apns"]?.errors == [] && results["d-good.apns"]?.errors == [])
        #expect(results["a-good.apns"]?.outputs.count == 2 && results["d-good.apns"]?.outputs.count == 2)
        let malformed = try #require(results["b-malformed.apns"]?.errors.first)
        #expect(malformed.contains("b-malformed.apns") && malformed.contains("2:24"), "\(malformed)")
        let wrong = try #require(results["c-wrong-type.apns"]?.errors.first)
        #expect(wrong.contains("c-wrong-type.apns") && wrong.contains("aps.alert.title: expected string, got number"))
        let missing = try #require(results["e-missing.apns"]?.errors.first)
        #expect(missing.contains("e-missing.apns") && missing.contains("no such file"))
    }

    @Test func corruptOrMissingAttachmentsDegradeToText() throws {
        let good = try JPEGCodec.encode(RGBAImage(width: 64, height: 64, filledWith: (200, 30, 30, 255)))
        let (project, folder) = try project([
            "truncated.apns": #"{"aps": {"alert": "t", "mutable-content": 1}, "image-url": "media/cut.jpg"}"#,
            "garbage.apns": #"{"aps": {"alert": "g", "mutable-content": 1}, "image-url": "media/notes.png"}"#,
            "broken-png.apns": #"{"aps": {"alert": "b", "mutable-content": 1}, "image-url": "media/noise.png"}"#,
            "outside.apns": #"{"aps": {"alert": "o", "mutable-content": 1}, "image-url": "../../etc/passwd"}"#,
            "absent.apns": #"{"aps": {"alert": "a", "mutable-content": 1}, "image-url": "media/none.jpg"}"#,
            "remote.apns": #"{"aps": {"alert": "r", "mutable-content": 1}, "image-url": "https://example.com/a.jpg"}"#,
            "not-mutable.apns": #"{"aps": {"alert": "n"}, "image-url": "media/ok.jpg"}"#,
        ], media: ["cut.jpg": Array(good.prefix(good.count / 2)), "noise.png": [0x89, 0x50, 0x4E, 0x47, 1, 2, 3],
                                                                                          "notes.png": Array("shopping list".utf8), "ok.jpg": good])
        var options = RenderOptions()
        options.outputFolder = folder.appendingPathComponent("Output")
        let renderer = try makeRenderer()
        let expected = ["truncated": "corrupt", "garbage": "unrecognized type", "broken-png": "corrupt", "outside": "invalid URL", "absent": "invalid URL", "remote": "invalid URL"]
        for file in project.payloadFiles {
            let name = file.deletingPathExtension().lastPathComponent
            let r = try #require(renderer.render(payloadFile: file, project: project, options: options).first)
            #expect(r.errors.isEmpty, "\(name): \(r.errors)")
            #expect(r.outputs.count == 2, "\(name) still gets its mock-up")
            if let code = expected[name] {
                #expect(r.service.ran && r.service.level == "text-only" && r.service.steps.contains { $0.outcome == code }, "\(name): \(r.service)")
            } else {
                #expect(!r.service.ran && r.service.level == "original" && r.service.steps.first?.message.contains("mutable-content") == true)
            }
        }
    }

    @Test func brokenSettingsNameTheFile() throws {
        let folder = temporaryFolder()
        try Data(#"{"appName": 7}"#.utf8).write(to: folder.appendingPathComponent("pushpreview.json"))
        #expect { try Project(folder: folder) } throws: { "\($0)".contains("pushpreview.json: appName: expected string, got number") }
        try Data("{\"appName\": ".utf8).write(to: folder.appendingPathComponent("pushpreview.json"))
        #expect { try Project(folder: folder) } throws: { "\($0)".contains("pushpreview.json:1:") }
    }
}
