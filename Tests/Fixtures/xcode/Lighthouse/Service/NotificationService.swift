import UserNotifications

final class NotificationService: UNNotificationServiceExtension {
    var contentHandler: ((UNNotificationContent) -> Void)?
    var bestAttempt: UNMutableNotificationContent?

    override func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
        self.contentHandler = contentHandler
        bestAttempt = request.content.mutableCopy() as? UNMutableNotificationContent
        guard let bestAttempt, let chart = request.content.userInfo["chart-url"] as? String, let url = URL(string: chart) else {
            contentHandler(request.content)
            return
        }
        URLSession.shared.downloadTask(with: url) { file, _, _ in
            if let file, let attachment = try? UNNotificationAttachment(identifier: "chart", url: file) {
                bestAttempt.attachments = [attachment]
            }
            contentHandler(bestAttempt)
        }.resume()
    }

    override func serviceExtensionTimeWillExpire() {
        if let contentHandler, let bestAttempt { contentHandler(bestAttempt) }
    }
}
