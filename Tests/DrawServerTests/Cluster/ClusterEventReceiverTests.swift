import DrawCore
import DrawPresentation
@testable import DrawServer
import Logging
import Testing

/// Other nodes' events as this node shows them (`ClusterEventReceiver`), without Redis or a
/// socket: the room owners on a `FakeLoop`, a node whose channel the test plays, each message
/// handed to the receiver as the subscriber's job would. The strict receivers of issue 27
/// (docs/SCALING.md "Fencing"): nothing of a draw seen ending, nothing under an older lease, no
/// round of another draw than the one shown, nothing no node sent.
@Suite struct ClusterEventReceiverTests {
    final class Fixture {
        let owners = OwnersFixture()
        let node: ClusterNode
        let receiver: ClusterEventReceiver
        let room: Room

        init() throws {
            let services = ClusterServices(nodeId: "node-here", lease: ClusterLeasesTests.ScriptedLease(),
                                           log: ClusterLeasesTests.EmptyLog(),
                                           makeEvents: { _ in ClusterViewReadsTests.NoChannel() }, linkUp: { true })
            let loop = owners.loop
            var logger = Logger(label: "receiver")
            logger.logLevel = .critical
            node = ClusterNode(services: services, executor: loop.executor, clock: owners.clock, logger: logger,
                               makeTimer: { loop.makeTimer($0) })
            receiver = ClusterEventReceiver(node: node, clock: owners.clock, logger: logger, entrantLists: EntrantLists())
            receiver.attach(directory: owners.directory, broadcaster: owners.broadcaster) { _, done in done(nil) }
            _ = try #require(owners.createRoom("quiz"))
            room = try #require(owners.directory["quiz"])
        }

        deinit { node.close() }

        /// Another node's event of `kind`, as it arrives on the room's channel.
        func arrive(_ kind: ClusterEnvelope.Kind, draw: String?, index: Int? = nil, token: UInt64?,
                    from sender: String = "node-there") {
            let envelope = ClusterEnvelope(node: sender, kind: kind, drawId: draw, index: index, plannedAt: 0, sentAt: 0,
                                           wire: Array(#"{"type":"\#(kind.rawValue)"}"#.utf8), token: token)
            node.eventArrived("quiz", envelope.encode())
        }

        var shown: [String] { owners.broadcastTypes(in: room) }
    }

    @Test func nothingOfADrawSeenEndingIsShownAfter() throws {
        let f = try Fixture()
        f.arrive(.started, draw: "d1", token: 5)
        f.arrive(.round, draw: "d1", index: 0, token: 5)
        f.arrive(.aborted, draw: "d1", token: 6)  // a takeover's `interrupted`
        // The node that ran it wakes up after a pause past its lease.
        f.arrive(.round, draw: "d1", index: 1, token: 5)
        f.arrive(.finished, draw: "d1", token: 5)
        #expect(f.shown == ["started", "round", "aborted"])
        #expect(f.receiver.hasEnded("d1", in: "quiz"))
    }

    @Test func anOlderLeaseOrAnotherDrawsRoundIsNotShown() throws {
        let f = try Fixture()
        f.arrive(.started, draw: "d2", token: 7)
        f.arrive(.started, draw: "d3", token: 6)            // under an older lease
        f.arrive(.round, draw: "d9", index: 0, token: 7)    // not the draw the room shows
        f.arrive(.round, draw: "d2", index: 0, token: 7)
        #expect(f.shown == ["started", "round"])
    }

    @Test func aTokenGrantedHereMakesOlderEventsStale() throws {
        let f = try Fixture()
        f.receiver.saw(9, in: "quiz")
        f.arrive(.started, draw: "d4", token: 8)
        #expect(f.shown.isEmpty)
        f.receiver.forget("quiz")  // the room left memory: what was kept for it goes
        f.arrive(.started, draw: "d4", token: 8)
        #expect(f.shown == ["started"])
    }

    @Test func whatNoOtherNodeSentIsShownToNobody() throws {
        let f = try Fixture()
        f.node.eventArrived("quiz", Array("not an envelope".utf8))
        f.arrive(.started, draw: "d5", token: 1, from: "node-here")  // this node's own, back from Redis
        #expect(f.shown.isEmpty)
    }

    @Test func aViewOfADrawThisNodeEndedNeverReplacesWhatWasShown() throws {
        let f = try Fixture()
        f.receiver.ownEnded("d6", in: "quiz")
        let stale = StoredRoomView(head: Array("{}".utf8), drawId: "d6")
        #expect(f.receiver.showsEnded(stale, in: f.room))
        f.receiver.resync(f.room, with: stale, emptyToo: true)
        #expect(f.shown.isEmpty && f.room.remote.drawId == nil)
    }
}
