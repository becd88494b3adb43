import ConfinedFiles
import Foundation
import PushPreview

let version = pushPreviewVersion

func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

/// One JSON object per line for `--json`, keys sorted so output is stable.
func printJSON<T: Encodable>(_ value: T) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    if let data = try? encoder.encode(value) { print(String(decoding: data, as: UTF8.self)) }
}

/// The share folder's Templates/, or nil after saying where it was looked for.
func repositoryTemplatesOrExplain() -> URL? {
    guard let share = ShareFolder.locate() else {
        printError("pushpreview: cannot find the share folder with Templates/: looked in ../share/pushpreview beside \(ShareFolder.executable.path), in the checkout above it and in PUSHPREVIEW_HOME")
        return nil
    }
    return share.templates
}

/// A usage error: what was wrong, then the command's help; exit status 2.
func usageError(_ spec: CommandSpec, _ error: Error) -> Int32 {
    printError("pushpreview \(spec.name): \(error)\n\n\(spec.help)")
    return 2
}
