@testable import DrawServer
import Testing

/// A joiner's lookup waits for its room's subscription (`SubscriptionWaits`), at most
/// `subscriptionWaitNanos`. One let go without the confirmation may have read a view that misses
/// an event published before the subscription took (a node just started: the soak saw a finished
/// draw shown running for good), so the late confirmation asks for the view again, once.
@Suite struct SubscriptionWaitsTests {
    @Test func aConfirmationAfterTheWaitRanOutCatchesTheRoomUpOnce() {
        let loop = FakeLoop(), waits = SubscriptionWaits(loop: loop)
        var went = 0, late: [String] = []
        waits.confirmedLate = { late.append($0) }
        waits.wait(for: "quiz", isSubscribed: false) { went += 1 }
        #expect(went == 0 && waits.count == 1)
        loop.fireDueTimers()                                   // no confirmation in time
        #expect(went == 1 && late.isEmpty)
        waits.confirmed("quiz")
        #expect(late == ["quiz"])
        waits.confirmed("quiz")                                // a second confirmation: nothing new
        #expect(late == ["quiz"])
    }

    @Test func aConfirmationInTimeNeedsNoCatchingUp() {
        let loop = FakeLoop(), waits = SubscriptionWaits(loop: loop)
        var went = 0, late: [String] = []
        waits.confirmedLate = { late.append($0) }
        waits.wait(for: "quiz", isSubscribed: false) { went += 1 }
        waits.wait(for: "quiz", isSubscribed: false) { went += 1 }
        waits.confirmed("quiz")
        #expect(went == 2 && late.isEmpty && waits.count == 0)
        waits.wait(for: "quiz", isSubscribed: true) { went += 1 }
        #expect(went == 3 && late.isEmpty)
    }
}
