import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Payload
import ServiceStage // on iOS: import UserNotifications

/// A service extension written the way the seed documents (and Xcode's template) write theirs:
/// keep the handler and a best attempt, download with URLSession, attach, and hand over the best
/// attempt on expiry. Only the import differs from the iOS code.
class NotificationService: UNNotificationServiceExtension {
    var contentHandler: ((UNNotificationContent) -> Void)?
    var bestAttemptContent: UNMutableNotificationContent?

    override func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
        self.contentHandler = contentHandler
        bestAttemptContent = (request.content.mutableCopy() as? UNMutableNotificationContent)

        guard let bestAttemptContent = bestAttemptContent,
              let urlString = request.content.userInfo["image-url"] as? String,
              let url = URL(string: urlString) else {
            contentHandler(request.content)
            return
        }
        bestAttemptContent.title = "\(bestAttemptContent.title) [modified]"

        URLSession.shared.downloadTask(with: url) { location, _, _ in
            if let location = location {
                let file = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent(UUID().uuidString + ".jpg")
                try? FileManager.default.moveItem(at: location, to: file)
                if let attachment = try? UNNotificationAttachment(identifier: "image", url: file,
                                                                  options: [UNNotificationAttachmentOptionsTypeHintKey: "public.jpeg"]) {
                    bestAttemptContent.attachments = [attachment]
                }
            }
            contentHandler(bestAttemptContent)
        }.resume()
    }

    override func serviceExtensionTimeWillExpire() {
        if let contentHandler = contentHandler, let bestAttemptContent = bestAttemptContent {
            contentHandler(bestAttemptContent)
        }
    }
}

/// One that never calls its handler: iOS then shows the original content.
class SilentService: UNNotificationServiceExtension {
    override func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {}
}

struct SeedStyleExtensionTests {
    func payload(_ url: String) throws -> Payload {
        try PayloadParser.parse(Array(#"{"aps": {"alert": {"title": "Sunset", "body": "Tonight"}, "mutable-content": 1}, "image-url": "\#(url)"}"#.utf8), file: "seed.apns").0
    }

    func serve(_ body: [UInt8], delay: Double) throws -> (URL, Process) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("seed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(body).write(to: folder.appendingPathComponent("p.jpg"))
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../Support/http-test-server.py").standardizedFileURL
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        server.arguments = ["python3", script.path, folder.path]
        let out = Pipe()
        server.standardOutput = out
        try server.run()
        var line = Data()
        while !line.contains(10) { let d = out.fileHandleForReading.availableData; if d.isEmpty { break }; line += d }
        let port = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return (URL(string: "http://127.0.0.1:\(port)/files/p.jpg?delay=\(delay)")!, server)
    }

    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xDB] // replaced below by a real one

    @Test func runsWithOnlyTheImportChanged() throws {
        let image = try realJPEG()
        let (url, server) = try serve(image, delay: 0)
        defer { server.terminate() }
        var stage = try ServiceStage(projectFolder: URL(fileURLWithPath: NSTemporaryDirectory()))
        stage.extensionType = NotificationService.self
        let note = stage.run(try payload(url.absoluteString))
        #expect(note.title == "Sunset [modified]")
        #expect(note.attachments.first?.bytes == image && note.trace.level == .full && note.trace.ran)
    }

    @Test func bestAttemptOnExpiry() throws {
        let (url, server) = try serve(try realJPEG(), delay: 5)
        defer { server.terminate() }
        var stage = try ServiceStage(projectFolder: URL(fileURLWithPath: NSTemporaryDirectory()))
        stage.extensionType = NotificationService.self
        stage.settings.timeBudget = 1.5
        let start = Date()
        let note = stage.run(try payload(url.absoluteString))
        #expect(Date().timeIntervalSince(start) < 2.5)
        #expect(note.title == "Sunset [modified]" && note.attachments.isEmpty && note.trace.level == .textOnly)
    }

    @Test func handlerNeverCalledShowsTheOriginal() throws {
        var stage = try ServiceStage(projectFolder: URL(fileURLWithPath: NSTemporaryDirectory()))
        stage.extensionType = SilentService.self
        stage.settings.timeBudget = 0.5
        let note = stage.run(try payload("http://127.0.0.1:1/x.jpg"))
        #expect(note.title == "Sunset" && note.trace.level == .original)
        #expect(note.trace.steps.contains { $0.step == "deliver" && $0.outcome == "original" })
    }

    func realJPEG() throws -> [UInt8] {
        // The Examples photo: a real JPEG that the attachment check decodes.
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Examples/media/harbor-sunset.jpg").standardized
        return [UInt8](try Data(contentsOf: url))
    }
}
