import DrawCore
import Foundation
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
        let hostKey: String
        /// What the receiver told the node to fence out: room, draw, the end's bytes.
        var fenced: [(room: String, drawId: String?, end: [UInt8]?)] = []

        init(views: (any RoomViewStore)? = nil) throws {
            let services = ClusterServices(nodeId: "node-here", lease: ClusterLeasesTests.ScriptedLease(),
                                           log: ClusterLeasesTests.EmptyLog(), views: views,
                                           makeEvents: { _ in ClusterViewReadsTests.NoChannel() }, linkUp: { true })
            let loop = owners.loop
            var logger = Logger(label: "receiver")
            logger.logLevel = .critical
            node = ClusterNode(services: services, executor: loop.executor, clock: owners.clock, logger: logger,
                               makeTimer: { loop.makeTimer($0) })
            receiver = ClusterEventReceiver(node: node, clock: owners.clock, logger: logger, entrantLists: EntrantLists())
            receiver.attach(directory: owners.directory, broadcaster: owners.broadcaster) { _, done in done(nil) }
            hostKey = try #require(owners.createRoom("quiz"))
            room = try #require(owners.directory["quiz"])
            node.fencedOut = { [unowned self] room, drawId, end in fenced.append((room, drawId, end?.wire)) }
        }

        /// Starts a draw of this node's own in the room and returns its id (its players in, its
        /// first step shown).
        func startOwnDraw() throws -> String {
            RoomOwnersTests.giveList(to: room)
            owners.draws.startDraw(in: room, hostKey: hostKey) { _ in }
            _ = owners.loop.runJobs()
            #expect(room.isBusy)
            return try #require(room.runner?.session.visible.drawId)
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

        /// Runs the loop until `count` messages were shown (a view read answers from the node's
        /// worker thread), for at most 5 s.
        func runUntilShown(_ count: Int) {
            let deadline = ContinuousClock.now + .seconds(5)
            while shown.count < count, ContinuousClock.now < deadline {
                if owners.loop.runJobs() == 0 { usleep(1_000) }
            }
        }
    }

    /// A view store that always answers `view`.
    final class FixedViews: RoomViewStore, @unchecked Sendable {
        let view: StoredRoomView
        init(_ view: StoredRoomView) { self.view = view }
        func view(room: String) throws(CoordinationError) -> StoredRoomView { view }
    }

    /// The 30-minute soak's finding (issue 36, SOAK_SEED=4402): a node that missed the end of
    /// another node's draw (at its restart, or Redis') showed the next draw's `loading` and
    /// `started` over that draw still running. Now the end the cluster recorded comes first.
    @Test func aNewDrawOverOneStillShownRunningGetsThatDrawsRecordedEndFirst() throws {
        let end = StoredDrawEnd(drawId: "d1", wire: Array(#"{"type":"finished","drawId":"d1"}"#.utf8))
        let f = try Fixture(views: FixedViews(StoredRoomView(lastResult: Array(#"{"drawId":"d1"}"#.utf8), lastEnd: end)))
        f.arrive(.started, draw: "d1", token: 5)
        f.arrive(.round, draw: "d1", index: 0, token: 5)
        // d1's last rounds and its end never reached this node.
        f.arrive(.loading, draw: nil, token: 6)
        f.arrive(.started, draw: "d2", token: 6)
        f.runUntilShown(5)
        #expect(f.shown == ["started", "round", "finished", "loading", "started"])
        #expect(f.receiver.hasEnded("d1", in: "quiz"))
        #expect(f.room.remote.drawId == "d2")
        #expect(f.room.remote.lastResult == Array(#"{"drawId":"d1"}"#.utf8))
    }

    /// This node takes the room's free lease to start a draw while it still shows another node's
    /// draw running (the soak's second form of the finding): the start gate asks for that draw's
    /// end first; with the view's end it is the end every other node's viewers got.
    @Test func aStartOverADrawStillShownRunningShowsItsRecordedEndFirst() throws {
        let end = StoredDrawEnd(drawId: "d1", wire: Array(#"{"type":"aborted","drawId":"d1"}"#.utf8))
        let f = try Fixture()
        f.arrive(.started, draw: "d1", token: 5)
        f.receiver.endMissed(of: "d1", view: StoredRoomView(lastEnd: end), in: f.room)
        f.receiver.endMissed(of: "d1", view: StoredRoomView(lastEnd: end), in: f.room)   // once
        #expect(f.shown == ["started", "aborted"])
        #expect(f.room.remote.drawId == nil && f.room.remote.head == nil)
        #expect(f.receiver.hasEnded("d1", in: "quiz"))
        // A view that could not be read: the draw is over here all the same, shown as a snapshot.
        f.arrive(.started, draw: "d2", token: 6)
        f.receiver.endMissed(of: "d2", view: nil, in: f.room)
        #expect(f.shown == ["started", "aborted", "started", "snapshot"])
        #expect(f.room.remote.drawId == nil)
    }

    /// The soak's third form: a list changed through another node makes this node read the view
    /// again; that view records the end of the draw its viewers still see running. They are told
    /// that end, not left with a draw that silently stopped. A view older than the draw shown
    /// (it began after the read) ends nothing.
    @Test func aViewReadBackThatRecordsTheShownDrawsEndShowsThatEnd() throws {
        let end = StoredDrawEnd(drawId: "d1", wire: Array(#"{"type":"finished","drawId":"d1"}"#.utf8))
        let f = try Fixture()
        f.arrive(.started, draw: "d0", token: 4)
        f.receiver.adoptView(StoredRoomView(lastEnd: StoredDrawEnd(drawId: "older", wire: Array(#"{"type":"aborted"}"#.utf8))),
                             in: f.room)
        #expect(f.shown == ["started"], "a view that records no end of d0 shows no end")
        #expect(!f.receiver.hasEnded("d0", in: "quiz"))
        f.arrive(.started, draw: "d1", token: 5)
        f.receiver.adoptView(StoredRoomView(lastResult: Array(#"{"drawId":"d1"}"#.utf8), lastEnd: end), in: f.room)
        #expect(f.shown == ["started", "started", "finished"])
        #expect(f.room.remote.drawId == nil)
        #expect(f.receiver.hasEnded("d1", in: "quiz"))
    }

    /// When the view no longer holds that draw's end, the draw is over here all the same: the new
    /// draw goes on, and nothing of the old one is shown after it.
    @Test func withoutTheRecordedEndTheOldDrawIsStillOverBeforeTheNewOne() throws {
        let other = StoredDrawEnd(drawId: "d0", wire: Array(#"{"type":"aborted","drawId":"d0"}"#.utf8))
        let f = try Fixture(views: FixedViews(StoredRoomView(lastEnd: other)))
        f.arrive(.started, draw: "d1", token: 5)
        f.arrive(.started, draw: "d2", token: 6)
        f.runUntilShown(3)
        f.arrive(.round, draw: "d1", index: 1, token: 5)
        #expect(f.shown == ["started", "snapshot", "started"], "a snapshot without d1 running, then d2")
        #expect(f.receiver.hasEnded("d1", in: "quiz"))
        #expect(f.room.remote.drawId == "d2")
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

    /// Issue 27's pause fault, as found by the fault suite (CHAOS_SEED=543297913 and 390520682):
    /// this node wakes up running a draw that a takeover ended. The takeover's end of that draw,
    /// first on the channel, stops it at once and is what its viewers get; waiting for its own
    /// refused write let the next draw's `loading` reach them before any end.
    @Test func aTakeoversEndOfTheDrawRunningHereFencesItOutAtOnce() throws {
        let f = try Fixture()
        let drawId = try f.startOwnDraw()
        f.arrive(.loading, draw: nil, token: 9)
        f.arrive(.aborted, draw: "another", token: 9)   // another draw's end: not this node's
        f.arrive(.aborted, draw: drawId, token: nil)     // no lease named: proves nothing
        #expect(f.fenced.isEmpty)
        f.arrive(.aborted, draw: drawId, token: 9)
        #expect(f.fenced.map(\.drawId) == [drawId])
        #expect(f.fenced.first?.end == Array(#"{"type":"aborted"}"#.utf8), "the end the other nodes' viewers got")
    }

    /// While the viewers wait for the cluster's end of a refused draw (the view being read),
    /// other nodes' messages wait too, then go on in their order, minus what the end made stale.
    @Test func messagesWaitForTheClusterEndOfARefusedDrawThenGoOn() throws {
        let views = ClusterViewReadsTests.HeldViews()
        let f = try Fixture(views: views)
        // The worker is freed before the node closes (a close waits for the read in progress).
        defer { withExtendedLifetime(f) { views.firstMayAnswer.signal() } }
        f.arrive(.started, draw: "mine", token: 3)   // as if it were the draw shown here
        f.receiver.showClusterEnd(of: "mine", nil, in: f.room)   // the read does not answer
        f.arrive(.aborted, draw: "mine", token: 4)
        f.arrive(.loading, draw: nil, token: 5)
        f.arrive(.started, draw: "next", token: 5)
        #expect(f.shown == ["started"], "held while the end is read")
        f.owners.clock.nanos += HeldEvents.limitNanos
        f.arrive(.round, draw: "next", index: 0, token: 5)
        #expect(f.shown == ["started", "aborted", "loading", "started", "round"],
                "past the limit, in their order: the end first")
    }

    /// The view could not be read (Redis away): the refused draw is over here all the same, its
    /// viewers get a snapshot at once, and what was held goes on then, not once the next message
    /// comes past the limit.
    @Test func anUnreadableViewEndsTheRefusedDrawAndLetsTheHeldMessagesGo() throws {
        let f = try Fixture(views: ClusterViewReadsTests.AwayViews())
        f.arrive(.started, draw: "mine", token: 3)
        f.receiver.showClusterEnd(of: "mine", nil, in: f.room)
        f.arrive(.loading, draw: nil, token: 5)
        f.runUntilShown(3)
        #expect(f.shown == ["started", "snapshot", "loading"])
        #expect(f.receiver.hasEnded("mine", in: "quiz"))
    }

    @Test func heldMessagesAreBoundedInTimeAndCount() {
        var held = HeldEvents(sinceNanos: 100)
        var taken = 0
        while held.hold([1], nowNanos: 100), taken <= HeldEvents.maxHeld { taken += 1 }
        #expect(taken == HeldEvents.maxHeld, "held up to the count, refused one past it")
        var young = HeldEvents(sinceNanos: 100)
        let justBefore = young.hold([1], nowNanos: 100 + HeldEvents.limitNanos - 1)
        let atTheLimit = young.hold([1], nowNanos: 100 + HeldEvents.limitNanos)
        #expect(justBefore && !atTheLimit)
    }
}
