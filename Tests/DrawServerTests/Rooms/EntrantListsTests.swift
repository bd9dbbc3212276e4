import DrawCore
@testable import DrawServer
import Testing

/// Recent draws' entrant lists: encoded once per draw, bounded by count and bytes, the newest kept.
struct EntrantListsTests {
    static func players(_ n: Int) -> [Player] {
        (1...n).map { Player(userId: $0, name: "P\($0)", username: "p\($0)", regDate: CalendarDate(iso: "2020-01-01")!, isVoid: false) }
    }

    @Test func aPlansListIsTheCanonicalJSONAndHashesToItsEntrantsHash() {
        let plan = DrawPlan.make(drawId: String(repeating: "a", count: 32), entrants: Self.players(3),
                                 seed: Seed(bytes: Array(repeating: 1, count: 32))!, schedule: .original)
        let lists = EntrantLists()
        let list = lists.list(for: plan)
        #expect(list.json == EntrantsEncoding.canonicalJSON(plan.entrants))
        #expect(list.hash == plan.entrantsHash && list.etag == "\"\(plan.entrantsHash)\"")
        #expect(lists.json(drawId: plan.drawId) == list.json)
        #expect(lists.list(drawId: String(repeating: "b", count: 32)) == nil)
    }

    @Test func theLeastRecentlyUsedGoesFirstByCountAndBytes() {
        let lists = EntrantLists(maxLists: 2, maxBytes: 1_000)
        lists.keep(EntrantList(hash: "1", json: Array(repeating: 0, count: 10)), drawId: "one")
        lists.keep(EntrantList(hash: "2", json: Array(repeating: 0, count: 10)), drawId: "two")
        _ = lists.list(drawId: "one") // used: "two" is now the oldest
        lists.keep(EntrantList(hash: "3", json: Array(repeating: 0, count: 10)), drawId: "three")
        #expect(lists.list(drawId: "two") == nil && lists.list(drawId: "one") != nil && lists.list(drawId: "three") != nil)
        // One over the byte budget pushes the others out, but stays itself: it is the one in use.
        lists.keep(EntrantList(hash: "4", json: Array(repeating: 0, count: 2_000)), drawId: "four")
        #expect(lists.list(drawId: "four") != nil && lists.list(drawId: "one") == nil && lists.list(drawId: "three") == nil)
    }
}
