import Foundation
import Testing

/// `make install`'s layout (scripts/install-files, which it runs): the executable copied into
/// DESTDIR/usr/bin finds DESTDIR/usr/share/pushpreview by itself, from any folder, with no
/// PUSHPREVIEW_HOME, and renders the same bytes as the checkout's build.
struct InstallTests {
    @Test func installedCopyRendersTheSameBytesFromAnotherFolder() throws {
        let destdir = temporaryFolder().appendingPathComponent("stage")
        let install = try runProcess(repositoryRoot.appendingPathComponent("scripts/install-files"), [pushpreviewBinary.path, destdir.path, "/usr"])
        #expect(install.status == 0, "\(install.stderr)")
        let installed = destdir.appendingPathComponent("usr/bin/pushpreview")
        let share = destdir.appendingPathComponent("usr/share/pushpreview")
        #expect(FileManager.default.fileExists(atPath: share.appendingPathComponent("Templates/system/expanded.html").path))

        // The completions, made by the installed executable: its commands and device profiles.
        for file in ["bash-completion/completions/pushpreview", "zsh/site-functions/_pushpreview", "fish/vendor_completions.d/pushpreview.fish"] {
            let script = (try? String(contentsOf: destdir.appendingPathComponent("usr/share/\(file)"), encoding: .utf8)) ?? ""
            #expect(script.contains("gallery") && script.contains("iphone-15-pro-max"), "\(file)")
        }

        var environment = ProcessInfo.processInfo.environment
        environment["PUSHPREVIEW_HOME"] = nil
        let version = try runProcess(installed, ["--version"], environment: environment)
        #expect(version.stdout.contains("share: \(share.path) (installed)"), "\(version.stdout)")

        // Elsewhere: a project outside any checkout, run from its own folder.
        let project = try examplesCopy(payloads: ["localized-boarding.apns", "image-png.apns", "thread.apns"])
        let elsewhere = project.deletingLastPathComponent()
        func gallery(_ binary: URL, _ out: String) throws -> [String: [UInt8]] {
            let process = Process()
            process.executableURL = binary
            process.arguments = ["gallery", "Examples", "--out", out, "--device", "iphone-17,ipad-pro-11", "--locale", "en,tr"]
            process.currentDirectoryURL = elsewhere
            process.environment = environment
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(binary.path) gallery")
            return tree(elsewhere.appendingPathComponent(out))
        }
        let fromInstall = try gallery(installed, "installed"), fromCheckout = try gallery(pushpreviewBinary, "checkout")
        #expect(fromInstall.count > 20)
        let differing = Set(fromInstall.keys).union(fromCheckout.keys).filter { fromInstall[$0] != fromCheckout[$0] }
        #expect(differing.isEmpty, "\(differing.sorted().prefix(5)) differ")

        // Its init reads a React Native app's TypeScript through the tree-sitter installed beside it.
        if FileManager.default.fileExists(atPath: repositoryRoot.appendingPathComponent(".build/python/tree-sitter-0.26.1/tree_sitter_dart").path) {
            #expect(FileManager.default.fileExists(atPath: share.appendingPathComponent("python/tree-sitter-0.26.1/tree_sitter_typescript").path))
            let app = temporaryFolder().appendingPathComponent("react-native")
            try FileManager.default.copyItem(at: repositoryRoot.appendingPathComponent("Tests/Fixtures/crossplatform/react-native"), to: app)
            let read = try runProcess(installed, ["init", app.path, "--out", app.deletingLastPathComponent().appendingPathComponent("project").path], environment: environment)
            #expect(read.status == 0 && (read.stdout + read.stderr).contains("category ROOM_MESSAGE: ROOM_REPLY, ROOM_MUTE (src/push/categories.ts:16)")
                    && !(read.stdout + read.stderr).contains("tree-sitter 0.26.1"), "\(read.stdout) \(read.stderr)")
        } else {
            Issue.record("tree-sitter is not in .build/python (make deps): the installed init's TypeScript reading was not checked")
        }

        // Moved away from its share folder, it says where it looked instead of rendering.
        let alone = temporaryFolder().appendingPathComponent("pushpreview")
        try FileManager.default.copyItem(at: installed, to: alone)
        let lost = try runProcess(alone, ["devices"], environment: environment)
        #expect(lost.status == 1 && lost.stderr.contains("cannot find the share folder"), "\(lost.stderr)")
    }
}
