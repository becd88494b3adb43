import CHTTP
import Foundation
import Synchronization

/// One listening socket for every protocol the server speaks. Each accepted connection is
/// sniffed by its first bytes: a TLS handshake (HTTP/2 after ALPN, as APNs's provider API
/// requires), HTTP/2's connection preface in the clear (h2c, `curl --http2-prior-knowledge`), or
/// else HTTP/1.1, whose whole headers are awaited here before libmicrohttpd takes the connection
/// over. Requests of every kind reach one handler.
///
/// Every connection is in `ClientTable`, under one lock: admitted or told 503 there, moved from
/// phase to phase by its thread (or by libmicrohttpd's callbacks), and cut — its socket shut
/// down, which wakes whatever read, write or handshake it is blocked in — when it overstays a
/// phase. The accept loop is the watchdog: it wakes for the next deadline.
public final class HTTPServer: @unchecked Sendable {  // owns sockets, an eventfd and the MHD daemon
    public typealias Handler = @Sendable (HTTPRequest) -> HTTPResponse
    let handler: Handler
    let limits: HTTPLimits
    let tls: TLSIdentity?
    public let host: String
    public private(set) var port = 0
    private var listener: Int32 = -1
    /// Written once on stop: wakes the accept loop and every HTTP/2 connection's poll.
    let stopping: Int32
    private var http1: HTTP1Daemon?
    let table: Mutex<ClientTable>
    /// Connection threads still running (stop waits for them).
    private let threads = Atomic<Int>(0)
    private var acceptThread: Thread?
    private let stopped = DispatchSemaphore(value: 0)

    public struct ListenError: Error, CustomStringConvertible {
        public var description: String
    }

    /// Binds and listens (port 0: any free port, then `port` says which).
    public init(host: String, port: Int, tls: TLSIdentity?, limits: HTTPLimits = HTTPLimits(), handler: @escaping Handler) throws(ListenError) {
        self.host = host; self.tls = tls; self.limits = limits; self.handler = handler
        table = Mutex(ClientTable(limits: limits))
        stopping = chttp_eventfd()
        var hints = addrinfo()
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &found)
        guard status == 0, let address = found else {
            throw ListenError(description: "cannot listen on \(host): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(found) }
        let fd = socket(address.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw ListenError(description: "cannot open a socket: \(String(cString: strerror(errno)))") }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        guard bind(fd, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 else {
            let code = errno
            close(fd)
            throw ListenError(description: code == EADDRINUSE
                ? "\(host):\(port) is already in use (is another pushpreview serve running? give another --port)"
                : "cannot listen on \(host):\(port): \(String(cString: strerror(code)))")
        }
        guard Glibc.listen(fd, 512) == 0 else {
            close(fd)
            throw ListenError(description: "cannot listen on \(host):\(port): \(String(cString: strerror(errno)))")
        }
        var bound = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        withUnsafeMutablePointer(to: &bound) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { _ = getsockname(fd, $0, &length) } }
        self.port = withUnsafePointer(to: &bound) { p in
            p.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin_port)) }
        }
        listener = fd
        do { http1 = try HTTP1Daemon(server: self) } catch {
            close(fd)
            throw error
        }
    }

    /// Accepts connections on a thread of its own until `stop`.
    public func start() {
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "accept"
        thread.start()
        acceptThread = thread
    }

    /// Stops accepting, cuts every connection and returns when their threads are gone. Event
    /// streams must have been ended first (`EventHub.close`).
    public func stop() {
        var one: UInt64 = 1
        _ = write(stopping, &one, 8)
        if acceptThread != nil { stopped.wait() }
        table.withLock { for fd in $0.clients.keys { shutdown(fd, Int32(SHUT_RDWR)) } }
        http1?.stop()
        http1 = nil
        while threads.load(ordering: .acquiring) > 0 { usleep(5_000) }
        close(listener)
    }

    /// The connection moved on to `phase`: its deadline starts now.
    func enter(_ fd: Int32, _ phase: ClientTable.Phase) { table.withLock { $0.enter(fd, phase, now: Date()) } }

    private func acceptLoop() {
        defer { stopped.signal() }
        var fds = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0), pollfd(fd: stopping, events: Int16(POLLIN), revents: 0)]
        while true {
            let wait = table.withLock { $0.nextDeadline }.map { max(0, min(1000, Int32($0.timeIntervalSinceNow * 1000) + 1)) } ?? 1000
            guard poll(&fds, 2, wait) >= 0 || errno == EINTR else { return }
            if fds[1].revents != 0 { return }
            // The watchdog: whoever overstayed a phase is cut (its thread wakes, fails, and ends).
            table.withLock { t in for fd in t.expired(now: Date()) { shutdown(fd, Int32(SHUT_RDWR)) } }
            guard fds[0].revents != 0 else { continue }
            let fd = chttp_accept(listener)
            guard fd >= 0 else { continue }
            var text = [CChar](repeating: 0, count: 64)
            let loopback = chttp_peer(fd, &text, text.count) == 1
            let address = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let admitted = table.withLock { t -> Bool in
                switch t.admit(fd, address: address, loopback: loopback, now: Date()) {
                case .admitted(let evicting):
                    for old in evicting { shutdown(old, Int32(SHUT_RDWR)) }
                    return true
                case .full: return false
                }
            }
            guard admitted else { Self.refuse(fd); continue }
            threads.add(1, ordering: .relaxed)
            let thread = Thread { [self] in
                let ours = connection(fd)
                if ours {
                    table.withLock { $0.leave(fd) }
                    close(fd)
                }
                threads.subtract(1, ordering: .releasing)
            }
            thread.stackSize = 512 << 10
            thread.start()
        }
    }

    /// Every place is at work: told so in a word and closed (a TLS client sees a failed
    /// handshake, an HTTP client 503), never left hanging.
    static func refuse(_ fd: Int32) {
        let answer = Array("HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain\r\nRetry-After: 1\r\nConnection: close\r\nContent-Length: 12\r\n\r\nserver busy\n".utf8)
        _ = answer.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL)) }
        close(fd)
    }

    /// Tells the protocol by the first bytes and serves the connection in it; false when the
    /// socket was handed to libmicrohttpd (which closes it), true when the caller closes it.
    private func connection(_ fd: Int32) -> Bool {
        // A backstop under the deadlines: a blocked send or receive gives up on its own too.
        var timeout = timeval(tv_sec: Int(limits.stalledSeconds), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        switch sniff(fd) {
        case nil:
            return true
        case .tls?:
            if let tls, let session = tls.accept(fd) {
                enter(fd, .awaitingRequest)
                HTTP2Connection(server: self, io: session).run()
            }
            return true
        case .h2c?:
            enter(fd, .awaitingRequest)
            HTTP2Connection(server: self, io: PlainSocket(fd: fd)).run()
            return true
        case .http1?:
            enter(fd, .awaitingRequest)
            switch awaitHeaders(fd) {
            case .whole: break
            case .tooLarge:
                let answer = Array("HTTP/1.1 431 Request Header Fields Too Large\r\nContent-Type: text/plain\r\nConnection: close\r\nContent-Length: 26\r\n\r\nrequest headers too large\n".utf8)
                _ = answer.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                Self.drainBeforeClosing(fd)
                return true
            case .gone: return true
            }
            timeout = timeval(tv_sec: 0, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            guard let http1 else { return true }
            enter(fd, .answering)
            let serial = table.withLock { $0.clients[fd]?.serial }
            // On failure the socket is closed already (its number may be another's by now).
            if !http1.add(fd) { table.withLock { $0.leave(fd, serial: serial) } }
            return false
        }
    }

    /// A lingering close, as nginx does it: the answer sent, no more is written, and what the
    /// client is still sending is read and dropped for a moment — closing with it unread would
    /// reset the connection, and the client would never see the answer.
    static func drainBeforeClosing(_ fd: Int32) {
        shutdown(fd, Int32(SHUT_WR))
        var buffer = [UInt8](repeating: 0, count: 16 << 10)
        let until = Date(timeIntervalSinceNow: 1)
        var total = 0
        while Date() < until, total < 1 << 20 {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, 100) > 0 else { continue }
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { return }
            total += n
        }
    }

    enum Kind { case tls, h2c, http1 }
    static let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)

    /// Peeks until the first bytes decide; nil when the peer closes, or is cut for sending
    /// nothing within its handshake deadline.
    private func sniff(_ fd: Int32) -> Kind? {
        var buffer = [UInt8](repeating: 0, count: Self.preface.count)
        var seen = 0
        while true {
            let n = recv(fd, &buffer, buffer.count, Int32(MSG_PEEK))
            guard n > 0 else { return nil }
            if buffer[0] == 0x16 { return .tls }
            if Array(buffer[0..<n]) != Array(Self.preface.prefix(n)) { return .http1 }
            if n == Self.preface.count { return .h2c }
            guard Self.awaitMore(fd, after: n, seen: &seen) else { return nil }
        }
    }

    /// Waits for bytes beyond the `n` already peeked (peeking does not take them, so poll keeps
    /// saying they are there); false when no more can come: the peer closed its side, or the
    /// watchdog shut the socket down.
    static func awaitMore(_ fd: Int32, after n: Int, seen: inout Int) -> Bool {
        var p = pollfd(fd: fd, events: Int16(POLLIN) | chttp_pollrdhup, revents: 0)
        _ = poll(&p, 1, 1000)
        if p.revents & (Int16(POLLHUP) | Int16(POLLERR) | chttp_pollrdhup) != 0 { return false }
        if n == seen { usleep(20_000) }  // the same bytes again: wait for more, not for them
        seen = n
        return true
    }

    enum Headers { case whole, tooLarge, gone }

    /// HTTP/1.1's request line and headers, peeked until they end (a blank line) within
    /// `headerBytes`: libmicrohttpd takes the connection only then, so headers dripped a byte at a
    /// time are cut by the deadline here, and larger ones get 431, before it holds a thread.
    private func awaitHeaders(_ fd: Int32) -> Headers {
        let end = Array("\r\n\r\n".utf8)
        var buffer = [UInt8](repeating: 0, count: limits.headerBytes + 4)
        var seen = 0
        while true {
            let n = recv(fd, &buffer, buffer.count, Int32(MSG_PEEK))
            guard n > 0 else { return .gone }
            if buffer[0..<n].firstRange(of: end) != nil { return .whole }
            if n >= buffer.count { return .tooLarge }
            guard Self.awaitMore(fd, after: n, seen: &seen) else { return .gone }
        }
    }
}

/// A signal threads can poll for (an eventfd): written once, readable for ever after.
public final class WakeSignal: @unchecked Sendable {  // owns an eventfd
    public let fd = chttp_eventfd()
    public init() {}
    public func signal() {
        var one: UInt64 = 1
        _ = write(fd, &one, 8)
    }
    deinit { close(fd) }
}
