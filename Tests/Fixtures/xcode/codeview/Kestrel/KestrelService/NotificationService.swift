import UserNotifications

final class NotificationService: UNNotificationServiceExtension {
    private var contentHandler: ((UNNotificationContent) -> Void)?
    private var bestAttempt: UNMutableNotificationContent?

    override func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
        self.contentHandler = contentHandler
        bestAttempt = request.content.mutableCopy() as? UNMutableNotificationContent
        guard let bestAttempt else { return contentHandler(request.content) }
        guard let link = request.content.userInfo["map"] as? String, let url = URL(string: link) else {
            return contentHandler(bestAttempt)
        }
        URLSession.shared.downloadTask(with: url) { location, _, _ in
            if let location, let map = try? UNNotificationAttachment(identifier: "map", url: location) {
                bestAttempt.attachments = [map]
            }
            contentHandler(bestAttempt)
        }.resume()
    }

    override func serviceExtensionTimeWillExpire() {
        if let contentHandler, let bestAttempt { contentHandler(bestAttempt) }
    }
}
