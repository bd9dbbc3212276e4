@testable import DrawServer
import Testing

/// The front door's lingering closes, driven without sockets: bytes read and times are passed in.
@Suite struct LingeringClosesTests {
    @Test func aLingerEndsAtItsDeadlineInOrderAndAReusedNumberIsNotEndedEarly() {
        var l = LingeringCloses()
        l.begin(5, id: 1, at: 0)
        l.begin(6, id: 2, at: 10)
        let early = l.expired(now: LingeringCloses.lingerNanos - 1)
        #expect(early.isEmpty)
        let ended = l.end(5)
        #expect(ended) // the client closed: ended early
        l.begin(5, id: 3, at: 100) // its number reused by a later connection
        let first = l.expired(now: LingeringCloses.lingerNanos + 10)
        #expect(first == [6])
        #expect(l.contains(5) && l.count == 1)
        let second = l.expired(now: LingeringCloses.lingerNanos + 100)
        #expect(second == [5])
        #expect(l.isEmpty)
        let endedAgain = l.end(5)
        #expect(!endedAgain)
    }

    @Test func aLingerEndsWhenItsByteBudgetIsSpent() {
        var l = LingeringCloses()
        l.begin(7, id: 1, at: 0)
        let goesOn = l.drained(LingeringCloses.lingerBytes - 1, from: 7)
        let spent = l.drained(1, from: 7)
        let notLingering = l.drained(1, from: 8)
        #expect(goesOn && !spent && !notLingering)
        #expect(l.descriptors == [7])
    }
}
