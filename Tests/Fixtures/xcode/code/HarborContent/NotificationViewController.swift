import UIKit
import UserNotifications
import UserNotificationsUI

class NotificationViewController: UIViewController, UNNotificationContentExtension {
    @IBOutlet var titleLabel: UILabel!
    @IBOutlet var bodyLabel: UILabel?
    @IBOutlet weak var senderLabel: UILabel!
    @IBOutlet weak var gateLabel: UILabel!
    @IBOutlet weak var photoView: UIImageView!

    func didReceive(_ notification: UNNotification) {
        let content = notification.request.content
        titleLabel.text = content.title
        self.bodyLabel?.text = notification.request.content.body
        senderLabel.text = content.userInfo[PayloadKey.sender] as? String
        if let trip = content.userInfo["trip"] as? [String: Any], let gate = trip["gate"] as? String {
            gateLabel.text = gate
        }
        let badgeColor = (content.userInfo["badge"] as? [String: Any])?["color"] as? String
        view.tintColor = UIColor(named: badgeColor ?? "AccentColor")
        if let attachment = content.attachments.first, attachment.url.startAccessingSecurityScopedResource() {
            photoView.image = UIImage(contentsOfFile: attachment.url.path)
            attachment.url.stopAccessingSecurityScopedResource()
        }
    }
}

enum PayloadKey {
    static let sender = "sender_name"
}
