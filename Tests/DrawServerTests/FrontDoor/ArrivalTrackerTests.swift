@testable import DrawServer
import Glibc
import Testing

/// The per-address cap on slow requests and the request deadline, driven by an injected clock.
@Suite struct ArrivalTrackerTests {
    static let ms: UInt64 = 1_000_000
    let a = PeerAddress.ipv4((127, 0, 0, 1))
    let b = PeerAddress.ipv4((127, 0, 0, 2))

    private func tracker(cap: Int = 16) -> ArrivalTracker {
        ArrivalTracker(slowAfterNanos: 1000 * Self.ms, timeoutNanos: 5000 * Self.ms, slowPerAddress: cap)
    }

    private func ticket(_ i: Int) -> ArrivalTracker.Ticket { .init(fd: Int32(i), id: UInt64(i)) }

    @Test func aStormFromOneAddressIsNeverRefusedEvenWhenItsHeadsComeLate() {
        var t = tracker()
        // 10,000 accepted within one second; a busy client sends each head, in one piece, up to
        // 1.5 s after its accept: no part-request ever waits, so none turns slow.
        for i in 0..<10_000 { t.started(ticket(i), peer: a, at: UInt64(i) * 100_000) }
        #expect(t.sweep(now: 1200 * Self.ms).isEmpty)
        for i in 0..<10_000 { t.finished(ticket(i)) }
        #expect(t.sweep(now: 6000 * Self.ms).isEmpty)
        #expect(t.count == 0)
    }

    @Test func slowRequestsPastTheCapAreRefusedOnlyForTheirAddress() {
        var t = tracker()
        for i in 0..<20 { t.started(ticket(i), peer: a, at: 0) }
        for i in 20..<23 { t.started(ticket(i), peer: b, at: 0) }
        for i in 0..<23 { #expect(t.received(ticket(i)) == nil) } // young: not slow yet
        #expect(t.sweep(now: 999 * Self.ms).isEmpty)
        let first = t.sweep(now: 1000 * Self.ms)
        #expect(first.map(\.0) == (16..<20).map(ticket))
        #expect(first.allSatisfy { $0.1 == .tooManySlow })
        #expect(t.slowCount(of: a) == 16)
        #expect(t.slowCount(of: b) == 3)
        let expired = t.sweep(now: 5000 * Self.ms)
        #expect(Set(expired.map(\.0)) == Set((0..<16).map(ticket) + (20..<23).map(ticket)))
        #expect(expired.allSatisfy { $0.1 == .timedOut })
        #expect(t.count == 0 && t.slowCount(of: a) == 0)
    }

    @Test func aSilentConnectionTurnsSlowWithItsFirstPartialBytesAndOnlyTimesOutOtherwise() {
        var t = tracker(cap: 1)
        t.started(ticket(1), peer: a, at: 0)
        t.started(ticket(2), peer: a, at: 0)
        t.started(ticket(3), peer: a, at: 0)
        #expect(t.sweep(now: 1000 * Self.ms).isEmpty) // silent: old, not slow
        #expect(t.received(ticket(1)) == nil)            // the address's one slow request
        #expect(t.received(ticket(2)) == .tooManySlow)   // one too many
        #expect(t.slowCount(of: a) == 1)
        #expect(t.sweep(now: 5000 * Self.ms).map(\.0) == [ticket(1), ticket(3)])
    }

    @Test func aFinishedSlowRequestFreesItsPlace() {
        var t = tracker(cap: 1)
        t.started(ticket(1), peer: a, at: 0)
        _ = t.received(ticket(1))
        #expect(t.sweep(now: 1000 * Self.ms).isEmpty)
        #expect(t.slowCount(of: a) == 1)
        t.finished(ticket(1))
        #expect(t.slowCount(of: a) == 0)
        t.started(ticket(2), peer: a, at: 1500 * Self.ms)
        _ = t.received(ticket(2))
        #expect(t.sweep(now: 2500 * Self.ms).isEmpty)
        #expect(t.slowCount(of: a) == 1)
    }

    @Test func aCapOfZeroRefusesEverySlowRequestAndUnknownPeersOnlyTimeOut() {
        var t = tracker(cap: 0)
        t.started(ticket(1), peer: a, at: 0)
        t.started(ticket(2), peer: nil, at: 0)
        _ = t.received(ticket(1))
        _ = t.received(ticket(2))
        #expect(t.sweep(now: 1000 * Self.ms).map(\.1) == [.tooManySlow])
        #expect(t.sweep(now: 5000 * Self.ms).map(\.0) == [ticket(2)])
    }

    @Test func aDeadlineShorterThanTheSlowMarkStillApplies() {
        var t = ArrivalTracker(slowAfterNanos: 1000 * Self.ms, timeoutNanos: 200 * Self.ms, slowPerAddress: 16)
        t.started(ticket(1), peer: a, at: 0)
        #expect(t.sweep(now: 200 * Self.ms).map(\.1) == [.timedOut])
    }

    @Test func aClockThatGoesBackwardsRefusesNothing() {
        var t = tracker()
        t.started(ticket(1), peer: a, at: 5000 * Self.ms)
        _ = t.received(ticket(1))
        #expect(t.sweep(now: 0).isEmpty)
    }
}

@Suite struct PeerAddressTests {
    @Test func ipv4FromASocketAddress() {
        var s = sockaddr_storage()
        withUnsafeMutableBytes(of: &s) { raw in
            var a = sockaddr_in()
            a.sin_family = sa_family_t(AF_INET)
            a.sin_addr.s_addr = inet_addr("10.1.2.3")
            raw.copyMemory(from: withUnsafeBytes(of: &a) { UnsafeRawBufferPointer($0) })
        }
        #expect(PeerAddress(s) == .ipv4((10, 1, 2, 3)))
        #expect(PeerAddress(s)?.description == "10.1.2.3")
    }

    @Test func ipv6CountsPerSlash64AndMappedIPv4CountsAsIPv4() {
        let one: [UInt8] = [0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 1] + [0, 0, 0, 0, 0, 0, 0, 1]
        var other = one
        other[15] = 0x99
        var nextNet = one
        nextNet[7] = 2
        #expect(PeerAddress.ipv6(one) == PeerAddress.ipv6(other))
        #expect(PeerAddress.ipv6(one) != PeerAddress.ipv6(nextNet))
        let mapped: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 127, 0, 0, 1]
        #expect(PeerAddress.ipv6(mapped) == .ipv4((127, 0, 0, 1)))
        #expect(PeerAddress.ipv6(Array(repeating: 0, count: 16)) != .ipv4((0, 0, 0, 0)))
        #expect(PeerAddress.ipv6(one).description == "2001:db8:0:1::/64")
        #expect(PeerAddress(text: "2001:db8:0:1::abcd") == PeerAddress.ipv6(one))
        #expect(PeerAddress(text: "::ffff:127.0.0.1") == .ipv4((127, 0, 0, 1)))
        #expect(PeerAddress(text: "not an address") == nil)
    }

    @Test func otherFamiliesAreNotCounted() {
        var s = sockaddr_storage()
        s.ss_family = sa_family_t(AF_UNIX)
        #expect(PeerAddress(s) == nil)
    }
}

@Suite struct DescriptorBudgetTests {
    @Test func connectionsLeaveTheReserveAndTheSlack() {
        #expect(DescriptorBudget.connections(forLimit: 20_000, slack: 64) == 20_000 - 64 - DescriptorBudget.reserve)
        #expect(DescriptorBudget.connections(forLimit: 100, slack: 64) <= 0)
        #expect(DescriptorBudget.connections(forLimit: Int.min, slack: 64) == 0) // no wrap
    }

    @Test func theSoftLimitIsWhatTheConnectionsNeedWithinTheHardLimit() {
        #expect(DescriptorBudget.softLimitTarget(wanted: 20_192, hard: 1_048_576) == 20_192)
        #expect(DescriptorBudget.softLimitTarget(wanted: 20_192, hard: 4_096) == 4_096)
        #expect(DescriptorBudget.softLimitTarget(wanted: 0, hard: 4_096) == 1)
        #expect(DescriptorBudget.softLimitTarget(wanted: Int.min, hard: 4_096) == 1)
        #expect(DescriptorBudget.needed(connections: 20_000, slack: 64) == 20_000 + 64 + DescriptorBudget.reserve)
        #expect(DescriptorBudget.needed(connections: Int.max, slack: 64) == Int.max) // saturates, no trap
    }

    /// Set for real, on this process: lowered by one and back (a process may lower its soft limit
    /// and raise it again up to the hard one). Other tests keep all but one descriptor meanwhile.
    @Test func theSoftLimitIsLoweredAsWellAsRaised() {
        var before = rlimit()
        getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &before)
        let soft = Int(clamping: before.rlim_cur)
        #expect(before.rlim_cur < rlim_t.max, "this test needs a finite soft limit")
        guard before.rlim_cur < rlim_t.max else { return }
        #expect(DescriptorBudget.fitSoftLimit(to: soft - 1) == soft - 1)
        #expect(DescriptorBudget.fitSoftLimit(to: soft) == soft)
    }
}
