/// The body of `POST /api/rooms`: `{}` or `{"name":"my-room"}` (an empty body counts as `{}`).
public enum CreateRoomRequest {
    /// The requested name (`nil`: generate one), or why the body is refused: `bad_json` when it is
    /// not a JSON object (see `InboundJSON`), `bad_room_name` when `name` is neither absent, null
    /// nor a valid room name.
    public static func parse(_ body: [UInt8]) -> Result<String?, ClientErrorCode> {
        if body.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0a || $0 == 0x0d }) { return .success(nil) }
        guard let fields = InboundJSON.object(Fields.self, from: body) else { return .failure(.badJSON) }
        switch fields.name {
        case .absent: return .success(nil)
        case .string(let name) where RoomName.isValid(name): return .success(name)
        case .string, .other: return .failure(.badRoomName)
        }
    }

    private struct Fields: Decodable {
        enum Name {
            /// Absent or `null`.
            case absent
            case string(String)
            /// Any other JSON value.
            case other
        }

        var name = Name.absent

        enum CodingKeys: String, CodingKey { case name }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            guard c.contains(.name), (try? c.decodeNil(forKey: .name)) != true else { return }
            name = (try? c.decode(String.self, forKey: .name)).map(Name.string) ?? .other
        }
    }
}
