import ProjectDescription
import ProjectDescriptionHelpers

// The app and its two notification extensions; the helpers make each target.
let appName = "Driftwood"

let project = Project.app(
    name: appName,
    displayName: "Driftwood Tides",
    extensions: [
        .notificationContent(name: "\(appName)Content", categories: ["TIDE_ALERT", "SWELL_REPORT"]),
        .notificationService(name: "\(appName)Service"),
    ]
)
