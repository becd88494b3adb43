import Foundation
import XcodeImport

enum InitCommand {
    static let help = """
    usage: pushpreview init PATH [--out DIR] [--force]

    Makes a project folder for an iOS app from its Xcode project. PATH is a repository folder, an
    .xcodeproj or an .xcworkspace; the project with notification extensions is used. The folder's
    pushpreview.json points at the Xcode project ("xcode", relative), so every run reads the
    app's Info.plists, strings, asset catalogs, icon and fonts where they live. init writes only
    what the project cannot say at run time: categories.json (the categories and actions found
    in the Swift and Objective-C code), a starter template per content-extension category (from
    its storyboard, where it has one) and a sample payload per category.

    It prints what it found and what it could not read, each with its file and line. Running it
    again gives the same files; a file you changed (or that init did not write) is kept.

      --out DIR   where the project folder goes (default: pushpreview/ beside PATH)
      --force     overwrite files you changed
    exit status: 0 written; 1 the project could not be read or written; 2 usage
    """

    static func run(_ argv: [String]) -> Int32 {
        if argv.contains("--help") { print(help); return 0 }
        let a: Arguments
        do {
            a = try Arguments(argv, valued: ["out"], flags: ["force"])
            guard a.positionals.count == 1 else { throw Arguments.UsageError(description: "give one PATH (a repository folder, .xcodeproj or .xcworkspace)") }
        } catch {
            printError("pushpreview init: \(error)\n\n\(help)")
            return 2
        }
        let plan: ProjectInit
        do {
            plan = try ProjectInit(path: URL(fileURLWithPath: a.positionals[0]), folder: a.value("out").map { URL(fileURLWithPath: $0) })
        } catch {
            printError("pushpreview init: \(error)")
            return 1
        }
        for line in plan.found { print(line) }
        for problem in plan.problems { printError("not read: \(problem)") }
        let outcome: InitWriter.Outcome
        do { outcome = try InitWriter.write(plan.output, into: plan.folder, force: a.flags.contains("force")) } catch {
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
