import Foundation
import UserNotifications

/// The categories the keeper's app registers at launch.
enum LighthouseCategory: String {
    case storm = "STORM_WARNING"
    case tide = "TIDE_TABLE"
}

enum ActionID {
    static let acknowledge = "ACKNOWLEDGE"
    static let reply = "REPLY"
    static let mute = "MUTE_FOR_DAY"
}

enum NotificationCategories {
    static var all: Set<UNNotificationCategory> {
        let acknowledge = UNNotificationAction(identifier: ActionID.acknowledge,
                                               title: NSLocalizedString("action.acknowledge", comment: "Acknowledge a storm warning"),
                                               options: [.authenticationRequired],
                                               icon: UNNotificationActionIcon(systemImageName: "checkmark.circle"))
        let reply = UNTextInputNotificationAction(identifier: ActionID.reply,
                                                  title: String(localized: "action.reply"),
                                                  options: [],
                                                  textInputButtonTitle: "Send",
                                                  textInputPlaceholder: "Message the keeper")
        let mute = UNNotificationAction(identifier: ActionID.mute, title: "Mute for a day", options: [.destructive])
        let storm = UNNotificationCategory(identifier: LighthouseCategory.storm.rawValue,
                                           actions: [acknowledge, reply, mute],
                                           intentIdentifiers: [],
                                           hiddenPreviewsBodyPlaceholder: "Storm warning",
                                           options: [.customDismissAction])
        let tide = UNNotificationCategory(identifier: LighthouseCategory.tide.rawValue, actions: [mute], intentIdentifiers: [], options: [])
        return [storm, tide]
    }
}
