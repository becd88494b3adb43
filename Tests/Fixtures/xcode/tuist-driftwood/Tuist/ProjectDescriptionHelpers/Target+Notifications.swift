import ProjectDescription

public extension Target {
    /// A content extension: Tuist writes its Info.plist from these keys.
    static func notificationContent(name: String, categories: [String]) -> Target {
        .target(
            name: name,
            destinations: .iOS,
            product: .appExtension,
            bundleId: "\(Constants.bundleId).content",
            infoPlist: .extendingDefault(with: [
                "CFBundleDisplayName": "$(PRODUCT_NAME)",
                "NSExtension": [
                    "NSExtensionPointIdentifier": "com.apple.usernotifications.content-extension",
                    "NSExtensionPrincipalClass": "$(PRODUCT_MODULE_NAME).NotificationViewController",
                    "NSExtensionAttributes": [
                        "UNNotificationExtensionCategory": .array(categories.map { .string($0) }),
                        "UNNotificationExtensionInitialContentSizeRatio": 0.6,
                        "UNNotificationExtensionDefaultContentHidden": false,
                    ],
                ],
            ]),
            sources: ["\(name)/Sources/**"],
            resources: ["\(name)/Resources/**"]
        )
    }

    /// A service extension with its own Info.plist file; the debug helpers are left out.
    static func notificationService(name: String) -> Target {
        .target(
            name: name,
            destinations: .iOS,
            product: .appExtension,
            bundleId: "\(Constants.bundleId).service",
            infoPlist: .file(path: "\(name)/Info.plist"),
            sources: .sourceFilesList(globs: [.glob("\(name)/Sources/**", excluding: ["\(name)/Sources/Debug/**"])])
        )
    }
}
