import DrawPresentation
import Foundation
import Testing

/// The server's protocol facts against Tests/vectors/protocol.json, which the page and the Python
/// test clients are tested against too: one subprotocol, one room-name rule, in every language.
@Suite struct ProtocolVectorTests {
    struct Facts: Decodable {
        let subprotocol: String
        let olderSubprotocols: [String]
        let lobby: String
        let roomNames: Names
        struct Names: Decodable {
            let valid: [String]
            let invalid: [String]
        }
    }

    static let facts: Facts = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../vectors/protocol.json").standardized
        return try! JSONDecoder().decode(Facts.self, from: Data(contentsOf: url))
    }()

    @Test func subprotocolAndLobby() {
        #expect(WireVersion.latest.subprotocol == Self.facts.subprotocol)
        #expect(WireVersion.allCases.filter { $0 != .latest }.map(\.subprotocol) == Self.facts.olderSubprotocols)
        #expect(RoomName.lobby == Self.facts.lobby)
    }

    @Test(arguments: facts.roomNames.valid)
    func validRoomName(_ name: String) {
        #expect(RoomName.isValid(name))
    }

    @Test(arguments: facts.roomNames.invalid)
    func invalidRoomName(_ name: String) {
        #expect(!RoomName.isValid(name))
    }
}
