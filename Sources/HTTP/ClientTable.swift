import Foundation

/// Who is connected, and what each connection may still take: the server's admission and
/// deadline rules as one value — events in (admitted, moved to a phase, gone, the clock),
/// actions out (connections to cut) — so they are tested without sockets or threads, as
/// swift-nio's state machines are. The server holds it in a `Mutex` and carries out what it says.
///
/// A connection's phase says what it owes: a TLS handshake, a request's headers, an answer being
/// read, or nothing (idle keep-alive, an event stream). Each phase but streaming has a deadline
/// from `HTTPLimits`; a connection past it is cut, whatever it is dripping. When the server is
/// full, a new connection takes the place of the oldest one that owes a handshake or headers,
/// or sits idle — the cheapest to lose, and what a slow or silent client holds — and only when
/// every place is at work is it told 503. A non-loopback address may hold `perAddress` at most.
struct ClientTable {
    enum Phase: Equatable, Sendable {
        /// Owes its first bytes, or its TLS handshake.
        case handshake
        /// Owes a whole request's headers.
        case awaitingRequest
        /// Its answer is being made or read.
        case answering
        /// Between requests (HTTP/2 keep-alive).
        case idle
        /// An event stream: held on purpose, no deadline.
        case streaming
    }

    struct Client: Equatable {
        /// Which connection this is, whatever number its descriptor has (numbers are reused).
        var serial: Int
        var address: String
        var loopback: Bool
        var since: Date
        var phase: Phase
        var deadline: Date?
        /// Owes something and may be cut to make room.
        var evictable: Bool { phase == .handshake || phase == .awaitingRequest || phase == .idle }
    }

    let limits: HTTPLimits
    private(set) var clients: [Int32: Client] = [:]
    private var admitted = 0

    init(limits: HTTPLimits) { self.limits = limits }

    enum Admission: Equatable {
        /// Take it, after cutting these.
        case admitted(evicting: [Int32])
        /// Answer 503 and close: every place is at work.
        case full
    }

    /// A connection just accepted on `fd`.
    mutating func admit(_ fd: Int32, address: String, loopback: Bool, now: Date) -> Admission {
        var evicting: [Int32] = []
        if !loopback {
            let mine = clients.filter { $0.value.address == address }
            if mine.count >= limits.perAddress {
                guard let oldest = Self.oldestEvictable(mine) else { return .full }
                evicting.append(oldest)
            }
        }
        if clients.count - evicting.count >= limits.connections {
            guard let oldest = Self.oldestEvictable(clients.filter { !evicting.contains($0.key) }) else { return .full }
            evicting.append(oldest)
        }
        for fd in evicting { clients[fd] = nil }
        admitted += 1
        clients[fd] = Client(serial: admitted, address: address, loopback: loopback, since: now, phase: .handshake, deadline: now.addingTimeInterval(limits.handshakeSeconds))
        return .admitted(evicting: evicting)
    }

    /// `fd` moved on to `phase`; its deadline starts now.
    mutating func enter(_ fd: Int32, _ phase: Phase, now: Date) {
        guard clients[fd] != nil else { return }
        clients[fd]!.phase = phase
        clients[fd]!.deadline = deadline(of: phase, from: now)
    }

    func deadline(of phase: Phase, from now: Date) -> Date? {
        switch phase {
        case .handshake: return now.addingTimeInterval(limits.handshakeSeconds)
        case .awaitingRequest: return now.addingTimeInterval(limits.headerSeconds)
        case .answering: return now.addingTimeInterval(limits.answerSeconds)
        case .idle: return now.addingTimeInterval(limits.idleSeconds)
        case .streaming: return nil
        }
    }

    /// `fd` is closed (or handed on and no longer this table's). With `serial`, only when it is
    /// still that connection: one whose socket someone else closed may have a successor by now.
    mutating func leave(_ fd: Int32, serial: Int? = nil) {
        guard serial == nil || clients[fd]?.serial == serial else { return }
        clients[fd] = nil
    }

    /// The connections past their deadline, to cut; they leave the table.
    mutating func expired(now: Date) -> [Int32] {
        let late = clients.filter { $0.value.deadline.map { $0 <= now } ?? false }.map(\.key).sorted()
        for fd in late { clients[fd] = nil }
        return late
    }

    /// When the next deadline falls, for the watchdog's sleep.
    var nextDeadline: Date? { clients.values.compactMap(\.deadline).min() }

    private static func oldestEvictable(_ among: [Int32: Client]) -> Int32? {
        among.filter { $0.value.evictable }.min { ($0.value.since, $0.key) < ($1.value.since, $1.key) }?.key
    }
}
