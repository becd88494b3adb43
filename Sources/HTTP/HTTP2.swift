import CHTTP
import Foundation

/// One HTTP/2 connection, by nghttp2, on a thread of its own: bytes read go into the session,
/// each stream's request goes to the handler when its last frame arrives, and what the session
/// wants sent is written. A malformed frame stream ends the connection with GOAWAY (nghttp2's
/// doing); headers beyond the limit get 431, a body beyond it is counted, not kept. The
/// connection tells the server's table its phase (a request answered, idle, an event stream);
/// a stream the peer gives no window to send on (its window left at 0) for `stalledSeconds`
/// ends the connection with GOAWAY, as does a body that stops arriving for `bodyIdleSeconds`.
final class HTTP2Connection {
    private let server: HTTPServer
    private let io: ByteStream
    private var session: OpaquePointer?
    private var streams: [Int32: Stream] = [:]

    final class Stream {
        var headers: [(name: String, value: String)] = []
        var headerBytes = 0
        var body: [UInt8] = []
        var length = 0
        var response: [UInt8] = []
        var sent = 0
        var events: EventHub.Subscription?
        var deferred = false
        /// Since when the peer has given it no window to send in, if it has none now.
        var shutSince: Date?
        /// When its last request byte came (its body must keep coming until it ends).
        var lastByte = Date()
        let created = Date()
        var answered = false
    }

    /// The phase the table last heard of.
    private var phase: ClientTable.Phase = .awaitingRequest

    init(server: HTTPServer, io: ByteStream) { self.server = server; self.io = io }

    func run() {
        defer { io.close() }
        var callbacks: OpaquePointer?
        guard nghttp2_session_callbacks_new(&callbacks) == 0 else { return }
        defer { nghttp2_session_callbacks_del(callbacks) }
        nghttp2_session_callbacks_set_on_begin_headers_callback(callbacks) { _, frame, user in
            let c = HTTP2Connection.from(user)
            if frame!.pointee.hd.type == UInt8(NGHTTP2_HEADERS.rawValue), frame!.pointee.headers.cat == NGHTTP2_HCAT_REQUEST {
                c.streams[frame!.pointee.hd.stream_id] = Stream()
            }
            return 0
        }
        nghttp2_session_callbacks_set_on_header_callback(callbacks) { _, frame, name, nameLength, value, valueLength, _, user in
            guard let stream = HTTP2Connection.from(user).streams[frame!.pointee.hd.stream_id] else { return 0 }
            stream.headerBytes += nameLength + valueLength + 32  // as SETTINGS_MAX_HEADER_LIST_SIZE counts
            if stream.headerBytes <= HTTP2Connection.from(user).server.limits.headerBytes {
                stream.headers.append((String(decoding: UnsafeBufferPointer(start: name, count: nameLength), as: UTF8.self),
                                       String(decoding: UnsafeBufferPointer(start: value, count: valueLength), as: UTF8.self)))
            }
            return 0
        }
        nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks) { _, _, id, data, length, user in
            let c = HTTP2Connection.from(user)
            guard let stream = c.streams[id] else { return 0 }
            stream.lastByte = Date()
            stream.length += length
            let room = max(0, c.server.limits.bodyBytes + 1 - stream.body.count)
            if room > 0, let data { stream.body += UnsafeBufferPointer(start: data, count: min(room, length)) }
            return 0
        }
        nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks) { session, frame, user in
            let c = HTTP2Connection.from(user), hd = frame!.pointee.hd
            let ends = (hd.type == UInt8(NGHTTP2_HEADERS.rawValue) || hd.type == UInt8(NGHTTP2_DATA.rawValue)) && hd.flags & UInt8(NGHTTP2_FLAG_END_STREAM.rawValue) != 0
            if ends, let stream = c.streams[hd.stream_id] { c.respond(hd.stream_id, stream) }
            return 0
        }
        nghttp2_session_callbacks_set_on_stream_close_callback(callbacks) { _, id, _, user in
            let c = HTTP2Connection.from(user)
            c.streams[id]?.events?.cancel()
            c.streams[id] = nil
            return 0
        }
        let user = Unmanaged.passUnretained(self).toOpaque()
        guard nghttp2_session_server_new(&session, callbacks, user) == 0 else { return }
        defer { nghttp2_session_del(session) }
        var settings = [nghttp2_settings_entry(settings_id: Int32(NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS.rawValue), value: 100),
                        nghttp2_settings_entry(settings_id: Int32(NGHTTP2_SETTINGS_MAX_HEADER_LIST_SIZE.rawValue), value: UInt32(server.limits.headerBytes))]
        nghttp2_submit_settings(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), &settings, settings.count)
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while flush() {
            if nghttp2_session_want_read(session) == 0 && nghttp2_session_want_write(session) == 0 { return }
            let streaming = streams.values.contains { $0.events != nil }
            tellPhase(streaming: streaming)
            if overstayed() {
                nghttp2_session_terminate_session(session, UInt32(NGHTTP2_ENHANCE_YOUR_CALM.rawValue))
                _ = flush()
                return
            }
            if !io.buffered {
                var fds = [pollfd(fd: io.fd, events: Int16(POLLIN), revents: 0), pollfd(fd: server.stopping, events: Int16(POLLIN), revents: 0)]
                let ready = poll(&fds, 2, streaming || !streams.isEmpty ? 250 : 1000)
                if fds[1].revents != 0 {
                    nghttp2_session_terminate_session(session, UInt32(NGHTTP2_NO_ERROR.rawValue))
                    _ = flush()
                    return
                }
                if ready <= 0 || fds[0].revents == 0 {
                    if streaming { for (id, s) in streams where s.deferred { s.deferred = false; nghttp2_session_resume_data(session, id) } }
                    continue
                }
            }
            let n = buffer.withUnsafeMutableBytes { io.read($0) }
            guard n > 0 else { return }
            let used = buffer.withUnsafeBufferPointer { nghttp2_session_mem_recv(session, $0.baseAddress, n) }
            if used < 0 {
                _ = flush()  // nghttp2 has queued GOAWAY with the reason
                return
            }
        }
    }

    /// Tells the server's table what the connection is doing when that changes: awaiting its first
    /// request, answering, idle between requests, or holding an event stream (no deadline).
    private func tellPhase(streaming: Bool) {
        let now: ClientTable.Phase = streaming ? .streaming : streams.isEmpty ? (phase == .awaitingRequest ? .awaitingRequest : .idle) : .answering
        guard now != phase else { return }
        phase = now
        server.enter(io.fd, now)
    }

    /// Whether the connection must end now: a stream the peer has left no window to send on for
    /// `stalledSeconds`, or a request that stopped arriving for `bodyIdleSeconds` (or still has
    /// not arrived whole after `answerSeconds`, however it drips).
    private func overstayed() -> Bool {
        let now = Date(), connection = nghttp2_session_get_remote_window_size(session)
        for (id, stream) in streams {
            if !stream.answered {
                if now.timeIntervalSince(stream.lastByte) > Double(server.limits.bodyIdleSeconds)
                    || now.timeIntervalSince(stream.created) > server.limits.answerSeconds { return true }
                continue
            }
            let waiting = stream.sent < stream.response.count || stream.events != nil
            let window = min(connection, nghttp2_session_get_stream_remote_window_size(session, id))
            if waiting && window <= 0 {
                let since = stream.shutSince ?? now
                stream.shutSince = since
                if now.timeIntervalSince(since) > server.limits.stalledSeconds { return true }
            } else {
                stream.shutSince = nil
            }
        }
        return false
    }

    /// Writes what the session has to send; false when the peer is gone.
    private func flush() -> Bool {
        while true {
            var data: UnsafePointer<UInt8>?
            let n = nghttp2_session_mem_send(session, &data)
            if n < 0 { return false }
            if n == 0 { return true }
            guard io.write(UnsafeRawBufferPointer(start: data, count: n)) else { return false }
        }
    }

    private func respond(_ id: Int32, _ stream: Stream) {
        stream.answered = true
        // A new request answered: the answering deadline starts again.
        phase = .answering
        server.enter(io.fd, .answering)
        let answer: HTTPResponse
        if stream.headerBytes > server.limits.headerBytes {
            answer = HTTPResponse(status: 431, headers: [("content-type", "text/plain")], body: Array("request headers too large\n".utf8))
        } else {
            let find = { (name: String) in stream.headers.first { $0.name == name }?.value ?? "" }
            var request = HTTPRequest(method: find(":method"), path: find(":path"), headers: stream.headers, body: stream.body,
                                      version: "HTTP/2", tls: io is TLSSocket)
            request.bodyLength = stream.length
            if stream.length > server.limits.bodyBytes {
                request.bodyTooLarge = true
                request.body = Array(stream.body.prefix(server.limits.bodyBytes))
            }
            answer = request.framingError.map { HTTPResponse(status: 400, headers: [("content-type", "text/plain")], body: Array("\($0)\n".utf8)) }
                ?? server.handler(request)
        }
        switch answer.body {
        case .bytes(let bytes): stream.response = bytes
        case .events(let subscription): stream.events = subscription
        }
        stream.body = []
        let headers = [(":status", String(answer.status))] + answer.headers.map { ($0.name.lowercased(), $0.value) }
        // Every name and value in one buffer, which nghttp2 copies from during the call.
        var text: [UInt8] = [], spans: [(name: Int, nameLength: Int, value: Int, valueLength: Int)] = []
        for (name, value) in headers {
            let n = text.count
            text += name.utf8
            let v = text.count
            text += value.utf8
            spans.append((n, v - n, v, text.count - v))
        }
        var provider = nghttp2_data_provider(source: nghttp2_data_source(fd: 0), read_callback: { session, id, buffer, length, flags, _, user in
            let c = HTTP2Connection.from(user)
            guard let stream = c.streams[id] else { flags!.pointee |= UInt32(NGHTTP2_DATA_FLAG_EOF.rawValue); return 0 }
            if stream.sent == stream.response.count, let events = stream.events {
                guard let next = events.poll() else { flags!.pointee |= UInt32(NGHTTP2_DATA_FLAG_EOF.rawValue); return 0 }
                if next.isEmpty { stream.deferred = true; return Int(NGHTTP2_ERR_DEFERRED.rawValue) }
                stream.response = next
                stream.sent = 0
            }
            let n = min(length, stream.response.count - stream.sent)
            stream.response.withUnsafeBytes { buffer!.update(from: $0.baseAddress!.assumingMemoryBound(to: UInt8.self) + stream.sent, count: n) }
            stream.sent += n
            if stream.sent == stream.response.count && stream.events == nil { flags!.pointee |= UInt32(NGHTTP2_DATA_FLAG_EOF.rawValue) }
            return n
        })
        text.withUnsafeMutableBufferPointer { t in
            let nva = spans.map { nghttp2_nv(name: t.baseAddress! + $0.name, value: t.baseAddress! + $0.value, namelen: $0.nameLength,
                                             valuelen: $0.valueLength, flags: UInt8(NGHTTP2_NV_FLAG_NONE.rawValue)) }
            _ = nva.withUnsafeBufferPointer { nghttp2_submit_response(session, id, $0.baseAddress, $0.count, &provider) }
        }
    }

    static func from(_ user: UnsafeMutableRawPointer?) -> HTTP2Connection {
        Unmanaged<HTTP2Connection>.fromOpaque(user!).takeUnretainedValue()
    }
}
