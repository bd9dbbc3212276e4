@testable import DrawServer
import DrawTransport
import Testing

/// The line of complete requests to lws' header tables, driven without lws: connections are made
/// up, lws' WSI_CREATE is `created` during a hand-over, and times are passed in.
@Suite struct HandOverLineTests {
    static let s: UInt64 = 1_000_000_000

    private func wsi(_ n: Int) -> Connection { Connection(wsi: OpaquePointer(bitPattern: 0x1000 * n)!) }
    private func ready(_ fd: Int32, body: [UInt8]? = nil, put: Bool = false) -> HandOverLine.Ready {
        HandOverLine.Ready(fd: fd, bytes: [], body: body, put: put)
    }

    /// What the front door does with a request the line lets go: adopt it, lws creating `created`.
    /// Returns the connection to forget, if any.
    @discardableResult
    private func handOver(_ line: inout HandOverLine, _ r: HandOverLine.Ready?, created: Connection?,
                          kept: Bool = true, at now: UInt64 = 0) -> Connection? {
        guard let r else { Issue.record("nothing to hand over"); return nil }
        line.beginAdoption(r)
        if let created { line.created(created, now: now) }
        return line.endAdoption(kept: kept)
    }

    @Test func requestsPastTheTablesWaitInOrderUntilOneSettles() {
        var line = HandOverLine(headerTables: 2, slowTLSNanos: nil)
        for i in 1...2 {
            let admitted = line.arrived(ready(Int32(i)), now: 0)
            #expect(admitted?.fd == Int32(i))
            handOver(&line, admitted, created: wsi(i))
        }
        let third = line.arrived(ready(3), now: 0), fourth = line.arrived(ready(4), now: 0)
        #expect(third == nil && fourth == nil)
        #expect(line.waitingCount == 2)
        let noTable = line.next()
        #expect(noTable == nil)
        let freed = line.settled(wsi(1))
        #expect(freed) // a table came free while requests wait: drain
        let next = line.next()
        #expect(next?.fd == 3)
        handOver(&line, next, created: wsi(3))
        let takenAgain = line.next()
        #expect(takenAgain == nil)
        #expect(line.waitingCount == 1)
        let due = line.slowTLSDue()
        #expect(due == nil) // without TLS nothing expires
        let abandoned = line.abandonWaiting()
        #expect(abandoned == [4])
        let drain = line.settled(wsi(2))
        #expect(!drain) // nobody waits
    }

    @Test func aBodyAndThePutFlagGoWithTheConnectionLwsCreatedOnce() {
        var line = HandOverLine(headerTables: 4, slowTLSNanos: nil)
        handOver(&line, ready(1, body: [1, 2, 3], put: true), created: wsi(1))
        line.created(wsi(9), now: 0) // lws' own connection, outside a hand-over: not counted
        #expect(line.handshakes == [wsi(1)])
        let put = line.takeWasPut(wsi(1)), putAgain = line.takeWasPut(wsi(1))
        #expect(put && !putAgain)
        let body = line.takeBody(wsi(1)), bodyAgain = line.takeBody(wsi(1))
        #expect(body == [1, 2, 3] && bodyAgain == nil)
        handOver(&line, ready(2, body: [4]), created: wsi(2))
        _ = line.settled(wsi(2)) // lws done with it before the API took the body
        let dropped = line.takeBody(wsi(2))
        #expect(dropped == nil)
    }

    @Test func aConnectionLwsFreedSilentlyGivesItsTableBack() {
        var line = HandOverLine(headerTables: 1, slowTLSNanos: nil)
        let lost = handOver(&line, ready(1, body: [7], put: true), created: wsi(1), kept: false)
        #expect(lost == wsi(1))
        #expect(line.handshakes.isEmpty)
        let body = line.takeBody(wsi(1)), put = line.takeWasPut(wsi(1))
        #expect(body == nil && !put)
        let next = line.arrived(ready(2), now: 0)
        #expect(next?.fd == 2)
        // Not kept, and lws created none: nothing to forget.
        let none = handOver(&line, next, created: nil, kept: false)
        #expect(none == nil)
    }

    @Test func withTLSASlowHandshakeStopsHoldingItsPlace() {
        var line = HandOverLine(headerTables: 1, slowTLSNanos: 1 * Self.s)
        handOver(&line, line.arrived(ready(1), now: 0), created: wsi(1), at: 0)
        let waits = line.arrived(ready(2), now: Self.s / 2)
        #expect(waits == nil)
        let due = line.slowTLSDue()
        #expect(due == 1 * Self.s)
        line.expireSlowTLS(now: Self.s / 2)
        let early = line.next()
        #expect(early == nil)
        line.expireSlowTLS(now: 1 * Self.s)
        #expect(line.handshakes.isEmpty)
        let next = line.next()
        #expect(next?.fd == 2)
        handOver(&line, next, created: wsi(2), at: 1 * Self.s)
        let nobodyWaits = line.slowTLSDue()
        #expect(nobodyWaits == nil)
        let freed = line.settled(wsi(1))
        #expect(!freed) // the expired one settling later frees nothing
        #expect(line.handshakes == [wsi(2)])
    }
}
