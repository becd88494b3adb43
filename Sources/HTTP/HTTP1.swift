import CHTTP
import Foundation

/// HTTP/1.1, by libmicrohttpd: connections the server has accepted, sniffed and whose headers it
/// has seen whole are added to it. Each answers one request and closes (`Connection: close`), so
/// every request passes the server's gate; a body may go `bodyIdleSeconds` without a byte, an
/// answer may take `answerSeconds` to be read (the server's table, told when MHD closes a
/// connection, cuts a slower reader), an event stream as long as it lives.
final class HTTP1Daemon {
    private var daemon: OpaquePointer?
    private let context: Unmanaged<Context>

    /// What the C callbacks reach: the server's handler and limits.
    final class Context {
        let server: HTTPServer
        init(server: HTTPServer) { self.server = server }
    }

    /// One request while MHD hands it over in pieces.
    final class Request {
        var headers: [(name: String, value: String)] = []
        var body: [UInt8] = []
        var length = 0
    }

    init(server: HTTPServer) throws(HTTPServer.ListenError) {
        context = Unmanaged.passRetained(Context(server: server))
        // MHD takes the request line and headers within the connection's memory pool; the pool
        // holds the body's buffer too, so it gets room for both.
        // MHD's own connection limit is above the server's, which admits: MHD never refuses one.
        daemon = chttp_start_http1(Self.access, context.toOpaque(), Self.completed, Self.notify, UInt32(server.limits.bodyIdleSeconds),
                                   server.limits.headerBytes + 16 * 1024, UInt32(server.limits.connections + 64))
        guard daemon != nil else {
            context.release()
            throw HTTPServer.ListenError(description: "libmicrohttpd did not start")
        }
    }

    /// Hands `fd` over; false when refused — and then the socket is closed either way (MHD closes
    /// one it refuses; closing it again here aborted the process once its number was reused).
    func add(_ fd: Int32) -> Bool {
        var address = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let known = withUnsafeMutablePointer(to: &address) { p in p.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(fd, $0, &length) == 0 } }
        guard known else { close(fd); return false }
        return withUnsafeMutablePointer(to: &address) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { MHD_add_connection(daemon, fd, $0, length) == MHD_Result.YES }
        }
    }

    func stop() {
        MHD_stop_daemon(daemon)
        daemon = nil
        context.release()
    }

    private static let access: MHD_AccessHandlerCallback = { cls, connection, url, method, version, upload, uploadSize, state in
        let server = Unmanaged<Context>.fromOpaque(cls!).takeUnretainedValue().server
        guard let state, let uploadSize else { return MHD_Result.NO }
        if state.pointee == nil {
            let request = Request()
            MHD_get_connection_values(connection, MHD_ValueKind.HEADER_KIND, { cls, _, key, value in
                let request = Unmanaged<Request>.fromOpaque(cls!).takeUnretainedValue()
                request.headers.append((String(cString: key!).lowercased(), value.map { String(cString: $0) } ?? ""))
                return MHD_Result.YES
            }, Unmanaged.passUnretained(request).toOpaque())
            state.pointee = Unmanaged.passRetained(request).toOpaque()
            return MHD_Result.YES
        }
        let request = Unmanaged<Request>.fromOpaque(state.pointee!).takeUnretainedValue()
        if uploadSize.pointee > 0 {
            let n = uploadSize.pointee
            request.length += n
            let room = max(0, server.limits.bodyBytes + 1 - request.body.count)
            if room > 0, let upload { request.body += UnsafeRawBufferPointer(start: upload, count: min(room, n)) }
            uploadSize.pointee = 0
            return MHD_Result.YES
        }
        var message = HTTPRequest(method: String(cString: method!), path: String(cString: url!), headers: request.headers,
                                  body: request.body, version: String(cString: version!), tls: false)
        message.bodyLength = request.length
        if request.length > server.limits.bodyBytes {
            message.bodyTooLarge = true
            message.body = Array(request.body.prefix(server.limits.bodyBytes))
        }
        let answer = message.framingError.map { HTTPResponse(status: 400, headers: [("content-type", "text/plain")], body: Array("\($0)\n".utf8)) }
            ?? server.handler(message)
        if case .events = answer.body { server.enter(chttp_connection_fd(connection), .streaming) }
        let response: OpaquePointer?
        switch answer.body {
        case .bytes(let bytes):
            response = bytes.withUnsafeBytes { MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: $0.baseAddress), MHD_ResponseMemoryMode.RESPMEM_MUST_COPY) }
        case .events(let subscription):
            let stream = Unmanaged.passRetained(EventReader(subscription))
            response = MHD_create_response_from_callback(UInt64.max, 4096, { cls, _, buffer, max in
                Unmanaged<EventReader>.fromOpaque(cls!).takeUnretainedValue().read(into: buffer!, max: max)
            }, stream.toOpaque(), { cls in
                let reader = Unmanaged<EventReader>.fromOpaque(cls!).takeRetainedValue()
                reader.subscription.cancel()
            })
        }
        guard let response else { return MHD_Result.NO }
        for (name, value) in answer.headers { MHD_add_response_header(response, name, value) }
        MHD_add_response_header(response, "Connection", "close")
        let queued = MHD_queue_response(connection, UInt32(answer.status), response)
        MHD_destroy_response(response)
        return queued
    }

    /// MHD is closing a connection (its socket is closed after this returns): the server's table
    /// lets go of the descriptor now, before the number can be given to another connection.
    private static let notify: MHD_NotifyConnectionCallback = { cls, connection, _, event in
        guard event == MHD_ConnectionNotificationCode.CONNECTION_NOTIFY_CLOSED, let connection else { return }
        let server = Unmanaged<Context>.fromOpaque(cls!).takeUnretainedValue().server
        let fd = chttp_connection_fd(connection)
        server.table.withLock { $0.leave(fd) }
    }

    private static let completed: MHD_RequestCompletedCallback = { _, _, state, _ in
        guard let state, let request = state.pointee else { return }
        Unmanaged<Request>.fromOpaque(request).release()
        state.pointee = nil
    }
}

/// An event stream as MHD pulls it: blocks (its connection has a thread of its own) until the
/// hub has a message or a keep-alive is due.
final class EventReader {
    let subscription: EventHub.Subscription
    private var pending: [UInt8] = []
    init(_ subscription: EventHub.Subscription) { self.subscription = subscription }

    func read(into buffer: UnsafeMutablePointer<CChar>, max: Int) -> Int {
        if pending.isEmpty {
            guard let next = subscription.next(waiting: 15) else { return -1 }  // MHD_CONTENT_READER_END_OF_STREAM
            pending = next
        }
        let n = min(max, pending.count)
        pending.withUnsafeBytes { UnsafeMutableRawPointer(buffer).copyMemory(from: $0.baseAddress!, byteCount: n) }
        pending.removeFirst(n)
        return n
    }
}
