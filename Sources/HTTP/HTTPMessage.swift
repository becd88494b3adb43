import Foundation

/// One request as either transport received it: header names in lower case, the path as sent
/// (still percent-encoded, query included), the body up to the server's limit.
public struct HTTPRequest: Sendable {
    public var method: String
    public var path: String
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]
    /// The body was longer than the limit; `body` holds its first bytes, `bodyLength` its length.
    public var bodyTooLarge = false
    public var bodyLength = 0
    /// "HTTP/1.1" or "HTTP/2".
    public var version: String
    public var tls: Bool

    public init(method: String, path: String, headers: [(name: String, value: String)], body: [UInt8], version: String, tls: Bool) {
        self.method = method; self.path = path; self.headers = headers; self.body = body; self.version = version; self.tls = tls
        bodyLength = body.count
    }

    /// The first value of a header, by its lower-case name.
    public func header(_ name: String) -> String? { headers.first { $0.name == name }?.value }
    /// HTTP/2's :authority, else Host.
    public var host: String? { header(":authority") ?? header("host") }

    /// Why the request's length cannot be trusted, on either protocol: two `Content-Length`s
    /// that differ, or one that is not a number (RFC 9112 §6.3: a 400, never a guess).
    var framingError: String? {
        let lengths = Set(headers.filter { $0.name == "content-length" }.flatMap { $0.value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } })
        if lengths.count > 1 { return "Content-Length is given twice, as \(lengths.sorted().joined(separator: " and "))" }
        if let length = lengths.first, length.isEmpty || !length.allSatisfy({ $0.isASCII && $0.isNumber }) { return "Content-Length \(length.prefix(20)) is not a number" }
        return nil
    }
}

public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: Body

    public enum Body: Sendable {
        case bytes([UInt8])
        /// Server-Sent Events: the stream stays open and carries what the hub publishes.
        case events(EventHub.Subscription)
    }

    public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status; self.headers = headers; self.body = .bytes(body)
    }

    public init(events: EventHub.Subscription, headers: [(name: String, value: String)] = []) {
        status = 200
        self.headers = headers + [("content-type", "text/event-stream"), ("cache-control", "no-store")]
        body = .events(events)
    }
}

/// A client's budget, one value for both protocols: what a connection may send and how long it
/// may take at each step (the deadlines are nginx's `client_header_timeout` and Go's
/// `ReadHeaderTimeout` by another name), and how many connections may be open. `ClientTable`
/// enforces the steps; the transports enforce the sizes.
public struct HTTPLimits: Sendable {
    /// Request line and headers together, in bytes (431 above), on both protocols.
    public var headerBytes = 16 * 1024
    /// A request body, in bytes; a longer one is read no further than this and marked too large.
    public var bodyBytes = 64 * 1024
    /// Seconds from the connection to its first bytes and a whole TLS handshake.
    public var handshakeSeconds = 10.0
    /// Seconds a request's headers may take to arrive whole (dripped ones are cut).
    public var headerSeconds = 10.0
    /// Seconds a body may go without a byte.
    public var bodyIdleSeconds = 10
    /// Seconds an answer may take to be read (a slow reader is cut), event streams aside.
    public var answerSeconds = 30.0
    /// Seconds a connection may have something to send that the peer takes none of (an HTTP/2
    /// window left at 0, a socket not read).
    public var stalledSeconds = 10.0
    /// Seconds a connection may stay idle between requests.
    public var idleSeconds = 30.0
    /// Connections open at once; beyond it the oldest that owes a handshake or a request, or is
    /// idle, makes room, else the new one is told 503.
    public var connections = 256
    /// Connections one address other than loopback may hold (every local client shares
    /// 127.0.0.1, so it has the global limit only).
    public var perAddress = 32
    public init() {}
}

/// Server-Sent Events to every open page: each subscriber keeps its own queue of messages,
/// bounded (a page that stops reading loses its oldest and is told to reload).
public final class EventHub: @unchecked Sendable {
    private let lock = NSCondition()
    private var subscribers: [ObjectIdentifier: Subscription] = [:]
    private var closed = false
    static let queueLimit = 64

    public init() {}

    public final class Subscription: @unchecked Sendable {
        fileprivate weak var hub: EventHub?
        fileprivate var queue: [[UInt8]] = []
        fileprivate var overflowed = false
        fileprivate var ended = false
        init(hub: EventHub) { self.hub = hub }

        /// The next bytes to send: a message, a keep-alive comment after `seconds` of quiet, or
        /// nil when the hub is closed or the subscription cancelled.
        public func next(waiting seconds: Double) -> [UInt8]? {
            guard let hub else { return nil }
            return hub.next(for: self, waiting: seconds)
        }

        /// What is waiting now, without waiting: a message, nothing yet (empty), or nil when ended.
        public func poll() -> [UInt8]? {
            guard let hub else { return nil }
            return hub.take(for: self)
        }

        public func cancel() { hub?.remove(self) }
    }

    public func subscribe() -> Subscription {
        let s = Subscription(hub: self)
        lock.withLock { if closed { s.ended = true } else { subscribers[ObjectIdentifier(s)] = s } }
        return s
    }

    public var count: Int { lock.withLock { subscribers.count } }

    /// Sends `event` with `data` (one line of JSON) to every subscriber.
    public func publish(event: String, data: String) {
        let message = Array("event: \(event)\ndata: \(data.replacingOccurrences(of: "\n", with: "\ndata: "))\n\n".utf8)
        lock.withLock {
            for s in subscribers.values {
                if s.queue.count >= Self.queueLimit { s.queue.removeAll(); s.overflowed = true }
                s.queue.append(message)
            }
            lock.broadcast()
        }
    }

    /// Ends every stream (the server is stopping).
    public func close() {
        lock.withLock {
            closed = true
            for s in subscribers.values { s.ended = true }
            subscribers = [:]
            lock.broadcast()
        }
    }

    fileprivate func remove(_ s: Subscription) {
        lock.withLock { s.ended = true; subscribers[ObjectIdentifier(s)] = nil; lock.broadcast() }
    }

    fileprivate func take(for s: Subscription) -> [UInt8]? {
        let pending = lock.withLock { !s.queue.isEmpty || s.ended || s.overflowed }
        return pending ? next(for: s, waiting: 0) : []
    }

    fileprivate func next(for s: Subscription, waiting seconds: Double) -> [UInt8]? {
        lock.withLock {
            let deadline = Date(timeIntervalSinceNow: seconds)
            while s.queue.isEmpty && !s.ended && !s.overflowed {
                if !lock.wait(until: deadline) { return Array(": keep-alive\n\n".utf8) }
            }
            if s.ended { return nil }
            if s.overflowed {
                s.overflowed = false
                return Array("event: reload\ndata: {}\n\n".utf8) + s.queue.removeFirst()
            }
            return s.queue.removeFirst()
        }
    }
}
