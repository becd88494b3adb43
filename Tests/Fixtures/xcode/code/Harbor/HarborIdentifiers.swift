/// Identifiers the app and its extensions share; this file says nothing about notifications
/// itself, so the importer reads it only because the categories use its names.
enum HarborIdentifiers {
    static let accept = "INVITE_ACCEPT"
    static let decline = prefix + "DECLINE"
    static let prefix = "INVITE_"
}

let harborAlertCategory = "ALERT"
