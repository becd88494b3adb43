import Foundation
import Typography

/// What a supervisor and its workers say to each other: one JSON object a line, over the
/// worker's standard input and a private copy of its standard output.
struct WorkerSetup: Codable {
    /// A render worker's templates and fonts; without them the worker does one `ContainedTask`.
    var templates: URL?
    var fonts: [String]?
    /// The worker refuses allocations past this (RLIMIT_DATA), a second guard behind the
    /// supervisor's RSS watch.
    var dataLimitMB: Int
}

/// One payload to render, or (with `thread`) the stack of a thread whose newest is `payload`.
struct WorkerJob: Codable {
    var payload: URL
    var project: URL
    var options: RenderOptions
    var thread: [URL]?
    /// The Xcode app as the supervisor's reading found it, so a worker does not read it again.
    var xcode: XcodeReading?
}

/// From the worker: what it is doing now (so a death can be explained), the process groups it
/// has running (killed with it), or its reply: a payload's results, a task's outcome.
struct WorkerMessage<Reply: Codable>: Codable {
    var activity: String?
    var children: [Int32]?
    var reply: Reply?
}

/// A message that is not a reply.
typealias WorkerNote = WorkerMessage<Bool>

/// Newline-delimited messages on a file descriptor, read with a deadline. Sending is locked (a
/// worker's notes may come from any thread); one thread reads.
final class LineChannel: @unchecked Sendable {
    let fd: Int32
    private var buffer: [UInt8] = []
    /// A worker's notes come from whichever thread is working; each line goes out whole.
    private let sending = NSLock()

    init(fd: Int32) { self.fd = fd }

    enum Read { case line([UInt8]), closed, stopped(String) }

    /// The next line; `check` runs about every 50 ms while waiting — however busily the other side
    /// writes — and may stop the wait with a reason.
    func readLine(check: () -> String? = { nil }) -> Read {
        var checked = Date()
        while true {
            if Date().timeIntervalSince(checked) >= 0.05 {
                checked = Date()
                if let reason = check() { return .stopped(reason) }
            }
            if let newline = buffer.firstIndex(of: 10) {
                let line = Array(buffer[..<newline])
                buffer.removeSubrange(...newline)
                return .line(line)
            }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&p, 1, 50)
            if ready < 0 && errno != EINTR { return .closed }
            if ready > 0 {
                var chunk = [UInt8](repeating: 0, count: 65536)
                let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return .closed }
                buffer += chunk[..<n]
            } else if let reason = check() {
                return .stopped(reason)
            } else { checked = Date() }
        }
    }

    /// Writes one line; false when the other side is gone.
    @discardableResult
    func send<T: Encodable>(_ value: T) -> Bool {
        guard var bytes = try? [UInt8](Self.encoder.encode(value)) else { return false }
        bytes.append(10)
        sending.lock()
        defer { sending.unlock() }
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return false }
            offset += n
        }
        return true
    }

    func decode<T: Decodable>(_ type: T.Type, _ line: [UInt8]) -> T? { try? JSONDecoder().decode(type, from: Data(line)) }

    private static let encoder: JSONEncoder = {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys]
        return e
    }()
}
