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

/// The repository's Templates/ folder, or nil after saying how to point at it.
func repositoryTemplatesOrExplain() -> URL? {
    guard let templates = repositoryTemplates() else {
        printError("pushpreview: cannot find the Templates/ folder; set PUSHPREVIEW_HOME to the repository")
        return nil
    }
    return templates
}

/// A usage error: what was wrong, then the command's help; exit status 2.
func usageError(_ spec: CommandSpec, _ error: Error) -> Int32 {
    printError("pushpreview \(spec.name): \(error)\n\n\(spec.help)")
    return 2
}
