import DrawCore
import DrawData
import Testing

/// The server's reader of a host's upload: which shape by format, the JSON body's two members
/// (documents or arrays), where a list says it came from, and the limits on the whole body.
struct UploadedEntrantListTests {
    static let today = CalendarDate(year: 2026, month: 11, day: 23)!
    static let reader = UploadedEntrantList(limits: PlainTextEntrantListTests.roomy, today: { today })

    static func error(_ body: String, _ format: EntrantListFormat, reader: UploadedEntrantList = reader) -> EntrantListError? {
        do {
            _ = try reader.read(Array(body.utf8), as: format)
            return nil
        } catch {
            return error
        }
    }

    @Test func plainTextIsOneNamePerLineRegisteredToday() throws {
        let list = try Self.reader.read(Array("Ann\nBob\nAnn\n".utf8), as: .plainText)
        #expect(list.players.map(\.name) == ["Ann", "Bob", "Ann"])
        #expect(list.players.allSatisfy { $0.regDate == Self.today && !$0.isVoid })
        #expect(list.warnings == [.duplicateName(userId: 3, firstUserId: 1)])
        #expect(list.sources == EntrantsOrigin.plainText)
    }

    @Test func jsonTakesTheSeedDocumentsOrTheirArrays() throws {
        let documents = #"{"users":{"items":[{"userId":1,"name":"A","username":"a","regDate":"2020-01-02"}]},"usersInLottery":{"lotteryList":[{"userId":1,"void":true},{"userId":7,"void":false}]}}"#
        let arrays = #"{"users":[{"userId":1,"name":"A","username":"a","regDate":"2020-01-02"}],"usersInLottery":[{"userId":1,"void":true},{"userId":7,"void":false}]}"#
        for body in [documents, arrays] {
            let list = try Self.reader.read(Array(body.utf8), as: .jsonLists)
            #expect(list.players.map(\.userId) == [1])
            #expect(list.players[0].isVoid)
            #expect(list.warnings == [.unknownUser(userId: 7)])
            #expect(list.sources == EntrantsOrigin.jsonLists)
            #expect(list.summary.allVoid)
        }
    }

    @Test func aJSONBodyOfTheWrongShapeSaysWhich() {
        #expect(Self.error("{", .jsonLists)?.code == "list_malformed_json")
        #expect(Self.error("[]", .jsonLists)?.code == "list_invalid_data")
        let missing = Self.error(#"{"users":[]}"#, .jsonLists)
        #expect(missing?.code == "list_invalid_data")
        #expect(missing?.message.contains("usersInLottery") == true)
        #expect(Self.error(#"{"users":3,"usersInLottery":[]}"#, .jsonLists)?.message.contains("users") == true)
        #expect(Self.error(#"{"users":[],"usersInLottery":[]}"#, .jsonLists)?.code == "no_entrants")
    }

    @Test func theWholeJSONBodyIsHeldToTheUploadLimit() {
        let tight = UploadedEntrantList(limits: EntrantListLimits(maxEntrants: 10, maxNameCharacters: 10, maxNameBytes: 40,
                                                                  maxBodyBytes: 40), today: { Self.today })
        let body = #"{"users":[],"usersInLottery":[],"x":"12"}"#  // 41 bytes
        #expect(Array(body.utf8).count == 41)
        let error = Self.error(body, .jsonLists, reader: tight)
        #expect(error == .bodyTooLarge(list: "upload", limitBytes: 40))
        #expect(Self.error(String(repeating: "a\n", count: 21), .plainText, reader: tight)?.code == "list_too_large")
    }

    @Test func todayIsAValidDate() {
        #expect(UploadedEntrantList.utcToday().description.count == 10)
    }
}
