import UIKit
import UserNotifications

/// Harbor's categories, registered at launch (the shapes real apps use: enum raw values, local
/// actions, a category made in a closure, a list built up with append, a computed property).
enum HarborCategory: String, CaseIterable {
    case message = "MESSAGE"
    case invitation
}

enum MessageAction: String {
    case reply = "REPLY"
    case like = "LIKE"
    case mute
}

final class NotificationSetup {
    static let shared = NotificationSetup()

    func registerCategories() {
        let center = UNUserNotificationCenter.current()
        let reply = UNTextInputNotificationAction(
            identifier: MessageAction.reply.rawValue,
            title: NSLocalizedString("action.reply", tableName: "Notifications", value: "Reply", comment: "Button: reply to a message"),
            options: [.authenticationRequired],
            icon: UNNotificationActionIcon(systemImageName: "arrowshape.turn.up.left"),
            textInputButtonTitle: NSLocalizedString("action.reply.send", comment: ""),
            textInputPlaceholder: String(localized: "action.reply.placeholder"))
        let like = UNNotificationAction(identifier: MessageAction.like.rawValue, title: "👍 Like", options: [])
        let muteIcon = UNNotificationActionIcon(templateImageName: "bell.slash.harbor")
        let mute = UNNotificationAction(identifier: MessageAction.mute.rawValue, title: String(localized: "action.mute", table: "Notifications"),
                                        options: [.destructive, .authenticationRequired], icon: muteIcon)

        let message = UNNotificationCategory(
            identifier: HarborCategory.message.rawValue,
            actions: [reply, like, mute],
            intentIdentifiers: [],
            hiddenPreviewsBodyPlaceholder: NSLocalizedString("%u new messages", comment: ""),
            categorySummaryFormat: "%u more messages from %@",
            options: [.customDismissAction, .hiddenPreviewsShowTitle])

        let invitation: UNNotificationCategory = {
            let accept = UNNotificationAction(identifier: HarborIdentifiers.accept, title: NSLocalizedString("Accept", comment: "Accept an invitation"), options: .foreground)
            let decline = UNNotificationAction(identifier: HarborIdentifiers.decline, title: "Decline", options: UNNotificationActionOptions(rawValue: 2))
            return UNNotificationCategory(identifier: HarborCategory.invitation.rawValue, actions: [accept, decline], intentIdentifiers: [], options: .init())
        }()

        var alertActions: [UNNotificationAction] = []
        alertActions.append(UNNotificationAction(identifier: "ACK", title: "Acknowledge", options: []))
        #if DEBUG
        alertActions.append(UNNotificationAction(identifier: "DEBUG_DUMP", title: "Dump state", options: [.foreground]))
        #else
        alertActions.append(UNNotificationAction(identifier: "RELEASE_ONLY", title: "Never in a debug build", options: []))
        #endif
        let alert = UNNotificationCategory(identifier: harborAlertCategory, actions: alertActions, intentIdentifiers: [])

        center.setNotificationCategories(Set([message, invitation, alert, Self.tripCategory]))
    }

    static var tripCategory: UNNotificationCategory {
        UNNotificationCategory(identifier: "TRIP", actions: [UNNotificationAction(identifier: "TRIP_OPEN", title: "trip.open".localized, options: [.foreground])],
                               intentIdentifiers: [], options: [])
    }

    /// Categories the server describes: nothing in the code says what they are.
    func registerServerCategories(_ descriptions: [ServerCategory]) {
        let made = descriptions.map { d in
            UNNotificationCategory(identifier: d.id.uppercased(), actions: d.actions.map(\.action), intentIdentifiers: [], options: [])
        }
        UNUserNotificationCenter.current().setNotificationCategories(Set(made))
    }

    func snoozeCategory(minutes: Int) -> UNNotificationCategory {
        let snooze = UNNotificationAction(identifier: "SNOOZE_\(minutes)", title: "Snooze", options: [])
        let later = UNNotificationAction(identifier: "LATER", title: snoozeTitle(60), options: [])
        return UNNotificationCategory(identifier: "SNOOZE", actions: [snooze, later], intentIdentifiers: [], options: [.allowInCarPlay])
    }
}
