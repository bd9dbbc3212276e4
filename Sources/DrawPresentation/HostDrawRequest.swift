import DrawCore

/// The bodies of the host's draw requests (docs/PROTOCOL.md §5): the start option of
/// `POST /api/rooms/ROOM/draws` and the redraw of `POST /api/rooms/ROOM/redraws`.
public enum HostDrawRequest {
    /// How several winners are revealed, from `{"reveal":"auto"|"host"|"together"}`; `nil` when
    /// the body is empty, not JSON or has no `reveal` (the start endpoint always ignored its
    /// body, so such bodies keep working). A `reveal` that is none of those is refused
    /// (`invalid_settings`) rather than silently run another way.
    public static func startOptions(_ body: [UInt8]) -> Result<WinnerRevealMode?, ClientErrorCode> {
        guard let fields = InboundJSON.object(Fields.self, from: body), let reveal = fields.reveal else { return .success(nil) }
        guard let mode = WinnerRevealMode(rawValue: reveal) else { return .failure(.invalidSettings) }
        return .success(mode)
    }

    /// The draw and the winner to remove, from `{"drawId":"…","userId":7}`; `bad_json` when the
    /// body is not such an object.
    public static func redraw(_ body: [UInt8]) -> Result<(drawId: String, userId: Int), ClientErrorCode> {
        guard let fields = InboundJSON.object(Fields.self, from: body), let drawId = fields.drawId,
              let userId = fields.userId else { return .failure(.badJSON) }
        return .success((drawId, userId))
    }

    /// Lenient like every inbound body: a member of the wrong type reads as absent.
    private struct Fields: Decodable {
        var reveal: String?
        var drawId: String?
        var userId: Int?

        enum CodingKeys: String, CodingKey { case reveal, drawId, userId }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            reveal = try? c.decodeIfPresent(String.self, forKey: .reveal)
            drawId = try? c.decodeIfPresent(String.self, forKey: .drawId)
            userId = try? c.decodeIfPresent(Int.self, forKey: .userId)
        }
    }
}
