import UIKit
import UserNotifications
import UserNotificationsUI

final class NotificationViewController: UIViewController, UNNotificationContentExtension {
    private let heightLabel = UILabel()

    func didReceive(_ notification: UNNotification) {
        heightLabel.text = notification.request.content.userInfo["height"] as? String
    }
}
