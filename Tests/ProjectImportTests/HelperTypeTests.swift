import Foundation
import Testing
@testable import ProjectImport

/// A service extension that reads its payload through a type of its own (a struct made from
/// userInfo, whose properties the extension downloads): the keys it makes URLs of are still found.
struct HelperTypeTests {
    @Test func propertiesOfAnInstanceMadeFromUserInfo() throws {
        let code = try ContentChangeTests.read([
            "PushPayload.swift": """
            import Foundation

            struct PushPayload {
                let userInfo: [AnyHashable: Any]
                let iconURL: String?
                init(userInfo: [AnyHashable: Any]) {
                    self.userInfo = userInfo
                    self.iconURL = userInfo["icon"] as? String
                }
                var heroURL: String? { userInfo["hero"] as? String }
            }
            """,
            "NotificationService.swift": """
            import UserNotifications

            class NotificationService: UNNotificationServiceExtension {
                override func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
                    let payload = PushPayload(userInfo: request.content.userInfo)
                    if let icon = payload.iconURL, let url = URL(string: icon) { fetch(url) }
                    if let hero = payload.heroURL, let url = URL(string: hero) { fetch(url) }
                    let content = request.content.mutableCopy() as! UNMutableNotificationContent
                    contentHandler(content)
                }
            }
            """,
        ])
        #expect(code.userInfoTypes["icon"] == .url, "\(code.userInfoKeys) \(code.userInfoTypes) \(code.problems)")
        #expect(code.userInfoTypes["hero"] == .url, "\(code.userInfoKeys) \(code.userInfoTypes)")
    }
}
