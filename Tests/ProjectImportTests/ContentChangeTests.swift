import Foundation
import Payload
import Testing
@testable import ProjectImport
import Formats

/// What a service extension's code sets on the content, read from sources in the shapes Xcode's
/// own templates and real apps have (written here): followed into `set` templates where the value
/// is text, the content's fields and userInfo; said with file and line where it is not.
struct ContentChangeTests {
    static func read(_ files: [String: String], name: String = #function) throws -> CodeImport {
        let root = temporaryFolder(name)
        var urls: [URL] = []
        for (path, text) in files.sorted(by: { $0.key < $1.key }) {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
            urls.append(url)
        }
        return CodeImport.read(urls, root: root)
    }

    /// Xcode's Swift template, with a badge, a sound and a body the app computes.
    @Test func swiftTemplateAndMore() throws {
        let code = try Self.read(["NotificationService.swift": """
            import UserNotifications

            class NotificationService: UNNotificationServiceExtension {
                var contentHandler: ((UNNotificationContent) -> Void)?
                var bestAttemptContent: UNMutableNotificationContent?

                override func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
                    self.contentHandler = contentHandler
                    bestAttemptContent = (request.content.mutableCopy() as? UNMutableNotificationContent)
                    if let bestAttemptContent = bestAttemptContent {
                        bestAttemptContent.title = "\\(bestAttemptContent.title) [modified]"
                        bestAttemptContent.subtitle = request.content.userInfo["room"] as? String ?? "General"
                        bestAttemptContent.badge = NSNumber(value: 3)
                        bestAttemptContent.sound = .default
                        bestAttemptContent.body = Formatter.shared.describe(request.content.userInfo)
                        let updated = try? bestAttemptContent.updating(from: intent)
                        contentHandler(bestAttemptContent)
                    }
                }
            }
            """])
        let changes = code.contentChanges
        #expect(changes.map(\.field) == ["title", "subtitle", "badge", "sound", "body", "communication"], "\(changes)")
        #expect(changes.map(\.line) == [11, 12, 13, 14, 15, 16])
        #expect(changes[5].template == nil && changes[5].code.contains("updating"))
        #expect(changes[0].template == "{{title}} [modified]")
        #expect(changes[1].template == "{{#userInfo.room}}{{userInfo.room}}{{/userInfo.room}}{{^userInfo.room}}General{{/userInfo.room}}")
        #expect(changes[2].template == "3" && changes[3].template == "default")
        #expect(changes[4].template == nil && changes[4].file == "NotificationService.swift" && changes[4].code.contains("Formatter.shared.describe"), "\(changes[4])")
    }

    /// Xcode's Objective-C template.
    @Test func objectiveCTemplate() throws {
        let code = try Self.read(["NotificationService.m": """
            #import "NotificationService.h"

            @implementation NotificationService

            - (void)didReceiveNotificationRequest:(UNNotificationRequest *)request withContentHandler:(void (^)(UNNotificationContent * _Nonnull))contentHandler {
                self.contentHandler = contentHandler;
                self.bestAttemptContent = [request.content mutableCopy];
                self.bestAttemptContent.title = [NSString stringWithFormat:@"%@ [modified]", self.bestAttemptContent.title];
                self.bestAttemptContent.sound = [UNNotificationSound soundNamed:@"bell.caf"];
                self.contentHandler(self.bestAttemptContent);
            }

            @end
            """])
        #expect(code.contentChanges.map(\.template) == ["{{title}} [modified]", "bell.caf"], "\(code.contentChanges.map { ($0.code, $0.line) })")
        #expect(code.contentChanges.first?.line == 8)
    }

    /// A content view's own labels are no change to the content; a title from a function is not followed.
    @Test func onlyTheDeliveredContentCounts() throws {
        let code = try Self.read(["Views.swift": """
            import UserNotifications
            import UIKit

            final class NotificationViewController: UIViewController {
                let titleLabel = UILabel()
                func didReceive(_ notification: UNNotification) {
                    titleLabel.text = notification.request.content.title
                    let content = notification.request.content.mutableCopy() as! UNMutableNotificationContent
                    content.title = makeTitle(notification.request.content.userInfo)
                }
            }
            """])
        #expect(code.contentChanges.count == 1 && code.contentChanges[0].template == nil && code.contentChanges[0].line == 9, "\(code.contentChanges)")
    }

    /// init writes what it follows as `set` and lists the rest as codeChanges, each with where.
    @Test func initWritesSetAndCodeChanges() throws {
        let root = try appWithExtension("Chat", "NotificationService", plistDict: """
            <key>NSExtensionPointIdentifier</key><string>com.apple.usernotifications.service</string>
            <key>NSExtensionPrincipalClass</key><string>NotificationService</string>
            """, files: [
            "NotificationService/NotificationService.swift": """
            import UserNotifications

            class NotificationService: UNNotificationServiceExtension {
                override func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
                    guard let content = request.content.mutableCopy() as? UNMutableNotificationContent else { return }
                    content.title = "\\(content.title) [modified]"
                    content.body = Formatter.shared.describe(request.content.userInfo)
                    contentHandler(content)
                }
            }
            """,
        ])
        let plan = try ProjectInit(path: root)
        let text = try #require(plan.files.first { $0.path == "pushpreview.json" }?.text)
        let settings = try JSONParser.parse(Array(text.utf8), file: "pushpreview.json")
        #expect(settings["set"]?["title"] == .string("{{title}} [modified]"), "\(text)")
        #expect(settings["codeChanges"] == .array([.object([("field", .string("body")), ("at", .string("../NotificationService/NotificationService.swift:7")),
                                                            ("code", .string("content.body = Formatter.shared.describe(request.content.userInfo)"))])]), "\(text)")
        #expect(plan.found.contains("NotificationService/NotificationService.swift:6: content.title = \"\\(content.title) [modified]\" → \"set\": {\"title\": \"{{title}} [modified]\"}"), "\(plan.found)")
        #expect(plan.problems.contains { $0.hasPrefix("NotificationService/NotificationService.swift:7: NotificationService sets body in code PushPreview does not follow") }, "\(plan.problems)")
    }
}
