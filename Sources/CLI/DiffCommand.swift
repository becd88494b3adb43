import Foundation
import PushPreview

enum DiffCommand {
    static let help = """
    usage: pushpreview diff BASE NEW [options]

    Compares two output folders mock-up by mock-up (PAYLOAD/STEM.png): added, removed, changed,
    unchanged. Writes before / after / difference images, index.html and diff.json into --out.

      --out DIR              where the diff goes (default Diff)
      --threshold T          0–1: how far apart two colours must be to count (default 0.1)
      --markdown FILE        also write a pull-request comment: a summary table and the images
      --image-base-url URL   where the --out folder will be uploaded, for the comment's images
      --json                 print diff.json's entries on stdout
    exit status: 0 nothing changed; 1 something changed (for CI); 2 usage or unreadable folders
    """

    static func run(_ argv: [String]) -> Int32 {
        if argv.contains("--help") { print(help); return 0 }
        let a: Arguments
        var threshold = 0.1
        do {
            a = try Arguments(argv, valued: ["out", "threshold", "markdown", "image-base-url"], flags: ["json"])
            guard a.positionals.count == 2 else { throw Arguments.UsageError(description: "give two output folders: BASE NEW") }
            if let t = a.value("threshold") {
                guard let v = Double(t), (0...1).contains(v) else { throw Arguments.UsageError(description: "--threshold takes a number from 0 to 1") }
                threshold = v
            }
            for folder in a.positionals {
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
                    throw Arguments.UsageError(description: "\(folder): not a folder")
                }
            }
        } catch {
            printError("pushpreview diff: \(error)\n\n\(help)")
            return 2
        }
        var diff = OutputDiff(base: URL(fileURLWithPath: a.positionals[0]), new: URL(fileURLWithPath: a.positionals[1]))
        diff.threshold = threshold
        let out = URL(fileURLWithPath: a.value("out") ?? "Diff")
        do {
            let (entries, summary) = try diff.run(output: out)
            if let markdown = a.value("markdown") {
                try OutputFile.write(OutputDiff.markdown(entries, summary, imageBaseURL: a.value("image-base-url") ?? ""), to: URL(fileURLWithPath: markdown))
            }
            if a.flags.contains("json") { entries.filter { $0.kind != .unchanged }.forEach { printJSON($0) } }
            for e in entries where e.kind != .unchanged && !a.flags.contains("json") { print("\(e.kind.rawValue)\t\(e.mockup)") }
            for e in entries { if let note = e.note { printError("warning: \(note)") } }
            printError("\(summary.changed) changed, \(summary.added) added, \(summary.removed) removed, \(summary.unchanged) unchanged → \(out.path)/index.html")
            return summary.anyChange ? 1 : 0
        } catch {
            printError("pushpreview diff: \(error)")
            return 2
        }
    }
}
