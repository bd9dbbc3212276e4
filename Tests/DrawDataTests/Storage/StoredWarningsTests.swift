import DrawCore
@testable import DrawData
import Testing

/// Warnings in the `warnings` column: the older kinds keep the stored form they always had, and a
/// `duplicate_name` keeps the entrant it repeats.
struct StoredWarningsTests {
    @Test func olderWarningsAreStoredAsBefore() {
        #expect(StoredJSON.warnings([.unknownUser(userId: 999), .duplicateEntry(userId: 22)])
                == #"[{"code":"unknown_user","userId":999},{"code":"duplicate_entry","userId":22}]"#)
    }

    @Test func duplicateNameRoundTrips() throws {
        let text = StoredJSON.warnings([.duplicateName(userId: 7, firstUserId: 3)])
        #expect(text == #"[{"code":"duplicate_name","firstUserId":3,"userId":7}]"#)
        #expect(try StoredJSON.warnings(from: text) == [.duplicateName(userId: 7, firstUserId: 3)])
        #expect(throws: StoredJSON.Invalid.self) { try StoredJSON.warnings(from: #"[{"code":"duplicate_name","userId":7}]"#) }
    }
}
