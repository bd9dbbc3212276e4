import DrawCore
@testable import DrawData
import Testing

/// `CanonicalEntrantList`: the stored bytes are `EntrantsEncoding.canonicalJSON`'s exactly (the
/// hash every record commits to), however the list falls into chunks, in a buffer sized once.
@Suite struct CanonicalEntrantListTests {
    static let day = CalendarDate(iso: "2024-02-29")!

    static func players(_ count: Int, name: (Int) -> String = { "Entrant \($0)" }) -> [Player] {
        (0..<count).map { i in
            Player(userId: i * 7 - 3, name: name(i), username: i % 3 == 0 ? "" : "user\(i)", regDate: day, isVoid: i % 5 == 0)
        }
    }

    @Test(arguments: [0, 1, CanonicalEntrantList.chunk - 1, CanonicalEntrantList.chunk, CanonicalEntrantList.chunk + 1,
                      2 * CanonicalEntrantList.chunk + 17])
    func theBytesAreTheCanonicalEncodingAtEveryChunkBoundary(count: Int) {
        let players = Self.players(count)
        let bytes = CanonicalEntrantList.bytes(players)
        #expect(bytes == EntrantsEncoding.canonicalJSON(players))
        let expected = CanonicalEntrantList.expectedCount(players)
        let voids = players.filter(\.isVoid).count
        #expect(expected == bytes.count + voids + (count > 0 ? 1 : 0), "sized to the byte, but for a byte a void entry and one comma")
        // A page of slack: glibc serves a large request (past its mmap threshold, which moves
        // with what the process freed before) with whole pages, and the array reports them all
        // as capacity. A doubled buffer would still be far past it.
        #expect(bytes.capacity <= expected + 4096 + 64, "one buffer, not doubled as it filled")
        #expect(SHA256Hex.of(bytes) == EntrantsEncoding.hash(players))
    }

    @Test func namesThatNeedEscapingStillEncodeExactly() {
        let odd = ["quote \" back \\ slash", "tab\there", "line\nbreak", "Zoë", "\u{1}", "🎟️ ticket", "\u{2028}"]
        let players = Self.players(CanonicalEntrantList.chunk + 3) { odd[$0 % odd.count] }
        let bytes = CanonicalEntrantList.bytes(players)
        #expect(bytes == EntrantsEncoding.canonicalJSON(players))
        #expect(SHA256Hex.of(bytes) == EntrantsEncoding.hash(players))
    }
}
