import UIKit
import UserNotifications
import UserNotificationsUI

final class NotificationViewController: UIViewController, UNNotificationContentExtension {
    @IBOutlet var headlineLabel: UILabel!
    @IBOutlet var detailLabel: UILabel!
    @IBOutlet var windLabel: UILabel!

    func didReceive(_ notification: UNNotification) {
        let content = notification.request.content
        headlineLabel.text = content.title
        detailLabel.text = content.body
        if let wind = content.userInfo["wind"] as? String {
            windLabel.text = wind
        }
        if let station = content.userInfo["station"] as? [String: Any], let name = station["name"] as? String {
            title = name
        }
    }
}
