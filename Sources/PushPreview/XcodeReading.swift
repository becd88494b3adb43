import Checked
import ContentStage
import Diagnostics
import Formats
import Foundation
import ProjectImport

/// What a run takes from the Xcode app `"xcode"` names: plain values, so that the reading can be
/// done in a worker of its own (`ContainedTask.readProject`) and sent back to the supervisor.
struct XcodeReading: Codable, Sendable {
    var displayName: String?
    var bundleID: String?
    var appIcon: AppIconFiles?
    var iconProblems: [String] = []
    var fonts: [URL] = []
    var stringsFolders: [URL] = []
    var problems: [String] = []
    /// The project's definition files and the targets' Info.plists, for `--incremental`.
    var inputs: [URL] = []
    /// The content extensions' Info.plists as their build makes them.
    var contentExtensions: [ContentExtensionPlist] = []

    struct ContentExtensionPlist: Codable, Sendable {
        var file: String
        var root: PropertyListValue
    }

    init(_ path: URL, settingsFile: String) throws(ProjectError) {
        Activity.now("reading the Xcode project \(path.path)")
        let app: XcodeApp
        do { app = try XcodeApp(path: path) } catch { throw ProjectError(Diagnostic(.error, code: .xcode, file: settingsFile, keyPath: "xcode", error.description)) }
        problems = app.problems
        displayName = app.displayName
        bundleID = app.bundleID
        switch app.appIcon(problems: &iconProblems) {
        case .set(let set)?: if let light = set.light ?? set.dark { appIcon = AppIconFiles(light: light, dark: set.dark, tinted: set.tinted) }
        case .composer(let icon)?: appIcon = AppIconComposition.files(icon, problems: &iconProblems)
        case nil: break
        }
        fonts = app.fonts(problems: &problems)
        stringsFolders = app.stringsFolders(problems: &problems)
        let plists = ([app.app].compactMap { $0 } + app.extensions.map(\.target)).compactMap { $0.configuration()?["INFOPLIST_FILE"] }.filter { !$0.isEmpty }
            .compactMap { var said: [String] = []; return app.file($0, problems: &said) }  // confined, as every read is
        inputs = app.project.definitionFiles + plists
        for ext in app.extensions where ext.isContent {
            let file = ext.infoPlistFile?.path ?? "\(ext.target.name)'s generated Info.plist"
            contentExtensions.append(.init(file: file, root: ext.infoPlist))
        }
    }

    /// The content extensions' Info.plists as `ContentConfiguration` reads them.
    var extensionPlists: [ContentConfiguration.InfoPlist] {
        contentExtensions.map { ContentConfiguration.InfoPlist(file: $0.file, root: $0.root) }
    }
}
