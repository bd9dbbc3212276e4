@testable import DrawServer
import Testing

/// How often a node warns of messages on its rooms' channels that no node sent
/// (`DroppedEnvelopeLog`): a flood is one line per interval, with the count since the last.
@Suite struct DroppedEnvelopeLogTests {
    static let interval = DroppedEnvelopeLog.intervalNanos

    @Test func theFirstDropIsReportedAtOnce() {
        var log = DroppedEnvelopeLog()
        #expect(log.dropped(nowNanos: 5) == 1)
    }

    @Test func aFloodIsOneLinePerIntervalWithTheCountSince() {
        var log = DroppedEnvelopeLog()
        #expect(log.dropped(nowNanos: 0) == 1)
        for i in 1...99 { #expect(log.dropped(nowNanos: UInt64(i)) == nil, "within the interval: counted, not logged") }
        #expect(log.dropped(nowNanos: Self.interval - 1) == nil)
        #expect(log.dropped(nowNanos: Self.interval) == 101, "the 100 held back and this one")
        #expect(log.dropped(nowNanos: Self.interval + 1) == nil)
        #expect(log.dropped(nowNanos: 2 * Self.interval) == 2, "counted again from the last line")
    }
}
