import ConfinedFiles
import Foundation
import Testing

/// A repository that makes reading it trap, hang or grow costs `init`, `gallery` and `validate`
/// one error saying what was being read, within `--timeout` / `--max-memory`, and leaves no
/// process (swiftc's swift-frontend) and no temporary folder behind.
struct RepositoryContainmentTests {
    /// The Lighthouse fixture in a temporary folder, with a project folder pointing at it, and a
    /// TMPDIR of its own (empty), where every temporary file of the run must go and be removed.
    struct Repo {
        let root: URL
        let tmp: URL
        var project: URL { root.appendingPathComponent("pp") }

        init(_ name: String = #function) throws {
            let base = temporaryFolder(name)
            root = base.appendingPathComponent("Lighthouse")
            tmp = base.appendingPathComponent("tmp")
            try FileManager.default.copyItem(at: repositoryRoot.appendingPathComponent("Tests/Fixtures/xcode/Lighthouse"), to: root)
            try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: project.appendingPathComponent("payloads"), withIntermediateDirectories: true)
            try Data(#"{"xcode": "../Lighthouse.xcodeproj"}"#.utf8).write(to: project.appendingPathComponent("pushpreview.json"))
            try Data(#"{"aps": {"alert": {"body": "The lamp is lit"}, "category": "STORM_WARNING"}}"#.utf8).write(to: project.appendingPathComponent("payloads/storm.apns"))
        }

        var environment: [String: String] {
            var e = ProcessInfo.processInfo.environment
            e["TMPDIR"] = tmp.path
            return e
        }

        /// Swift source swiftc's parser takes half a minute on (2,000 array literals nested 16 deep,
        /// the most the import lets through), in a file the import parses.
        func addSlowSwift() throws {
            let file = root.appendingPathComponent("App/NotificationCategories.swift")
            let deep = (0..<2000).map { "let deep\($0) = " + String(repeating: "[", count: 16) + String(repeating: "]", count: 16) }.joined(separator: "\n")
            let text = try String(contentsOf: file, encoding: .utf8) + "\n" + deep + "\n"
            try Data(text.utf8).write(to: file)
        }

        /// A 30 MB project file of 300,000 file references: honest to read, but not in 64 MB.
        func inflateProjectFile() throws {
            let file = root.appendingPathComponent("Lighthouse.xcodeproj/project.pbxproj")
            var text = try String(contentsOf: file, encoding: .utf8)
            var extra = ""
            for i in 0..<300_000 { extra += "\t\tFF\(String(format: "%08d", i)) /* f.swift */ = {isa = PBXFileReference; path = \"f\(i).swift\"; sourceTree = \"<group>\"; };\n" }
            text = text.replacingOccurrences(of: "\tobjects = {\n", with: "\tobjects = {\n" + extra)
            try Data(text.utf8).write(to: file)
        }

        func run(_ arguments: [String], _ extra: [String: String] = [:]) throws -> (ProcessRun, seconds: Double) {
            let start = Date()
            let r = try runProcess(pushpreviewBinary, arguments, environment: environment.merging(extra) { $1 })
            return (r, Date().timeIntervalSince(start))
        }

        /// Nothing of the run is left in its TMPDIR.
        func expectTemporaryFilesGone(_ comment: Comment? = nil) {
            let left = (try? FileManager.default.contentsOfDirectory(atPath: tmp.path)) ?? []
            #expect(left.isEmpty, "left in TMPDIR: \(left)")
        }
    }

    /// The lines of stderr that are errors (init's and gallery's own, or validate's).
    func errorLines(_ r: ProcessRun) -> [String] {
        r.stderr.split(separator: "\n").map(String.init).filter { $0.hasPrefix("pushpreview ") || $0.hasPrefix("error") }
    }

    @Test func aHangingSwiftcIsStoppedByInitsTimeout() throws {
        let repo = try Repo()
        try repo.addSlowSwift()
        let (r, seconds) = try repo.run(["init", repo.root.path, "--out", repo.root.appendingPathComponent("made").path, "--timeout", "4"])
        #expect(r.status == 1, "\(r.stderr)")
        #expect(seconds < 4 + 20, "stopped within the timeout and a margin, not after swiftc's own budget: \(seconds) s")
        let errors = errorLines(r)
        #expect(errors.count == 1, "\(r.stderr)")
        #expect(errors.first?.hasPrefix("pushpreview init: \(repo.root.path): stopped: took longer than 4 s (--timeout) while parsing") == true, "\(r.stderr)")
        #expect(errors.first?.contains("with swiftc (") == true && errors.first?.hasSuffix("nothing was written") == true, "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: repo.root.appendingPathComponent("made").path))
        repo.expectTemporaryFilesGone()
        #expect(ChildProcessProbe.processes(mentioning: repo.tmp.path).isEmpty)
    }

    /// SIGTERM to init while swiftc parses: init ends by the signal, and swiftc's group and its
    /// temporary folder are gone with it.
    @Test func aKilledInitLeavesNoSwiftFrontend() throws {
        let repo = try Repo()
        try repo.addSlowSwift()
        let process = Process()
        process.executableURL = pushpreviewBinary
        process.arguments = ["init", repo.root.path, "--out", repo.root.appendingPathComponent("made").path, "--timeout", "120"]
        process.environment = repo.environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        var frontend: ChildProcessProbe.Entry?
        let deadline = Date().addingTimeInterval(60)
        while frontend == nil, Date() < deadline, process.isRunning {
            frontend = ChildProcessProbe.processes(mentioning: repo.tmp.path).first { $0.command.contains("swift-frontend") }
            usleep(50_000)
        }
        let running = try #require(frontend, "swift-frontend was never seen running on the repository's Swift files")
        let swiftFolders = try FileManager.default.subpathsOfDirectory(atPath: repo.tmp.path).filter { $0.contains("pushpreview-swiftparse-") }
        #expect(!swiftFolders.isEmpty, "swiftc's copies are under the run's TMPDIR")
        kill(process.processIdentifier, SIGTERM)
        let ended = Date().addingTimeInterval(20)
        while process.isRunning, Date() < ended { usleep(20_000) }
        try #require(!process.isRunning, "init ends on SIGTERM")
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGTERM)
        usleep(200_000)
        #expect(!ChildProcessProbe.alive(running.pid), "swift-frontend \(running.pid) outlived init")
        #expect(ChildProcessProbe.members(ofGroup: running.group).isEmpty, "a process of swiftc's group \(running.group) is left")
        repo.expectTemporaryFilesGone()
    }

    @Test func aProjectTooBigForTheMemoryLimitIsOneErrorInInitAndGallery() throws {
        let repo = try Repo()
        try repo.inflateProjectFile()
        let (i, _) = try repo.run(["init", repo.root.path, "--out", repo.root.appendingPathComponent("made").path, "--max-memory", "64"])
        #expect(i.status == 1, "\(i.stderr)")
        // As for gallery below: the place init was reading reaches the supervisor through a pipe, so
        // under load the kill can come before "the Xcode project …" does (then it is the repository).
        let initSaid = errorLines(i)
        #expect(initSaid.count == 1 && initSaid[0].hasPrefix("pushpreview init: \(repo.root.path): stopped: used more than 64 MB of memory (--max-memory) while reading ")
                && initSaid[0].hasSuffix("; nothing was written"), "\(i.stderr)")
        #expect(!FileManager.default.fileExists(atPath: repo.root.appendingPathComponent("made").path))

        let out = repo.root.appendingPathComponent("out")
        let (g, _) = try repo.run(["gallery", repo.project.path, "--out", out.path, "--max-memory", "64"])
        #expect(g.status == 1, "\(g.stderr)")
        // What the worker said it was doing last reaches the supervisor through a pipe: on a loaded
        // machine the kill can come before "the Xcode project …" arrives, so the place may be "the project".
        let said = errorLines(g)
        #expect(said.count == 1 && said[0].hasPrefix("pushpreview gallery: \(repo.project.path): stopped: used more than 64 MB of memory (--max-memory) while reading the "), "\(g.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("index.html").path))
        repo.expectTemporaryFilesGone()
    }

    /// Our code trapping while init reads (the test hook makes it trap on the storyboard: every
    /// honest trap found so far is being fixed at its cause).
    @Test func aTrapWhileInitReadsIsOneError() throws {
        let repo = try Repo()
        let (i, _) = try repo.run(["init", repo.root.path, "--out", repo.root.appendingPathComponent("made").path], ["PUSHPREVIEW_TEST_FAULT": "trap:MainInterface.storyboard"])
        #expect(i.status == 1, "\(i.stderr)")
        let initError = errorLines(i)
        #expect(initError.count == 1, "\(i.stderr)")
        #expect(initError.first?.contains(": crashed: SIGILL (") == true || initError.first?.contains(": crashed: SIGTRAP (") == true, "\(i.stderr)")
        #expect(initError.first?.contains("Index out of range") == true, "\(i.stderr)")
        #expect(initError.first?.hasSuffix("while converting the storyboard \(repo.root.path)/Content/Base.lproj/MainInterface.storyboard; nothing was written") == true, "\(i.stderr)")
        #expect(!FileManager.default.fileExists(atPath: repo.root.appendingPathComponent("made").path))
        repo.expectTemporaryFilesGone()
    }

    @Test func aTrapInTheTemplateChecksIsOneGalleryError() throws {
        let repo = try Repo()
        try FileManager.default.createDirectory(at: repo.project.appendingPathComponent("Templates"), withIntermediateDirectories: true)
        try Data("<div>{{title}}</div>".utf8).write(to: repo.project.appendingPathComponent("Templates/STORM_WARNING.html"))
        let out = repo.root.appendingPathComponent("out")
        let (g, _) = try repo.run(["gallery", repo.project.path, "--out", out.path, "--device", "iphone-17"], ["PUSHPREVIEW_TEST_FAULT": "trap:STORM_WARNING.html"])
        #expect(g.status == 1, "\(g.stderr)")
        let errors = errorLines(g)
        #expect(errors.count == 1, "\(g.stderr)")
        #expect(errors.first?.hasPrefix("pushpreview gallery: \(repo.project.path): crashed: SIG") == true, "\(g.stderr)")
        #expect(errors.first?.hasSuffix("while checking the template \(repo.project.path)/Templates/STORM_WARNING.html") == true, "\(g.stderr)")
        repo.expectTemporaryFilesGone()
    }

    /// 50,000 attributes on one element: the template checks took 35 s in the supervisor, past
    /// `--timeout`; now they are stopped at it, in gallery and in validate.
    @Test func theTemplateChecksRespectTheTimeout() throws {
        let project = try examplesCopy(payloads: ["localized-boarding.apns"])
        let attributes = (0..<50_000).map { "data-a\($0)=\"x\"" }.joined(separator: " ")
        try Data("<div class=\"card\" \(attributes)>{{title}}</div>\n".utf8).write(to: project.appendingPathComponent("Templates/boarding-pass.html"))
        let out = project.deletingLastPathComponent().appendingPathComponent("Output")
        var start = Date()
        let g = try runProcess(pushpreviewBinary, ["gallery", project.path, "--out", out.path, "--device", "iphone-17", "--timeout", "5"])
        #expect(Date().timeIntervalSince(start) < 5 + 20, "gallery took \(Date().timeIntervalSince(start)) s")
        #expect(g.status == 1)
        #expect(errorLines(g) == ["pushpreview gallery: \(project.path): stopped: took longer than 5 s (--timeout) while checking the template \(project.path)/Templates/boarding-pass.html"], "\(g.stderr)")
        start = Date()
        let v = try runProcess(pushpreviewBinary, ["validate", project.path, "--timeout", "5"])
        #expect(Date().timeIntervalSince(start) < 5 + 20)
        #expect(v.status == 1)
        #expect(v.stdout.contains("error: \(project.path): stopped: took longer than 5 s (--timeout) while checking the template"), "\(v.stdout)")
    }
}

/// What /proc says of the processes running now.
enum ChildProcessProbe {
    struct Entry { var pid: Int32; var group: Int32; var command: String }

    static func all() -> [Entry] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return names.compactMap(Int32.init).compactMap { pid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return nil }
            // pid (comm) state ppid pgrp …
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 2, fields[0] != "Z", let group = Int32(fields[2]) else { return nil }
            let cmdline = (FileManager.default.contents(atPath: "/proc/\(pid)/cmdline")).map { String(decoding: $0, as: UTF8.self).replacingOccurrences(of: "\0", with: " ") } ?? ""
            return Entry(pid: pid, group: group, command: cmdline)
        }
    }

    static func processes(mentioning text: String) -> [Entry] { all().filter { $0.command.contains(text) } }
    static func members(ofGroup group: Int32) -> [Entry] { all().filter { $0.group == group } }
    static func alive(_ pid: Int32) -> Bool { all().contains { $0.pid == pid } }
}
