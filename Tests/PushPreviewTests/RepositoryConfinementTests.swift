import Checked
import ConfinedFiles
import Foundation
import PushPreview
import Testing
import ProjectImport

/// Issues 22 and 23: one rule for every path the Xcode model names (`Repository`) — resolved as
/// the kernel opens it, matched ignoring case as a macOS volume does, never outside the
/// repository — judged by evidence: the outside file is watched (`Canary`) and never opened, its
/// name is on no page, and what was refused is said.
struct RepositoryConfinementTests {
    static func symlink(_ at: URL, to target: String) throws {
        try? FileManager.default.removeItem(at: at)
        try FileManager.default.createSymbolicLink(atPath: at.path, withDestinationPath: target)
    }

    /// The resolution itself, on a small tree: `..` after a symlink, escapes, case, loops, bad paths.
    @Test func resolution() throws {
        let top = temporaryFolder()
        let repo = top.appendingPathComponent("repo")
        for dir in [".git", "ios/App.xcodeproj", "a/b", "Folder", "DUP", "dup"] {
            try FileManager.default.createDirectory(at: repo.appendingPathComponent(dir), withIntermediateDirectories: true)
        }
        for file in ["a/file", "a/b/inner", "Folder/x", "DUP/x", "dup/x"] { try Data("x".utf8).write(to: repo.appendingPathComponent(file)) }
        try FileManager.default.createDirectory(at: top.appendingPathComponent("outside"), withIntermediateDirectories: true)
        try Data("secret".utf8).write(to: top.appendingPathComponent("outside/secret"))
        try Self.symlink(repo.appendingPathComponent("link"), to: "a/b")
        try Self.symlink(repo.appendingPathComponent("out"), to: "../outside")
        try Self.symlink(repo.appendingPathComponent("loop1"), to: "loop2")
        try Self.symlink(repo.appendingPathComponent("loop2"), to: "loop1")

        // The nearest folder holding .git, from a project deep inside it.
        let repository = Repository(around: repo.appendingPathComponent("ios/App.xcodeproj"))
        #expect(repository.root.path == repo.path)
        #expect(Repository(around: top.appendingPathComponent("outside")).root.path == top.appendingPathComponent("outside").path, "no .git: the folder itself")

        func resolve(_ path: String) -> Result<Repository.Resolved, Repository.Refusal> { repository.resolve(path, relativeTo: repo.appendingPathComponent("ios")) }
        // `..` after a symlink is the link's target's parent, as the kernel has it (a/file, not repo/file).
        #expect(try resolve("../link/../file").get().url.path == repo.appendingPathComponent("a/file").path)
        #expect(try resolve("../a/b/inner").get().respelled == nil)
        for escape in ["../../outside/secret", "../out/secret", "/etc/passwd", "../../../../../../..", "../a/../../outside/secret"] {
            guard case .failure(.outside) = resolve(escape) else { Issue.record("\(escape) was not refused: \(resolve(escape))"); continue }
        }
        // Case: the one entry that matches, said with both spellings; two that match are refused.
        let respelled = try resolve("../folder/X").get()
        #expect(respelled.url.path == repo.appendingPathComponent("Folder/x").path)
        #expect(respelled.respelled?.spelled == repo.appendingPathComponent("folder").path && respelled.respelled?.onDisk == repo.appendingPathComponent("Folder").path)
        #expect(try resolve("../dup/x").get().respelled == nil, "an exact spelling is taken as it is")
        #expect(resolve("../Dup/x") == .failure(.ambiguous([repo.appendingPathComponent("DUP").path, repo.appendingPathComponent("dup").path])))
        #expect(resolve("../loop1/x") == .failure(.loop))
        #expect(resolve("../a\0b") == .failure(.nul))
        #expect(resolve(String(repeating: "a/", count: 2100)) == .failure(.tooLong))
        #expect(resolve(String(repeating: "n", count: 300)) == .failure(.tooLong))
        // A file that does not exist yet is still a path inside (and its case is not guessed).
        #expect(try resolve("../new/file.txt").get().url.path == repo.appendingPathComponent("new/file.txt").path)

        var problems: [String] = []
        #expect(repository.file("../../outside/secret", relativeTo: repo.appendingPathComponent("ios"), namedIn: "App.xcodeproj", problems: &problems) == nil)
        #expect(repository.file("../folder/x", relativeTo: repo.appendingPathComponent("ios"), namedIn: "App.xcodeproj", problems: &problems) != nil)
        #expect(repository.file("../folder/x", relativeTo: repo.appendingPathComponent("ios"), namedIn: "App.xcodeproj", problems: &problems) != nil)
        #expect(problems == ["App.xcodeproj: ../../outside/secret lies outside the repository \(repo.path) (it resolves to \(top.path)/outside/secret); not read",
                             "App.xcodeproj: folder is spelled Folder on disk; read as a macOS volume (which ignores case) finds it, but Linux and case-sensitive volumes do not: rename one to match"],
                "each said once: \(problems)")
    }

    /// The Lighthouse repository with one of its files leading out to a watched file: Info.plist
    /// by `../`, by `$(SRCROOT)/..`, by a symlink; the icon, the String Catalog, a strings table and
    /// a colour set by symlinks. `init`, the project read and `render` run; it is never opened.
    @Test func nothingOutsideTheRepositoryIsOpened() throws {
        let pbxproj = "Lighthouse.xcodeproj/project.pbxproj"
        let escapes: [(name: String, outside: String, make: (URL, URL) throws -> Void)] = [
            ("INFOPLIST_FILE ../", "Info.plist", { root, _ in try Self.edit(root, pbxproj, "INFOPLIST_FILE = App/Info.plist;", "INFOPLIST_FILE = ../outside/Info.plist;") }),
            ("INFOPLIST_FILE $(SRCROOT)/..", "Info.plist", { root, _ in try Self.edit(root, pbxproj, "INFOPLIST_FILE = App/Info.plist;", #"INFOPLIST_FILE = "$(SRCROOT)/../outside/Info.plist";"#) }),
            ("a symlinked Info.plist", "Info.plist", { root, out in try Self.symlink(root.appendingPathComponent("App/Info.plist"), to: out.appendingPathComponent("Info.plist").path) }),
            ("a symlinked icon", "AppIcon.png", { root, _ in try Self.symlink(root.appendingPathComponent("App/Assets.xcassets/AppIcon.appiconset/AppIcon.png"), to: "../../../../outside/AppIcon.png") }),
            ("a symlinked String Catalog", "Localizable.xcstrings", { root, _ in try Self.symlink(root.appendingPathComponent("App/Localizable.xcstrings"), to: "../../outside/Localizable.xcstrings") }),
            ("a symlinked strings table", "InfoPlist.strings", { root, _ in try Self.symlink(root.appendingPathComponent("App/nl.lproj/InfoPlist.strings"), to: "../../../outside/InfoPlist.strings") }),
            ("a symlinked colour set", "Contents.json", { root, _ in try Self.symlink(root.appendingPathComponent("App/Assets.xcassets/Beam.colorset/Contents.json"), to: "../../../../outside/Contents.json") }),
        ]
        for escape in escapes {
            let repo = try XcodeRunTests.Repo(escape.name)
            let outside = repo.root.deletingLastPathComponent().appendingPathComponent("outside")
            try escape.make(repo.root, outside)
            let canary = Canary(outside.appendingPathComponent(escape.outside))
            let plan = try ProjectInit(path: repo.root.appendingPathComponent("Lighthouse.xcodeproj"), folder: repo.root.appendingPathComponent("init"))
            let project = try Project(folder: repo.project)
            let results = try repo.render(["--locale", "nl"])
            #expect(canary.opened() == 0, "\(escape.name): the file outside was opened")
            let said = plan.problems + project.issues.map(\.description) + results.flatMap(\.warnings)
            #expect(said.contains { $0.contains("lies outside the repository") || $0.contains("leads outside") }, "\(escape.name): \(said)")
            #expect(!results.isEmpty && results.allSatisfy { $0.outputs.count > 0 }, "\(escape.name): the rest is still drawn")
        }
    }

    /// An Info.plist outside with its own app name: the name is on no page, and the refusal is a
    /// project warning; the app's generated name is drawn.
    /// In a checkout, `"xcode"` itself must name a project of that checkout: a pull request's
    /// pushpreview.json cannot send the reading to another repository on the runner.
    @Test func theXcodeSettingStaysInTheCheckout() throws {
        let base = temporaryFolder()
        let checkout = base.appendingPathComponent("checkout"), other = base.appendingPathComponent("other")
        for folder in [checkout.appendingPathComponent(".git"), checkout.appendingPathComponent("pp"), other] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        try FileManager.default.copyItem(at: repositoryRoot.appendingPathComponent("Tests/Fixtures/xcode/Lighthouse"), to: other.appendingPathComponent("Lighthouse"))
        try Data(#"{"xcode": "../../other/Lighthouse/Lighthouse.xcodeproj"}"#.utf8).write(to: checkout.appendingPathComponent("pp/pushpreview.json"))
        #expect(throws: ProjectError.self) { _ = try Project(folder: checkout.appendingPathComponent("pp")) }
        do { _ = try Project(folder: checkout.appendingPathComponent("pp")) } catch {
            #expect(error.diagnostic.keyPath == "xcode" && error.diagnostic.message.contains("lies outside the repository"), "\(error)")
        }
        // Inside the checkout it is read as before.
        try FileManager.default.moveItem(at: other.appendingPathComponent("Lighthouse"), to: checkout.appendingPathComponent("Lighthouse"))
        try Data(#"{"xcode": "../Lighthouse/Lighthouse.xcodeproj"}"#.utf8).write(to: checkout.appendingPathComponent("pp/pushpreview.json"))
        #expect(try Project(folder: checkout.appendingPathComponent("pp")).appName == "Lighthouse")
    }

    @Test func theOutsideNameIsOnNoPage() throws {
        for symlinked in [false, true] {
            let repo = try XcodeRunTests.Repo(symlinked ? "symlinked" : "dotdot")
            let outside = repo.root.deletingLastPathComponent().appendingPathComponent("outside")
            try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
            try Data(#"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict><key>CFBundleDisplayName</key><string>Intruder</string></dict></plist>"#.utf8)
                .write(to: outside.appendingPathComponent("Info.plist"))
            if symlinked { try Self.symlink(repo.root.appendingPathComponent("App/Info.plist"), to: "../../outside/Info.plist") }
            else { try Self.edit(repo.root, "Lighthouse.xcodeproj/project.pbxproj", "INFOPLIST_FILE = App/Info.plist;", #"INFOPLIST_FILE = "$(SRCROOT)/../outside/Info.plist";"#) }
            let project = try Project(folder: repo.project)
            #expect(project.appName == "Lighthouse")
            #expect(project.issues.contains { $0.description.contains("lies outside the repository") && $0.description.contains("Info.plist") }, "\(project.issues)")
            let pages = try repo.render().flatMap(\.outputs).filter { $0.hasSuffix(".html") }.map { try String(contentsOfFile: $0, encoding: .utf8) }
            #expect(!pages.isEmpty && pages.allSatisfy { !$0.contains("Intruder") } && pages.contains { $0.contains("Lighthouse") })
            let plan = try ProjectInit(path: repo.root)
            #expect(!plan.files.contains { $0.text.contains("Intruder") } && !plan.found.contains { $0.contains("Intruder") })
        }
    }

    /// macOS volumes ignore case: the pbxproj's `Content/…` is the disk's `content/…`. The
    /// extension is read, with a warning naming both spellings once; two entries that differ
    /// only in case are refused, said.
    @Test func pathsInAnotherCaseAreReadWithAWarning() throws {
        let repo = try XcodeRunTests.Repo()
        try FileManager.default.moveItem(at: repo.root.appendingPathComponent("Content"), to: repo.root.appendingPathComponent("content"))
        let app = try XcodeApp(path: repo.root)
        #expect(app.extensions.map(\.target.name) == ["LighthouseContent", "LighthouseService"])
        let warning = "Content is spelled content on disk"
        #expect(app.problems.filter { $0.contains(warning) }.count == 1, "\(app.problems)")
        let plan = try ProjectInit(path: repo.root)
        #expect(plan.files.map(\.path).contains("Templates/STORM_WARNING.html") && plan.problems.filter { $0.contains(warning) }.count == 1, "\(plan.problems)")
        let project = try Project(folder: repo.project)
        #expect(project.content.extensions.count == 1 && project.issues.contains { $0.description.contains(warning) })

        try FileManager.default.copyItem(at: repo.root.appendingPathComponent("content"), to: repo.root.appendingPathComponent("CONTENT"))
        let ambiguous = try XcodeApp(path: repo.root)
        #expect(ambiguous.extensions.map(\.target.name) == ["LighthouseService"])
        #expect(ambiguous.problems.contains { $0.contains("Content/Info.plist matches CONTENT and content, which differ only in case; not read") }, "\(ambiguous.problems)")
    }

    /// Bad paths in the pbxproj — a NUL, a path longer than the system allows, a symlink loop —
    /// are each a problem naming the project, and the rest is read.
    @Test func badPaths() throws {
        let pbxproj = "Lighthouse.xcodeproj/project.pbxproj"
        for (value, said) in [(#""App/Info\000.plist""#, "a path with a NUL byte"), (String(repeating: "App/", count: 1200) + "Info.plist", "a path longer than the system allows"),
                              ("App/Loop.plist", "more than 40 symbolic links")] {
            let repo = try XcodeRunTests.Repo()
            try Self.symlink(repo.root.appendingPathComponent("App/Loop.plist"), to: "Loop.plist")
            try Self.edit(repo.root, pbxproj, "INFOPLIST_FILE = App/Info.plist;", "INFOPLIST_FILE = \(value);")
            let app = try XcodeApp(path: repo.root)
            #expect(app.problems.contains { $0.contains("Lighthouse.xcodeproj: ") && $0.contains(said) }, "\(said): \(app.problems)")
            #expect(app.extensions.count == 2 && app.displayName == "Lighthouse")
        }
    }

    /// `"appIcon"` (and `"fonts"`) may lie anywhere in the repository `"xcode"` names, never outside it.
    @Test func appIconAnywhereInTheRepository() throws {
        let repo = try XcodeRunTests.Repo()
        try FileManager.default.createDirectory(at: repo.root.appendingPathComponent("Design"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: repo.root.appendingPathComponent("App/Assets.xcassets/AppIcon.appiconset/AppIcon-Dark.png"), to: repo.root.appendingPathComponent("Design/Icon.png"))
        try repo.write("pushpreview.json", #"{"appIcon": "../Design/Icon.png", "xcode": "../Lighthouse.xcodeproj"}"#)
        let inside = try Project(folder: repo.project)
        #expect(inside.appIcon?.light.path == repo.root.appendingPathComponent("Design/Icon.png").path && inside.appIconProblem == nil)
        let outside = repo.root.deletingLastPathComponent().appendingPathComponent("Icon.png")
        try FileManager.default.copyItem(at: repo.root.appendingPathComponent("Design/Icon.png"), to: outside)
        try repo.write("pushpreview.json", #"{"appIcon": "../../Icon.png", "xcode": "../Lighthouse.xcodeproj"}"#)
        let refused = try Project(folder: repo.project)
        #expect(refused.appIcon == nil && refused.appIconProblem?.description.contains("appIcon: ../../Icon.png lies outside the project and the repository xcode names") == true)
    }

    /// `init` never writes through a symlink: a symlinked output folder or subfolder is an error
    /// before anything is written; a file that is a symlink is kept (with --force replaced by a file).
    @Test func initWritesNothingThroughASymlink() throws {
        let repo = try XcodeRunTests.Repo()
        let plan = try ProjectInit(path: repo.root)
        let elsewhere = repo.root.deletingLastPathComponent().appendingPathComponent("elsewhere")
        for link in ["Templates", "payloads", ""] {
            try? FileManager.default.removeItem(at: plan.folder)
            try? FileManager.default.removeItem(at: elsewhere)
            try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
            if !link.isEmpty { try FileManager.default.createDirectory(at: plan.folder, withIntermediateDirectories: true) }
            try Self.symlink(plan.folder.appendingPathComponent(link), to: elsewhere.path)
            do {
                _ = try InitWriter.write(plan.files, into: plan.folder, force: true)
                Issue.record("\(link): written through a symlink")
            } catch { #expect(error.description.contains("a symbolic link; init writes only into folders of its own") && error.description.contains("nothing written"), "\(error)") }
            #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path).isEmpty, "\(link): something was written outside")
        }
        // Through the command: exit 1, the folder named, nothing outside.
        let run = try runProcess(pushpreviewBinary, ["init", repo.root.path, "--out", plan.folder.path])
        #expect(run.status == 1 && run.stderr.contains("\(plan.folder.path): a symbolic link"), "\(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path).isEmpty)

        // A file that is a symlink to one outside: kept, and with --force the link is replaced, the outside file untouched.
        try FileManager.default.removeItem(at: plan.folder)
        try FileManager.default.createDirectory(at: plan.folder, withIntermediateDirectories: true)
        let target = elsewhere.appendingPathComponent("settings.json")
        try Data("theirs".utf8).write(to: target)
        try Self.symlink(plan.folder.appendingPathComponent("pushpreview.json"), to: target.path)
        let kept = try InitWriter.write(plan.files, into: plan.folder, force: false)
        #expect(kept.kept == ["pushpreview.json"])
        let forced = try InitWriter.write(plan.files, into: plan.folder, force: true)
        #expect(forced.written == ["pushpreview.json"])
        #expect(try String(contentsOf: target, encoding: .utf8) == "theirs")
        let replaced = try FileManager.default.attributesOfItem(atPath: plan.folder.appendingPathComponent("pushpreview.json").path)
        #expect(replaced[.type] as? FileAttributeType == .typeRegular, "the link is now init's own file")
        #expect(try FileManager.default.contentsOfDirectory(atPath: plan.folder.path).allSatisfy { !$0.hasSuffix(".tmp") }, "no temporary file left")
    }

    static func edit(_ root: URL, _ path: String, _ old: String, _ new: String) throws {
        let file = root.appendingPathComponent(path)
        let text = try String(contentsOf: file, encoding: .utf8)
        precondition(text.contains(old), "\(path) has no \(old)")
        try Data(text.replacingOccurrences(of: old, with: new).utf8).write(to: file)
    }
}
