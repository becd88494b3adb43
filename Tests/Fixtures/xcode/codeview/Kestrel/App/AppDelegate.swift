import UIKit
import UserNotifications

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        let checkIn = UNNotificationAction(identifier: "CHECK_IN", title: "Check in", options: [.foreground])
        let flight = UNNotificationCategory(identifier: "FLIGHT", actions: [checkIn], intentIdentifiers: [])
        UNUserNotificationCenter.current().setNotificationCategories([flight])
        return true
    }
}
