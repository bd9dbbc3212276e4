import DrawCore
@testable import DrawData
import Foundation
import Testing

/// The JSON mappers on their own: shapes, field errors, dates. No network involved.
struct MapperTests {
    private let source = "test://source"

    private func users(_ json: String) throws(DataSourceError) -> [User] {
        try UserListMapper.users(from: Data(json.utf8), source: source)
    }

    private func entries(_ json: String) throws(DataSourceError) -> [LotteryEntry] {
        try LotteryListMapper.entries(from: Data(json.utf8), source: source)
    }

    @Test func unknownFieldsAreIgnored() throws {
        let json = #"{"page":1,"items":[{"userId":7,"name":"N","username":"u","regDate":"2020-02-29","extra":[1]}]}"#
        #expect(try users(json) == [User(userId: 7, name: "N", username: "u", regDate: CalendarDate(iso: "2020-02-29")!)])
        #expect(try entries(#"{"lotteryList":[{"userId":7,"void":true,"note":"x"}],"v":2}"#)
                == [LotteryEntry(userId: 7, isVoid: true)])
    }

    @Test func emptyListsAreEmpty() throws {
        #expect(try users(#"{"items":[]}"#).isEmpty)
        #expect(try entries(#"{"lotteryList":[]}"#).isEmpty)
    }

    @Test(arguments: [
        (#"{"lotteryList":[{"userId":1,"void":false},{"userId":"2","void":false}]}"#,
         "lotteryList[1].userId has the wrong type (expected a whole number, found a string)"),
        (#"{"lotteryList":[{"userId":1,"void":0}]}"#,
         "lotteryList[0].void has the wrong type (expected true or false, found number)"),
        (#"{"lotteryList":[{"userId":1,"void":null}]}"#,
         "lotteryList[0].void has the wrong type (expected true or false, found null)"),
        (#"{"lotteryList":[{"void":true}]}"#, "lotteryList[0].userId is missing"),
        (#"{"lotteryList":[{"userId":1.5,"void":true}]}"#,
         "lotteryList[0].userId is not a whole number within the integer range"),
        (#"{"lotteryList":[{"userId":1e400,"void":true}]}"#,
         "lotteryList[0].userId is not a whole number within the integer range"),
        (#"{"lotteryList":{}}"#, "lotteryList has the wrong type (expected an array, found a dictionary)"),
        (#"{"items":[]}"#, "lotteryList is missing"),
        (#"[1,2]"#, "the top-level value has the wrong type (expected an object, found an array)"),
    ])
    func wrongShapeIsInvalidDataNamingTheField(json: String, detail: String) {
        #expect(throws: DataSourceError.invalidData(source: source, detail: detail)) { try entries(json) }
    }

    @Test func nullStringIsInvalidData() {
        let json = #"{"items":[{"userId":1,"name":null,"username":"a","regDate":"2020-01-01"}]}"#
        #expect(throws: DataSourceError.invalidData(source: source, detail: "items[0].name is null")) { try users(json) }
    }

    @Test(arguments: ["2021-02-29", "2020-13-01", "2020-1-05", "20-01-05", "2020-01-05T00:00:00Z", ""])
    func impossibleOrLooseRegDateIsInvalidData(date: String) {
        let json = #"{"items":[{"userId":1,"name":"A","username":"a","regDate":"2020-01-01"},"#
            + #"{"userId":2,"name":"B","username":"b","regDate":"\#(date)"}]}"#
        let detail = "items[1].regDate is not a real yyyy-MM-dd date (\"\(date)\")"
        #expect(throws: DataSourceError.invalidData(source: source, detail: detail)) { try users(json) }
    }

    @Test func longBadValueIsQuotedOnlyInPart() {
        let long = String(repeating: "9", count: 500)
        let json = #"{"items":[{"userId":1,"name":"A","username":"a","regDate":"\#(long)"}]}"#
        let detail = "items[0].regDate is not a real yyyy-MM-dd date (\"\(long.prefix(32))\")"
        #expect(throws: DataSourceError.invalidData(source: source, detail: detail)) { try users(json) }
    }

    @Test(arguments: [
        ("", "Unexpected end of file during JSON parse"),
        ("<html>502</html>", "Invalid value around character 0"),
        ("{\"items\":[]", "Unexpected end of file during JSON parse"),
    ])
    func notJSONIsMalformedJSONSayingWhere(body: String, detail: String) {
        #expect(throws: DataSourceError.malformedJSON(source: source, detail: detail)) { try users(body) }
    }
}
