import DrawCore
import Testing

/// What a node does with the scheduled draws it knows of (`ScheduledDrawBook`), at times the test
/// chooses: no clock, no timer, no store.
struct ScheduledDrawBookTests {
    static let t0 = SessionHarness.epochOrigin
    static let window = ScheduleWindow(minLeadMs: 2_000, maxAheadMs: 86_400_000, graceMs: 300_000)

    static func draw(_ n: Int, room: String, at: Double) -> ScheduledDraw {
        ScheduledDraw(drawId: String(repeating: String(n % 10), count: 32), room: room, at: at, createdAt: t0,
                      seed: Fixtures.exampleSeed, entrants: Fixtures.samplePlayers, warnings: [],
                      schedule: SessionHarness.schedule, winners: 1, reveal: .eachRunningOn, sources: SessionHarness.sources)
    }

    @Test func oneDrawPerRoomAndOneSchedulingAtATime() {
        var book = ScheduledDrawBook()
        let first = book.begin(room: "a"), second = book.begin(room: "a")
        #expect(first && !second, "a scheduling of the room is on its way")
        book.end(room: "a", kept: nil)
        let again = book.begin(room: "a")
        #expect(again)
        book.end(room: "a", kept: Self.draw(1, room: "a", at: Self.t0 + 10_000))
        #expect(!book.mayBegin(room: "a") && book.mayBegin(room: "b"))
        #expect(book.waiting(drawId: Self.draw(1, room: "a", at: 0).drawId)?.room == "a")
    }

    @Test func eachDrawIsStartedAtItsTimeOrMissedPastTheGraceOnce() {
        var book = ScheduledDrawBook()
        let soon = Self.draw(1, room: "a", at: Self.t0 + 10_000), later = Self.draw(2, room: "b", at: Self.t0 + 20_000)
        let long = Self.draw(3, room: "c", at: Self.t0 - 300_001)
        book.merge([soon, later, long])
        #expect(book.nextWakeMs(now: Self.t0, retryMs: 1_000) == 0, "the missed one is due now")
        var due = book.due(now: Self.t0, window: Self.window)
        #expect(due == [.miss(long, claimed: false)])
        #expect(book.nextWakeMs(now: Self.t0, retryMs: 1_000) == 10_000)
        due = book.due(now: Self.t0 + 9_999, window: Self.window)
        #expect(due.isEmpty)
        due = book.due(now: Self.t0 + 10_000, window: Self.window)
        #expect(due == [.start(soon, claimed: false)])
        due = book.due(now: Self.t0 + 10_001, window: Self.window)
        #expect(due.isEmpty, "once")
        #expect(book.waiting.keys.sorted() == ["b"])
    }

    @Test func aBusyRoomIsTriedAgainUntilTheGraceEnds() {
        var book = ScheduledDrawBook()
        let draw = Self.draw(1, room: "a", at: Self.t0)
        book.retry(draw)
        #expect(book.nextWakeMs(now: Self.t0, retryMs: 1_000) == 1_000)
        var due = book.due(now: Self.t0 + 1_000, window: Self.window)
        #expect(due == [.start(draw, claimed: true)])
        #expect(book.nextWakeMs(now: Self.t0, retryMs: 1_000) == nil)
        book.retry(draw)
        due = book.due(now: Self.t0 + 300_001, window: Self.window)
        #expect(due == [.miss(draw, claimed: true)])
    }

    @Test func aStoreReadBringsDrawsOfOtherNodesButNotOnesActedOn() {
        var book = ScheduledDrawBook()
        let mine = Self.draw(1, room: "a", at: Self.t0 + 10_000), theirs = Self.draw(2, room: "b", at: Self.t0 + 10_000)
        book.end(room: "a", kept: mine)
        var changed = book.merge([mine, theirs])
        #expect(changed == ["b"])
        let cancelled = book.takeForCancel(room: "a")
        #expect(cancelled == mine)
        // A read that began before the cancel still lists it: it stays gone.
        changed = book.merge([mine, theirs])
        #expect(changed.isEmpty && book.waiting["a"] == nil)
        // Another node claimed "b": gone from the store, gone here.
        changed = book.merge([])
        #expect(changed == ["b"] && book.waiting.isEmpty)
        let again = book.takeForCancel(found: mine), theirsFound = book.takeForCancel(found: theirs)
        #expect(again == nil, "acted on already")
        #expect(theirsFound == theirs)
    }

    @Test func aFailedClaimLeavesTheDrawWaiting() {
        var book = ScheduledDrawBook()
        let draw = Self.draw(1, room: "a", at: Self.t0)
        book.merge([draw])
        var due = book.due(now: Self.t0, window: Self.window)
        #expect(due == [.start(draw, claimed: false)])
        book.unclaimed(draw, retryAt: Self.t0 + 1_000)
        // Not asked again at once (a store that is down would be polled without pause)...
        #expect(book.nextWakeMs(now: Self.t0, retryMs: 1_000) == 1_000)
        #expect(book.due(now: Self.t0 + 999, window: Self.window).isEmpty)
        #expect(book.waiting["a"] == draw)
        due = book.due(now: Self.t0 + 1_000, window: Self.window)
        #expect(due == [.start(draw, claimed: false)])
    }
}
