@testable import DrawServer
import Testing

/// The steps of this node's draws on their way to the cluster's record (issue 36, durable before
/// visible): one per room in flight, in order; a failed one is sent again before anything after
/// it; a refused room's steps are dropped, and a late answer for them changes nothing.
@Suite struct PendingStepsTests {
    @Test func oneStepPerRoomIsInFlightAndTheNextGoesOnlyOnceTheFirstIsDurable() {
        var steps = PendingSteps<String>()
        let a = steps.add("started", sequence: 1, room: "quiz"), b = steps.add("round 1", sequence: 2, room: "quiz")
        let c = steps.add("started", sequence: 3, room: "other")
        #expect(a == "started", "nothing in flight: sent now")
        #expect(b == nil, "waits for the step before it")
        #expect(c == "started", "rooms do not wait for each other")
        #expect(steps.isPending("quiz"))
        let early = steps.acknowledged(2, room: "quiz")
        #expect(early == nil, "not the step in flight")
        let first = steps.acknowledged(1, room: "quiz")
        #expect(first?.done == "started" && first?.next == "round 1")
        let second = steps.acknowledged(2, room: "quiz")
        #expect(second?.done == "round 1" && second?.next == nil)
        #expect(!steps.isPending("quiz") && steps.isPending("other"))
    }

    @Test func aFailedStepIsSentAgainBeforeAnythingAfterIt() {
        var steps = PendingSteps<String>()
        _ = steps.add("round 3", sequence: 7, room: "quiz")
        _ = steps.add("round 4", sequence: 8, room: "quiz")
        let notInFlight = steps.failed(8, room: "quiz"), inFlight = steps.failed(7, room: "quiz")
        #expect(!notInFlight, "only the step in flight can fail")
        #expect(inFlight)
        #expect(!steps.isInFlight(7, room: "quiz"))
        let again = steps.retry()
        #expect(again.map(\.step) == ["round 3"] && again.map(\.room) == ["quiz"])
        let twice = steps.retry()
        #expect(twice.isEmpty, "already in flight again")
        let done = steps.acknowledged(7, room: "quiz")
        #expect(done?.next == "round 4")
    }

    @Test func aRefusedRoomsStepsAreDroppedAndTheirLateAnswersIgnored() {
        var steps = PendingSteps<String>()
        _ = steps.add("round 5", sequence: 1, room: "quiz")
        _ = steps.add("finished", sequence: 2, room: "quiz")
        let dropped = steps.drop("quiz")
        #expect(dropped && !steps.isPending("quiz"))
        let late = steps.acknowledged(1, room: "quiz"), lateFailure = steps.failed(1, room: "quiz")
        #expect(late == nil && !lateFailure)
        // The next draw's first step is sent at once, whatever answer of the old one comes late.
        let next = steps.add("started", sequence: 3, room: "quiz")
        #expect(next == "started")
        let stale = steps.acknowledged(1, room: "quiz")
        #expect(stale == nil)
        #expect(steps.isInFlight(3, room: "quiz"))
    }
}
