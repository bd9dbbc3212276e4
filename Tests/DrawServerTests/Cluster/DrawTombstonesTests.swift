@testable import DrawServer
import DrawPresentation
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

    /// Receivers are strict (issue 27): an event under a lease older than the newest seen for the
    /// room, an event of an ended draw, or a round of a draw not the one shown, is stale; a room's
    /// `deleted` or `room` notice never is.
    @Test func olderTokensEndedDrawsAndOtherDrawsRoundsAreStale() {
        var t = DrawTombstones()
        func envelope(_ kind: ClusterEnvelope.Kind, _ id: String?, token: UInt64?) -> ClusterEnvelope {
            ClusterEnvelope(node: "n", kind: kind, drawId: id, index: 0, plannedAt: 0, sentAt: 0, wire: [], token: token)
        }
        #expect(!t.isStale(envelope(.round, "x", token: 5), showing: "x", in: "r"))
        t.saw(7, in: "r")
        #expect(t.isStale(envelope(.round, "x", token: 5), showing: "x", in: "r"), "an older lease")
        #expect(t.isStale(envelope(.finished, "x", token: 6), showing: "x", in: "r"), "its end too")
        #expect(!t.isStale(envelope(.started, "y", token: 7), showing: nil, in: "r"))
        #expect(!t.isStale(envelope(.round, "y", token: 9), showing: "y", in: "r"), "a newer lease")
        #expect(t.isStale(envelope(.round, "z", token: 9), showing: "y", in: "r"), "a round of another draw")
        #expect(!t.isStale(envelope(.round, "x", token: 5), showing: "x", in: "other"), "per room")
        t.end("y", in: "r")
        #expect(t.isStale(envelope(.round, "y", token: 9), showing: "y", in: "r"), "after its end")
        #expect(!t.isStale(envelope(.deleted, nil, token: 1), showing: "y", in: "r"))
        t.forget("r")
        #expect(!t.isStale(envelope(.round, "x", token: 5), showing: "x", in: "r"), "forgotten with the room")
    }
}
