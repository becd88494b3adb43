import UserNotificationsUI

final class NotificationViewController: UIViewController, UNNotificationContentExtension {}
