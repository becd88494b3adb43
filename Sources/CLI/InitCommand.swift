import Foundation
import PushPreview
import ProjectImport

enum InitCommand {
    static let spec = CommandSpec(
        name: "init", synopsis: ["init PATH [--out DIR] [options]"],
        summary: "make a project folder for an Xcode app (repository, .xcodeproj, .xcworkspace, project.yml or Project.swift)",
        about: """
        Makes a project folder for an iOS app from its Xcode project. PATH is a repository folder, an
        .xcodeproj, an .xcworkspace, an XcodeGen project.yml or a Tuist Project.swift; the project with
        notification extensions is used. The folder's pushpreview.json points at the Xcode project
        ("xcode", relative), so every run reads the app's Info.plists, strings, asset catalogs, icon and
        fonts where they live. init writes only what the project cannot say at run time: categories.json
        (the categories and actions found in the Swift and Objective-C code), a starter template per
        content-extension category (from its storyboard, where it has one), a sample payload per category,
        and pushpreview.schema.json, the JSON Schema pushpreview.json names ("$schema") for editors.

        A React Native, Flutter or Capacitor repository (package.json, pubspec.yaml, capacitor.config.*) is
        read from its ios/ folder (Capacitor's ios/App), and the categories its TypeScript, JavaScript or
        Dart code registers are read too, by tree-sitter in a child process. An Expo app with no ios/ folder
        is explained: what `npx expo prebuild` would make from its config, and what to run.

        It prints what it found and what it could not read, each with its file and line. Running it
        again gives the same files; a file you changed (or that init did not write) is kept.
        """,
        positionals: [.init(name: "PATH", completes: .file)],
        options: [
            .value("out", "DIR", "where the project folder goes (default: pushpreview/ beside PATH)", completes: .folder),
            .flag("force", "overwrite files you changed"),
        ] + WorkerPlan.options(timeout: "seconds reading the project may take before it is stopped (default 120)",
                               memory: "memory reading the project may use before it is stopped (default 1024)"),
        notes: """
        The project is read in a worker process (swiftc runs under it): if the reading crashes, hangs
        or grows past the limits, that is one error saying what it was reading, and nothing is written.
        """,
        exits: [.init(0, "written"), .init(1, "the project could not be read or written"), .init(2, "usage")])

    static func run(_ argv: [String]) -> Int32 {
        let a: Arguments
        let workers: WorkerPlan
        do {
            a = try Arguments(argv, Self.spec)
            guard a.positionals.count == 1 else { throw Arguments.UsageError(description: "give one PATH (a repository folder, .xcodeproj, .xcworkspace, project.yml or Project.swift)") }
            workers = try WorkerPlan(a)
        } catch { return usageError(Self.spec, error) }
        let path = URL(fileURLWithPath: a.positionals[0])
        let plan: InitPlan
        switch workers.perform(.initPlan(path: path, folder: a.value("out").map { URL(fileURLWithPath: $0) }), InitPlan.self, activity: "reading \(path.path)") {
        case .success(let p): plan = p
        case .failure(let failure):
            printError("pushpreview init: \(path.path): \(failure); nothing was written")
            return 1
        }
        if let error = plan.error {
            printError("pushpreview init: \(error)")
            return 1
        }
        for line in plan.found { print(line) }
        for problem in plan.problems { printError("not read: \(problem)") }
        let outcome: InitWriter.Outcome
        do { outcome = try InitWriter.write(plan.files.map { ($0.path, [UInt8]($0.bytes)) }, into: plan.folder, force: a.flags.contains("force")) } catch {
            printError("pushpreview init: \(error)")
            return 1
        }
        for path in outcome.written { print("wrote \(path)") }
        for path in outcome.kept { printError("kept \(path): changed since init wrote it (or not init's); --force overwrites it") }
        print("\(outcome.written.count) written, \(outcome.unchanged.count) unchanged, \(outcome.kept.count) kept → \(plan.folder.path)")
        print("next: pushpreview gallery \(plan.folder.path)")
        return 0
    }
}
