import UIKit
import UserNotifications

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        let snooze = UNNotificationAction(identifier: "SNOOZE", title: NSLocalizedString("Snooze", comment: "action"), options: [])
        let tide = UNNotificationCategory(identifier: "TIDE_ALERT", actions: [snooze], intentIdentifiers: [], options: [])
        let swell = UNNotificationCategory(identifier: "SWELL_REPORT", actions: [], intentIdentifiers: [], options: [])
        UNUserNotificationCenter.current().setNotificationCategories([tide, swell])
        return true
    }
}
