@testable import DrawServer
import Testing

/// Which draws a node has seen end, per room (`DrawTombstones`): the rule that keeps a woken
/// node's stale events from other nodes' viewers.
@Suite struct DrawTombstonesTests {
    @Test func aDrawsEndIsRememberedPerRoom() {
        var t = DrawTombstones()
        t.note(.round, drawId: "x", showing: "x", in: "r")
        #expect(!t.hasEnded("x", in: "r"), "a round ends nothing")
        t.note(.aborted, drawId: "x", showing: "x", in: "r")   // a takeover's `interrupted`
        #expect(t.hasEnded("x", in: "r"))
        #expect(!t.hasEnded("x", in: "other"), "another room's draw is its own")
    }

    @Test func aNewDrawEndsTheOneShownBefore() {
        var t = DrawTombstones()
        t.note(.started, drawId: "y", showing: "x", in: "r")
        #expect(t.hasEnded("x", in: "r"), "two draws in one room: the older one is over")
        #expect(!t.hasEnded("y", in: "r"))
        t.note(.loading, drawId: nil, showing: "y", in: "r")
        #expect(t.hasEnded("y", in: "r"))
    }

    @Test func anEndOfAnotherDrawEndsTheOneShownToo() {
        var t = DrawTombstones()
        t.note(.finished, drawId: "z", showing: "x", in: "r")
        #expect(t.hasEnded("z", in: "r") && t.hasEnded("x", in: "r"))
    }

    @Test func eachRoomKeepsItsLastFewAndAForgottenRoomNone() {
        var t = DrawTombstones()
        for i in 0...DrawTombstones.perRoom { t.end("d\(i)", in: "r") }
        #expect(!t.hasEnded("d0", in: "r"), "the oldest went")
        #expect(t.hasEnded("d\(DrawTombstones.perRoom)", in: "r"))
        t.forget("r")
        #expect(!t.hasEnded("d\(DrawTombstones.perRoom)", in: "r"))
    }
}
