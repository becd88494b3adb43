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

/// The `pushpreview` binary built beside this test bundle (whatever the build folder: a
/// sanitizer build has its own), as users run it.
let pushpreviewBinary: URL = {
    let beside = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("pushpreview")
    return FileManager.default.fileExists(atPath: beside.path) ? beside : repositoryRoot.appendingPathComponent(".build/debug/pushpreview")
}()

struct ProcessRun { var status: Int32; var stdout: String; var stderr: String }

func runProcess(_ executable: URL, _ arguments: [String], environment: [String: String]? = nil) throws -> ProcessRun {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.currentDirectoryURL = repositoryRoot
    if let environment { process.environment = environment }
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    // Drain stderr concurrently so neither pipe fills and blocks the child.
    let errData = LockedData()
    let thread = Thread { errData.set(err.fileHandleForReading.readDataToEndOfFile()) }
    thread.start()
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    while !errData.isSet { usleep(1000) }
    return ProcessRun(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: errData.value, as: UTF8.self))
}

final class LockedData: @unchecked Sendable {
    private let lock = NSLock()
    private var data: Data?
    func set(_ d: Data) { lock.withLock { data = d } }
    var isSet: Bool { lock.withLock { data != nil } }
    var value: Data { lock.withLock { data ?? Data() } }
}

/// A copy of Examples/ to change freely (no download cache), keeping only `payloads` if given.
func examplesCopy(payloads: [String]? = nil, _ name: String = #function) throws -> URL {
    let folder = temporaryFolder(name).appendingPathComponent("Examples")
    try FileManager.default.copyItem(at: examples, to: folder)
    try? FileManager.default.removeItem(at: folder.appendingPathComponent("app-group/cache"))
    if let payloads {
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("payloads").path) where !payloads.contains(file) {
            try FileManager.default.removeItem(at: folder.appendingPathComponent("payloads").appendingPathComponent(file))
        }
    }
    return folder
}

/// The file the `<img id="ID">` of a written page shows (shared media live in the output's
/// media/ folder, beside the payload folders), or nil when the page has no such image.
func imageFile(ofPage page: String, id: String) -> URL? {
    guard let html = try? String(contentsOfFile: page, encoding: .utf8),
          let tag = html.components(separatedBy: "<img").first(where: { $0.contains("id=\"\(id)\"") }),
          let src = tag.components(separatedBy: "src=\"").dropFirst().first?.prefix(while: { $0 != "\"" }) else { return nil }
    return URL(fileURLWithPath: page).deletingLastPathComponent().appendingPathComponent(String(src)).standardizedFileURL
}
