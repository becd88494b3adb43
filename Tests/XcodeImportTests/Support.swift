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
