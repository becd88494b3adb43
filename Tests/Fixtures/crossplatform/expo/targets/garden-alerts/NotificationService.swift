import UserNotifications

class NotificationService: UNNotificationServiceExtension {}
