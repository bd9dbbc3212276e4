import DrawCore
import DrawPresentation
import Testing

/// A record as the cluster keeps it (issue 44): the `record` body's bytes with its entrant list
/// apart, the list the entrants endpoint's canonical JSON under the record's own `entrantsHash`,
/// and the whole body back byte for byte.
struct SharedRecordBodyTests {
    @Test(arguments: [DrawStatus.running, .finished, .aborted])
    func theListComesApartAndGoesBackByteForByte(status: DrawStatus) throws {
        let record = RecordMessagesTests.record(status, shown: status == .running ? 2 : 4)
        let shared = RecordMessages.sharedRecord(record)
        #expect(shared.whole == RecordMessages.record(record))
        let list = try #require(shared.entrants)
        // The same bytes the entrants endpoint and `started` keep, so one copy serves them all.
        #expect(list.json == EntrantsEncoding.canonicalJSON(record.entrants))
        #expect(list.hash == record.entrantsHash)
        #expect(String(decoding: shared.head.suffix(11), as: UTF8.self) == #""entrants":"#)
        #expect(String(decoding: shared.tail.prefix(12), as: UTF8.self) == #","warnings":"#)
    }

    @Test func aRecordWithoutAListIsKeptWhole() {
        let body = Array(#"{"drawId":"x","entrants":[],"warnings":[]}"#.utf8)
        let empty = SharedRecordBody(splitting: body, entrantsAt: 26..<28)
        #expect(empty.entrants == nil && empty.whole == body)
        // A range outside the body is never trusted to split it.
        #expect(SharedRecordBody(splitting: body, entrantsAt: 30..<400).entrants == nil)
        #expect(SharedRecordBody(splitting: body, entrantsAt: 30..<400).whole == body)
    }
}
