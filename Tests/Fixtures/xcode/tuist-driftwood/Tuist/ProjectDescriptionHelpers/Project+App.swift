import ProjectDescription

public extension Project {
    /// The app, the extensions it embeds, its frameworks and its tests.
    static func app(name: String, displayName: String, extensions: [Target], frameworks: [String] = ["DriftwoodKit"]) -> Project {
        var targets: [Target] = [
            .target(
                name: name,
                destinations: .iOS,
                product: .app,
                bundleId: Constants.bundleId,
                infoPlist: .extendingDefault(with: [
                    "CFBundleDisplayName": .string(displayName),
                    "UILaunchScreen": [:],
                    "UIBackgroundModes": ["remote-notification"],
                ]),
                sources: ["\(name)/Sources/**"],
                resources: ["\(name)/Resources/**"],
                dependencies: extensions.map { .target(name: $0.name) } + frameworks.map { .target(name: $0) },
                settings: .settings(base: ["MARKETING_VERSION": "3.1", "ENABLE_USER_SCRIPT_SANDBOXING": true])
            ),
        ]
        targets += extensions
        targets += frameworks.map { framework(name: $0) }
        targets.append(
            .target(name: "\(name)Tests", destinations: .iOS, product: .unitTests, bundleId: "\(Constants.bundleId).tests",
                    sources: ["\(name)/Tests/**"], dependencies: [.target(name: name)])
        )
        return Project(
            name: name,
            organizationName: Constants.organizationName,
            options: .options(developmentRegion: "en"),
            settings: .settings(base: ["SWIFT_VERSION": "5.9"], debug: ["SWIFT_ACTIVE_COMPILATION_CONDITIONS": "DEBUG"]),
            targets: targets
        )
    }

    static func framework(name: String) -> Target {
        .target(name: name, destinations: .iOS, product: .framework, bundleId: "\(Constants.bundleId).\(name.lowercased())",
                sources: ["\(name)/Sources/**"])
    }
}
