import CHTTP
import Foundation

/// One listening socket for every protocol the server speaks. Each accepted connection is
/// sniffed by its first bytes: a TLS handshake (HTTP/2 after ALPN, as APNs's provider API
/// requires), HTTP/2's connection preface in the clear (h2c, `curl --http2-prior-knowledge`), or
/// else HTTP/1.1, which libmicrohttpd takes over. Requests of every kind reach one handler.
public final class HTTPServer: @unchecked Sendable {
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
    private let lock = NSLock()
    private var open = 0
    /// The sockets of connections this server still serves itself (not handed to libmicrohttpd):
    /// `stop` shuts them down, so a thread blocked in a read or a TLS handshake returns at once.
    private var live: Set<Int32> = []
    private var acceptThread: Thread?
    private let stopped = DispatchSemaphore(value: 0)

    public struct ListenError: Error, CustomStringConvertible {
        public var description: String
    }

    /// Binds and listens (port 0: any free port, then `port` says which).
    public init(host: String, port: Int, tls: TLSIdentity?, limits: HTTPLimits = HTTPLimits(), handler: @escaping Handler) throws(ListenError) {
        self.host = host; self.tls = tls; self.limits = limits; self.handler = handler
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
        guard Glibc.listen(fd, 128) == 0 else {
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

    /// Stops accepting, closes every connection and returns when they are gone. Event streams
    /// must have been ended first (`EventHub.close`).
    public func stop() {
        var one: UInt64 = 1
        _ = write(stopping, &one, 8)
        if acceptThread != nil { stopped.wait() }
        http1?.stop()
        http1 = nil
        lock.withLock { for fd in live { shutdown(fd, Int32(SHUT_RDWR)) } }
        while lock.withLock({ open }) > 0 { usleep(10_000) }
        close(listener)
    }

    private func acceptLoop() {
        defer { stopped.signal() }
        var fds = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0), pollfd(fd: stopping, events: Int16(POLLIN), revents: 0)]
        while true {
            guard poll(&fds, 2, -1) >= 0 || errno == EINTR else { return }
            if fds[1].revents != 0 { return }
            guard fds[0].revents != 0 else { continue }
            let fd = chttp_accept(listener)
            guard fd >= 0 else { continue }
            let admitted = lock.withLock { () -> Bool in
                guard open < limits.connections else { return false }
                open += 1
                live.insert(fd)
                return true
            }
            guard admitted else { close(fd); continue }
            let thread = Thread { [self] in
                let ours = connection(fd)
                lock.withLock { open -= 1; live.remove(fd) }
                if ours { close(fd) }
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
    }

    /// Tells the protocol by the first bytes and serves the connection in it; false when the
    /// socket was handed to libmicrohttpd (which closes it), true when the caller closes it.
    private func connection(_ fd: Int32) -> Bool {
        var timeout = timeval(tv_sec: limits.idleSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        switch sniff(fd) {
        case nil:
            return true
        case .tls?:
            if let tls, let session = tls.accept(fd) { HTTP2Connection(server: self, io: session).run() }
            return true
        case .h2c?:
            HTTP2Connection(server: self, io: PlainSocket(fd: fd)).run()
            return true
        case .http1?:
            timeout = timeval(tv_sec: 0, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            guard let http1 else { return true }
            lock.withLock { _ = live.remove(fd) }
            if http1.add(fd) { return false }
            lock.withLock { _ = live.insert(fd) }
            return true
        }
    }

    enum Kind { case tls, h2c, http1 }
    static let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)

    /// Peeks until the first bytes decide; nil when the peer sends nothing in time or closes.
    private func sniff(_ fd: Int32) -> Kind? {
        var buffer = [UInt8](repeating: 0, count: Self.preface.count)
        let deadline = Date(timeIntervalSinceNow: Double(limits.idleSeconds))
        while Date() < deadline {
            let n = recv(fd, &buffer, buffer.count, Int32(MSG_PEEK))
            guard n > 0 else { return nil }
            if buffer[0] == 0x16 { return .tls }
            let seen = Array(buffer[0..<n])
            if seen != Array(Self.preface.prefix(n)) { return .http1 }
            if n == Self.preface.count { return .h2c }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            usleep(5_000)  // more of a preface is on its way: wait for it, not for the same bytes again
            _ = poll(&p, 1, 1000)
        }
        return nil
    }
}

/// A signal threads can poll for (an eventfd): written once, readable for ever after.
public final class WakeSignal: @unchecked Sendable {
    public let fd = chttp_eventfd()
    public init() {}
    public func signal() {
        var one: UInt64 = 1
        _ = write(fd, &one, 8)
    }
    deinit { close(fd) }
}
