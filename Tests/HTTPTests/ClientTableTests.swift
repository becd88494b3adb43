@testable import HTTP
import Foundation
import Testing

/// The server's admission and deadline rules, as the value they are: no sockets, no threads, a
/// clock that is only what each call says.
struct ClientTableTests {
    static func limits(connections: Int = 4, perAddress: Int = 2) -> HTTPLimits {
        var l = HTTPLimits()
        l.connections = connections
        l.perAddress = perAddress
        return l
    }
    let t0 = Date(timeIntervalSince1970: 1_000_000)

    /// Full of silent clients: a newcomer takes the place of the oldest (they owe a handshake);
    /// full of working ones (event streams, answers): it is told 503.
    @Test func aNewcomerTakesTheOldestSilentPlaceElseIsTold503() {
        var table = ClientTable(limits: Self.limits())
        for fd in Int32(10)...13 { #expect(table.admit(fd, address: "127.0.0.1", loopback: true, now: t0.addingTimeInterval(Double(fd))) == .admitted(evicting: [])) }
        #expect(table.admit(14, address: "127.0.0.1", loopback: true, now: t0.addingTimeInterval(20)) == .admitted(evicting: [10]))
        for fd in Int32(11)...14 { table.enter(fd, .streaming, now: t0.addingTimeInterval(21)) }
        #expect(table.admit(15, address: "127.0.0.1", loopback: true, now: t0.addingTimeInterval(22)) == .full)
        // An idle keep-alive connection is as cheap to lose as a silent one.
        table.enter(12, .idle, now: t0.addingTimeInterval(23))
        #expect(table.admit(15, address: "127.0.0.1", loopback: true, now: t0.addingTimeInterval(24)) == .admitted(evicting: [12]))
    }

    /// Each phase has its deadline; moving on starts the next; an event stream has none.
    @Test func eachPhaseIsCutAtItsDeadline() {
        let limits = Self.limits()
        var table = ClientTable(limits: limits)
        _ = table.admit(10, address: "127.0.0.1", loopback: true, now: t0)
        _ = table.admit(11, address: "127.0.0.1", loopback: true, now: t0)
        _ = table.admit(12, address: "127.0.0.1", loopback: true, now: t0)
        table.enter(11, .awaitingRequest, now: t0.addingTimeInterval(5))
        table.enter(12, .streaming, now: t0.addingTimeInterval(5))
        #expect(table.nextDeadline == t0.addingTimeInterval(limits.handshakeSeconds))
        #expect(table.expired(now: t0.addingTimeInterval(limits.handshakeSeconds - 0.1)) == [])
        #expect(table.expired(now: t0.addingTimeInterval(limits.handshakeSeconds)) == [10], "the silent one, at its handshake deadline")
        #expect(table.expired(now: t0.addingTimeInterval(5 + limits.headerSeconds)) == [11], "headers dripped past their deadline")
        #expect(table.expired(now: t0.addingTimeInterval(86_400)) == [] && table.clients.keys.sorted() == [12], "an event stream stays")
        table.enter(12, .answering, now: t0.addingTimeInterval(100))
        #expect(table.expired(now: t0.addingTimeInterval(100 + limits.answerSeconds)) == [12], "a slow reader, cut")
    }

    /// A remote address holds `perAddress` places at most (its oldest silent one makes room);
    /// loopback clients, which all share one address, have the global limit only.
    @Test func oneRemoteAddressCannotTakeEveryPlace() {
        var table = ClientTable(limits: Self.limits(connections: 10, perAddress: 2))
        _ = table.admit(10, address: "192.0.2.7", loopback: false, now: t0)
        _ = table.admit(11, address: "192.0.2.7", loopback: false, now: t0.addingTimeInterval(1))
        #expect(table.admit(12, address: "192.0.2.7", loopback: false, now: t0.addingTimeInterval(2)) == .admitted(evicting: [10]))
        table.enter(11, .answering, now: t0.addingTimeInterval(3))
        table.enter(12, .answering, now: t0.addingTimeInterval(3))
        #expect(table.admit(13, address: "192.0.2.7", loopback: false, now: t0.addingTimeInterval(4)) == .full)
        #expect(table.admit(13, address: "198.51.100.1", loopback: false, now: t0.addingTimeInterval(4)) == .admitted(evicting: []))
        for fd in Int32(14)...16 { #expect(table.admit(fd, address: "127.0.0.1", loopback: true, now: t0.addingTimeInterval(5)) == .admitted(evicting: [])) }
    }

    /// A connection whose socket libmicrohttpd closed may have a successor on the same number:
    /// leaving with the old serial does not remove the new one.
    @Test func aStaleLeaveDoesNotRemoveTheSuccessor() {
        var table = ClientTable(limits: Self.limits())
        _ = table.admit(10, address: "127.0.0.1", loopback: true, now: t0)
        let old = table.clients[10]!.serial
        table.leave(10)
        _ = table.admit(10, address: "127.0.0.1", loopback: true, now: t0)
        table.leave(10, serial: old)
        #expect(table.clients[10] != nil)
    }
}
