import Checked
import ConfinedFiles
import Foundation
import PushPreview

/// pushpreview: iOS push notification mock-ups on Linux. Each command lives in its own file, with
/// the table of its options (`CommandSpec`) beside its code.
let commands: [(spec: CommandSpec, run: ([String]) -> Int32)] = [
    (InitCommand.spec, InitCommand.run), (RenderCommand.spec, RenderCommand.run), (ThumbnailCommand.spec, ThumbnailCommand.run),
    (DevicesCommand.spec, DevicesCommand.run), (GalleryCommand.spec, GalleryCommand.run), (ValidateCommand.spec, ValidateCommand.run),
    (DiffCommand.spec, DiffCommand.run), (ServeCommand.spec, ServeCommand.run), (SchemaCommand.spec, SchemaCommand.run), (CompletionCommand.spec, CompletionCommand.run),
    (HelpCommand.spec, HelpCommand.run),
]
let specs = commands.map(\.spec)

let args = Array(CommandLine.arguments.dropFirst())
let status: Int32
switch args.first {
case "worker": status = RenderWorker.serve()  // started by render and gallery, not by people
case "--help", "-h": print(specs.usage); status = 0
case "--version":
    print("pushpreview \(version)")
    print(ShareFolder.locate().map { "share: \($0.url.path) (\($0.origin.rawValue))" } ?? "share: not found")
    status = 0
case let name? where commands.contains { $0.spec.name == name }:
    let command = commands.first { $0.spec.name == name }!
    let rest = Array(args.dropFirst())
    if CommandSpec.asksForHelp(rest) { print(command.spec.help); status = 0 } else { status = command.run(rest) }
default:
    printError((args.first.map { "pushpreview: unknown command '\($0)'\n\n" } ?? "") + specs.usage)
    status = 2
}
ChildProcesses.exit(status)
