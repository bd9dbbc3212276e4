import DrawPresentation
import Testing

struct ClientMessageTests {
    private func parse(_ s: String) -> Result<ClientMessage, ClientErrorCode> { ClientMessage.parse(Array(s.utf8)) }

    @Test func validMessages() {
        #expect(parse(#"{"type":"start","hostKey":"abc"}"#) == .success(.start(hostKey: "abc")))
        #expect(parse(#"{"type":"start"}"#) == .success(.start(hostKey: nil)))
        #expect(parse(#"{"type":"start","hostKey":5}"#) == .success(.start(hostKey: nil)))
        #expect(parse(#"{"type":"ping","id":7}"#) == .success(.ping(id: .int(7))))
        #expect(parse(#"{"type":"ping","id":"x"}"#) == .success(.ping(id: .string("x"))))
        #expect(parse(#"{"type":"ping"}"#) == .success(.ping(id: nil)))
        #expect(parse(#"{"type":"ping","extra":[1,2]}"#) == .success(.ping(id: nil)))
    }

    @Test func oversizedPingIdIsNotEchoed() {
        let long = String(repeating: "x", count: 65)
        #expect(parse(#"{"type":"ping","id":"\#(long)"}"#) == .success(.ping(id: nil)))
    }

    @Test(arguments: ["", "{", "[]", "\"start\"", "null", "{\"type\":\"start\"", "\u{ff}"])
    func notAnObjectIsBadJSON(_ s: String) {
        #expect(parse(s) == .failure(.badJSON))
    }

    @Test(arguments: [#"{}"#, #"{"type":"stop"}"#, #"{"type":5}"#, #"{"type":"START"}"#])
    func unknownTypes(_ s: String) {
        #expect(parse(s) == .failure(.unknownType))
    }
}
