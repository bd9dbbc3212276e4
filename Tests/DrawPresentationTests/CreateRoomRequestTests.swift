import DrawPresentation
import Testing

/// `POST /api/rooms` bodies, read like client messages (`InboundJSON`).
struct CreateRoomRequestTests {
    @Test func bodies() throws {
        func parse(_ s: String) -> Result<String?, ClientErrorCode> { CreateRoomRequest.parse(Array(s.utf8)) }
        #expect(try parse("").get() == nil)
        #expect(try parse("{}").get() == nil)
        #expect(try parse(#"{"name":"team-a"}"#).get() == "team-a")
        #expect(try parse(#"{"name":null}"#).get() == nil)
        #expect(throws: ClientErrorCode.badRoomName) { try parse(#"{"name":"Team A"}"#).get() }
        #expect(throws: ClientErrorCode.badRoomName) { try parse(#"{"name":7}"#).get() }
        #expect(throws: ClientErrorCode.badJSON) { try parse("[1]").get() }
        #expect(throws: ClientErrorCode.badJSON) { try parse("{").get() }
    }

    /// Whitespace around the object, and a body of whitespace only (no JSON at all).
    @Test func whitespace() throws {
        #expect(try CreateRoomRequest.parse(Array(" \r\n\t".utf8)).get() == nil)
        #expect(try CreateRoomRequest.parse(Array(#" {"name":"b"} "#.utf8)).get() == "b")
        #expect(throws: ClientErrorCode.badJSON) { try CreateRoomRequest.parse(Array(#""name""#.utf8)).get() }
    }
}
