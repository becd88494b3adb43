import Foundation
import Testing
import ServiceStage

/// References that must be refused with a clear error, with nothing read or fetched.
struct RefusalTests {
    @Test func refusedReferences() throws {
        let project = ScratchProject()
        try project.write("media/ok.jpg", testJPEG)
        try project.write("secret/inside-project.jpg", testJPEG)
        try FileManager.default.createSymbolicLink(atPath: project.folder.appendingPathComponent("media/link.jpg").path,
                                                   withDestinationPath: project.folder.appendingPathComponent("secret/inside-project.jpg").path)
        var settings = ServiceSettings()
        settings.allowedHosts = ["cdn.example.com"]
        let cases: [(String, String, String)] = [
            ("file:///etc/passwd", "invalid URL", "outside the media folders"),
            ("../secret/inside-project.jpg", "invalid URL", "outside the media folders"),
            ("media/../secret/inside-project.jpg", "invalid URL", "outside the media folders"),
            ("media/link.jpg", "invalid URL", "outside the media folders"),
            ("http://evil.example.org/x.jpg", "invalid URL", "not in allowedHosts"),
            ("http://127.0.0.1:1/x.jpg", "invalid URL", "not in allowedHosts"),
            ("ftp://cdn.example.com/x.jpg", "invalid URL", "only http(s)"),
            ("javascript:alert(1)", "invalid URL", "only http(s)"),
            ("media/nothing-here.jpg", "invalid URL", "no such file"),
        ]
        for (reference, outcome, words) in cases {
            let note = try project.run(#"{"aps": {"alert": "x", "mutable-content": 1}, "image-url": "\#(reference)"}"#, settings: settings)
            let step = try #require(note.trace.steps.first { $0.step == "attach" }, "\(reference.prefix(40))")
            #expect(step.outcome == outcome && step.message.contains(words), "\(reference.prefix(40)): \(step.outcome) \(step.message)")
            #expect(note.attachments.isEmpty && note.trace.level == .textOnly)
        }
        // The allowed ones still work: a media file, and a small data: URL.
        let inline = "data:image/jpeg;base64,\(Data(testJPEG).base64EncodedString())"
        for reference in ["media/ok.jpg", "file://\(project.folder.path)/media/ok.jpg", inline] {
            let note = try project.run(#"{"aps": {"alert": "x", "mutable-content": 1}, "image-url": "\#(reference)"}"#, settings: settings)
            #expect(note.trace.level == .full && note.attachments.first?.bytes == testJPEG, "\(reference.prefix(40)): \(note.trace)")
        }
    }

    /// A payload is 4 KB, so a data: URL over the cap can only come from the app group, through
    /// enrichment; it is refused before it is decoded.
    @Test func dataURLOverTheCapIsNotDecoded() throws {
        let project = ScratchProject()
        let big = String(repeating: "A", count: 14_000_000)
        try project.write("app-group/media.json", #"{"m1": {"url": "data:image/jpeg;base64,\#(big)"}}"#)
        var settings = ServiceSettings()
        settings.enrich = [.init(key: "media-id", data: "app-group/media.json", set: [(field: "image-url", template: "{{{url}}}")])]
        let note = try project.run(#"{"aps": {"alert": "x", "mutable-content": 1}, "media-id": "m1"}"#, settings: settings)
        let step = try #require(note.trace.steps.first { $0.step == "attach" })
        #expect(step.outcome == "invalid file size" && step.message.contains("not decoded"), "\(step.message.prefix(200))")
        #expect(note.trace.steps.first { $0.step == "enrich" }?.outcome == "enriched")
    }

    @Test func attachmentInitValidatesLikeIOS() throws {
        let project = ScratchProject()
        try project.write("media/photo.jpg", testJPEG)
        try project.write("media/photo.mp3", testJPEG)
        try project.write("media/empty.png", [UInt8]())
        try project.write("media/notes.txt", "hello")
        func code(_ name: String, _ options: [AnyHashable: Any]? = nil) -> UNError.Code? {
            do { _ = try UNNotificationAttachment(identifier: "", url: project.folder.appendingPathComponent("media/\(name)"), options: options); return nil }
            catch { return (error as? UNError)?.code }
        }
        #expect(code("photo.jpg") == nil)
        #expect(code("photo.mp3") == .attachmentUnrecognizedType, "declared audio, bytes are an image")
        #expect(code("notes.txt") == .attachmentUnrecognizedType)
        #expect(code("notes.txt", [UNNotificationAttachmentOptionsTypeHintKey: "public.jpeg"]) == .attachmentUnrecognizedType)
        #expect(code("empty.png") == .attachmentInvalidFileSize)
        #expect(code("absent.jpg") == .attachmentInvalidURL)
        #expect(throws: UNError.self) { try UNNotificationAttachment(identifier: "x", url: URL(string: "https://example.com/a.jpg")!) }
        let a = try UNNotificationAttachment(identifier: "", url: project.folder.appendingPathComponent("media/photo.jpg"),
                                             options: [UNNotificationAttachmentOptionsThumbnailClippingRectKey: ["X": 0.25, "Y": 0.25, "Width": 0.5, "Height": 0.5],
                                                       UNNotificationAttachmentOptionsThumbnailHiddenKey: true])
        #expect(!a.identifier.isEmpty && a.thumbnailHidden && a.thumbnailClippingRect?.width == 0.5)
    }
}
