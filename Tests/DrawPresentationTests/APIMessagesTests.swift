import DrawPresentation
import Testing

struct APIMessagesTests {
    @Test func errorBodyAndStatus() {
        #expect(Fixtures.text(APIMessages.error(.unknownRoom)) == #"{"error":{"code":"unknown_room","message":"No such room."}}"#)
        #expect(ClientErrorCode.unauthorized.httpStatus == 401)
        #expect(ClientErrorCode.forbidden.httpStatus == 403)
        #expect(ClientErrorCode.drawRunning.httpStatus == 409)
        #expect(ClientErrorCode.bodyTooLarge.httpStatus == 413)
        #expect(ClientErrorCode.methodNotAllowed.httpStatus == 405)
    }

    @Test func roomCreatedPutsTheKeyOnlyInTheFragment() throws {
        let m = try Fixtures.object(APIMessages.roomCreated(room: "team-a", hostKey: "k1"))
        #expect(m["viewerUrl"] as? String == "/?room=team-a")
        #expect(m["hostUrl"] as? String == "/?room=team-a#key=k1")
        #expect(m["hostKey"] as? String == "k1")
    }
}
