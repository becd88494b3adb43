import Foundation
import PushPreview

/// pushpreview: iOS push notification mock-ups on Linux. Each subcommand lives in its own file.
let usage = """
usage: pushpreview COMMAND [options]

  init PATH                make a project folder for an Xcode app (repository, .xcodeproj or .xcworkspace)
  render PAYLOAD...        render each payload file (.apns or .json)
  thumbnail IMAGE          decode + thumbnail one image to PNG
  devices                  list device profiles
  gallery [PROJECT]        render a whole project in parallel: Output/index.html and report.json
  validate PATH...         check a project, payloads or templates; writes nothing
  diff BASE NEW            compare two output folders: diff images, page, markdown

Run 'pushpreview COMMAND --help' for a command's options.
exit status: 0 all rendered; 1 some inputs failed (the rest still rendered); 2 usage
"""

let args = Array(CommandLine.arguments.dropFirst())
let status: Int32
switch args.first {
case "init": status = InitCommand.run(Array(args.dropFirst()))
case "render": status = RenderCommand.run(Array(args.dropFirst()))
case "thumbnail": status = ThumbnailCommand.run(Array(args.dropFirst()))
case "devices": status = DevicesCommand.run(Array(args.dropFirst()))
case "validate": status = ValidateCommand.run(Array(args.dropFirst()))
case "gallery": status = GalleryCommand.run(Array(args.dropFirst()))
case "diff": status = DiffCommand.run(Array(args.dropFirst()))
case "worker": status = RenderWorker.serve()  // started by render and gallery, not by people
case "--help", "-h", "help": print(usage); status = 0
case "--version":
    print("pushpreview \(version)")
    print(ShareFolder.locate().map { "share: \($0.url.path) (\($0.origin.rawValue))" } ?? "share: not found")
    status = 0
default:
    printError((args.first.map { "pushpreview: unknown command '\($0)'\n\n" } ?? "") + usage)
    status = 2
}
exit(status)
