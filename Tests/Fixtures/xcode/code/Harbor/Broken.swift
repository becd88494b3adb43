import UserNotifications

let beforeTheError = UNNotificationCategory(identifier: "BEFORE_ERROR", actions: [], intentIdentifiers: [], options: [])

func halfWritten( {
    let lost = UNNotificationCategory(identifier: "LOST", actions: [], intentIdentifiers: [], options: [])
}

let afterTheError = UNNotificationCategory(identifier: "AFTER_ERROR", actions: [], intentIdentifiers: [], options: [])
