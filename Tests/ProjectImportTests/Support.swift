import Foundation

/// The repository's root, for fixtures under Tests/Fixtures/xcode.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardizedFileURL
let xcodeFixtures = repositoryRoot.appendingPathComponent("Tests/Fixtures/xcode")

/// A fresh folder under the system's temporary folder.
func temporaryFolder(_ name: String = #function) -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("pushpreview-xcode-\(getpid())-\(name.filter(\.isLetter))-\(UUID().uuidString.prefix(8))")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// The folder of an XcodeGen spec with an app `app` and one extension `ext` it embeds (its
/// Info.plist at `EXT/Info.plist`, holding `plistDict`'s keys), with `files` beside them.
func appWithExtension(_ app: String, _ ext: String, plistDict: String, files: [String: String], name: String = #function) throws -> URL {
    let id = "com.example.\(app.lowercased())"
    return try XcodeGenTests.spec([
        "project.yml": """
        name: \(app)
        targets:
          \(app):
            type: application
            platform: iOS
            sources: [\(app)]
            settings:
              PRODUCT_BUNDLE_IDENTIFIER: \(id)
            dependencies:
              - target: \(ext)
          \(ext):
            type: app-extension
            platform: iOS
            sources: [\(ext)]
            settings:
              PRODUCT_BUNDLE_IDENTIFIER: \(id).\(ext.lowercased())
              INFOPLIST_FILE: \(ext)/Info.plist
        """,
        "\(app)/App.swift": "import SwiftUI\n@main struct TheApp: App { var body: some Scene { WindowGroup { Text(\"\(app)\") } } }\n",
        "\(ext)/Info.plist": "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\"><dict><key>NSExtension</key><dict>\(plistDict)</dict></dict></plist>\n",
    ].merging(files) { $1 }, name: name).deletingLastPathComponent()
}

