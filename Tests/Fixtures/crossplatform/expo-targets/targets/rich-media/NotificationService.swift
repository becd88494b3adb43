import UserNotifications

class NotificationService: UNNotificationServiceExtension {
    var contentHandler: ((UNNotificationContent) -> Void)?
    var bestAttemptContent: UNMutableNotificationContent?

    override func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
        self.contentHandler = contentHandler
        bestAttemptContent = (request.content.mutableCopy() as? UNMutableNotificationContent)
        guard let content = bestAttemptContent,
              let string = content.userInfo["image_url"] as? String, let url = URL(string: string) else {
            contentHandler(request.content)
            return
        }
        URLSession.shared.downloadTask(with: url) { location, _, _ in
            if let location, let attachment = try? UNNotificationAttachment(identifier: "photo", url: location) {
                content.attachments = [attachment]
            }
            contentHandler(content)
        }.resume()
    }

    override func serviceExtensionTimeWillExpire() {
        if let contentHandler, let bestAttemptContent { contentHandler(bestAttemptContent) }
    }
}
