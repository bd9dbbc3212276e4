@testable import DrawServer
import Testing

/// The bookkeeping behind "joins of one unloaded room share one load, and a flood cannot grow
/// memory": `LoadWaiters` on its own.
@Suite struct LoadWaitersTests {
    @Test func theFirstWaiterStartsTheLoadAndLaterOnesJoinIt() {
        var waiters = LoadWaiters<Int>(maxNames: 4, maxPerName: 10, maxTotal: 100)
        #expect(waiters.add(1, for: "a") == .startLoad)
        #expect(waiters.add(2, for: "a") == .joined)
        #expect(waiters.add(3, for: "b") == .startLoad)
        #expect(waiters.add(4, for: "a") == .joined)
        #expect(waiters.loading == 2 && waiters.count == 4)
        #expect(waiters.isLoading("a") && !waiters.isLoading("c"))
        #expect(waiters.take("a") == [1, 2, 4])
        #expect(waiters.take("a").isEmpty, "a load's waiters are handed out once")
        #expect(waiters.loading == 1 && waiters.count == 1)
        // After its answer, the next lookup of the name starts a new load.
        #expect(waiters.add(5, for: "a") == .startLoad)
    }

    @Test func loadsInFlightAreCapped() {
        var waiters = LoadWaiters<Int>(maxNames: 2, maxPerName: 10, maxTotal: 100)
        #expect(waiters.add(1, for: "a") == .startLoad)
        #expect(waiters.add(2, for: "b") == .startLoad)
        #expect(waiters.add(3, for: "c") == .refused, "a third name would be a third load in flight")
        #expect(waiters.add(4, for: "a") == .joined, "joining a load in flight costs no new load")
        _ = waiters.take("b")
        #expect(waiters.add(5, for: "c") == .startLoad)
    }

    @Test func waitersPerNameAndInTotalAreCapped() {
        var waiters = LoadWaiters<Int>(maxNames: 10, maxPerName: 2, maxTotal: 3)
        #expect(waiters.add(1, for: "a") == .startLoad)
        #expect(waiters.add(2, for: "a") == .joined)
        #expect(waiters.add(3, for: "a") == .refused)
        #expect(waiters.add(4, for: "b") == .startLoad)
        #expect(waiters.add(5, for: "c") == .refused, "three waiters in all")
        #expect(waiters.count == 3)
        _ = waiters.take("a")
        #expect(waiters.add(6, for: "c") == .startLoad)
    }

    @Test func removeAllForgetsEverything() {
        var waiters = LoadWaiters<Int>(maxNames: 1, maxPerName: 1, maxTotal: 1)
        _ = waiters.add(1, for: "a")
        waiters.removeAll()
        #expect(waiters.count == 0 && waiters.loading == 0)
        #expect(waiters.add(2, for: "b") == .startLoad)
    }
}
