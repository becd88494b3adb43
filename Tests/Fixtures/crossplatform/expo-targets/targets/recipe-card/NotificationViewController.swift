import UIKit
import UserNotifications
import UserNotificationsUI

class NotificationViewController: UIViewController, UNNotificationContentExtension {
    private let titleLabel = UILabel()
    private let timeLabel = UILabel()
    private let photo = UIImageView()

    override func viewDidLoad() {
        super.viewDidLoad()
        let stack = UIStackView(arrangedSubviews: [photo, titleLabel, timeLabel])
        stack.axis = .vertical
        stack.spacing = 8
        view.addSubview(stack)
    }

    func didReceive(_ notification: UNNotification) {
        let info = notification.request.content.userInfo
        titleLabel.text = info[RecipeKeys.recipe] as? String
        if let minutes = info["minutes"] as? Int { timeLabel.text = "\(minutes) min" }
        if let attachment = notification.request.content.attachments.first, attachment.url.startAccessingSecurityScopedResource() {
            photo.image = UIImage(contentsOfFile: attachment.url.path)
            attachment.url.stopAccessingSecurityScopedResource()
        }
    }
}
