import Foundation
import Imaging
import Payload
import ServiceStage

let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardizedFileURL

/// A scratch project folder with media/ and app-group/.
struct ScratchProject {
    let folder: URL
    init(_ name: String = #function) {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("pushpreview-service-\(getpid())-\(name.filter(\.isLetter))-\(UUID().uuidString.prefix(6))")
        for sub in ["media", "app-group", "payloads"] {
            try? FileManager.default.createDirectory(at: folder.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
    }
    func write(_ path: String, _ bytes: [UInt8]) throws {
        let url = folder.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
    }
    func write(_ path: String, _ text: String) throws { try write(path, Array(text.utf8)) }

    /// Parses `json` as a payload and runs the service stage.
    func run(_ json: String, settings: ServiceSettings = ServiceSettings(), locale: String = "en") throws -> DeliveredNotification {
        let (payload, _) = try PayloadParser.parse(Array(json.utf8), file: folder.appendingPathComponent("payloads/test.apns").path)
        return try ServiceStage(projectFolder: folder, settings: settings).run(payload, locale: locale)
    }
}

let testJPEG: [UInt8] = try! JPEGCodec.encode(RGBAImage(width: 32, height: 24, filledWith: (20, 120, 220, 255)))

/// The Python server in Tests/Support, on 127.0.0.1 and a free port, serving `folder`.
final class TestServer: @unchecked Sendable {
    let process = Process()
    let port: Int
    var base: String { "http://127.0.0.1:\(port)" }

    init(serving folder: URL) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", repositoryRoot.appendingPathComponent("Tests/Support/http-test-server.py").path, folder.path]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        var line = Data()
        while !line.contains(10) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line += chunk
        }
        guard let port = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw CocoaError(.fileReadUnknown)
        }
        self.port = port
    }

    deinit { process.terminate() }

    struct Stats: Decodable { var requests: Int; var sent: Int; var cut: Bool }

    func stats() throws -> Stats {
        let (data, _) = try fetch("\(base)/stats")
        return try JSONDecoder().decode(Stats.self, from: data)
    }
}

/// A blocking GET for the tests' own use (not the code under test).
func fetch(_ url: String) throws -> (Data, Int) {
    let task = Process()
    task.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    task.arguments = ["python3", "-c", "import sys,urllib.request;sys.stdout.buffer.write(urllib.request.urlopen(sys.argv[1]).read())", url]
    let out = Pipe()
    task.standardOutput = out
    try task.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    task.waitUntilExit()
    return (data, Int(task.terminationStatus))
}

/// A port nothing listens on.
func closedPort() -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
    close(fd)
    return Int(UInt16(bigEndian: address.sin_port))
}
