import Foundation
import PushPreview
import Typography

let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardizedFileURL
let examples = repositoryRoot.appendingPathComponent("Examples")

func temporaryFolder(_ name: String = #function) -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("pushpreview-tests-\(getpid())-\(name.filter(\.isLetter))-\(UUID().uuidString.prefix(8))")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

func makeRenderer() throws -> MockupRenderer {
    try MockupRenderer(fonts: try FontSet.standard(), templates: repositoryRoot.appendingPathComponent("Templates"))
}

func sha(_ url: URL) -> [UInt8] { [UInt8]((try? Data(contentsOf: url)) ?? Data()) }

/// Every file below `folder`, relative path → bytes.
func tree(_ folder: URL) -> [String: [UInt8]] {
    var out: [String: [UInt8]] = [:]
    let e = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
    while let url = e?.nextObject() as? URL {
        var isDir: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDir), !isDir.boolValue {
            out[String(url.path.dropFirst(folder.path.count))] = sha(url)
        }
    }
    return out
}
