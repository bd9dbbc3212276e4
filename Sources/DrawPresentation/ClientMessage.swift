import DrawCore
import Foundation

/// The `id` a client may put in a `ping`, echoed in the `pong`.
public enum PingID: Sendable, Equatable {
    case int(Int)
    case string(String)
}

/// A message a client sent, after validation. Anything else is a `ClientErrorCode`.
public enum ClientMessage: Sendable, Equatable {
    /// `{"type":"start","hostKey":"…"}`; `hostKey` is `nil` when absent or not a string. An
    /// optional `"reveal":"auto"|"host"|"together"` says how several winners are revealed
    /// (`nil`: absent or not one of those, the room's way).
    case start(hostKey: String?, reveal: WinnerRevealMode? = nil)
    /// `{"type":"next","hostKey":"…"}`: draw the next winner of a draw waiting for the host.
    case nextWinner(hostKey: String?)
    /// `{"type":"redraw","hostKey":"…","drawId":"…","userId":7}`: remove winner `userId` of the
    /// room's last draw and draw a replacement (docs/FAIRNESS.md §5b).
    case redraw(hostKey: String?, drawId: String?, userId: Int?)
    /// `{"type":"ping","id":…}`.
    case ping(id: PingID?)

    /// Longest ping id echoed back; longer ones are dropped rather than amplified.
    static let maxPingIDLength = 64

    /// Parses one text frame (see `InboundJSON`). The caller has already enforced the frame size limit.
    public static func parse(_ bytes: [UInt8]) -> Result<ClientMessage, ClientErrorCode> {
        guard let fields = InboundJSON.object(Fields.self, from: bytes) else {
            return .failure(.badJSON)
        }
        switch fields.type {
        case "start": return .success(.start(hostKey: fields.hostKey, reveal: fields.reveal.flatMap(WinnerRevealMode.init)))
        case "next": return .success(.nextWinner(hostKey: fields.hostKey))
        case "redraw": return .success(.redraw(hostKey: fields.hostKey, drawId: fields.drawId, userId: fields.userId))
        case "ping": return .success(.ping(id: fields.id))
        default: return .failure(.unknownType)
        }
    }

    /// The fields we read; each is optional and lenient, so a wrong type reads as absent rather
    /// than failing the whole message. Only "not a JSON object" is `bad_json`.
    private struct Fields: Decodable {
        var type: String?
        var hostKey: String?
        var id: PingID?
        var reveal: String?
        var drawId: String?
        var userId: Int?

        enum CodingKeys: String, CodingKey { case type, hostKey, id, reveal, drawId, userId }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            type = try? c.decodeIfPresent(String.self, forKey: .type)
            hostKey = try? c.decodeIfPresent(String.self, forKey: .hostKey)
            reveal = try? c.decodeIfPresent(String.self, forKey: .reveal)
            drawId = try? c.decodeIfPresent(String.self, forKey: .drawId)
            userId = try? c.decodeIfPresent(Int.self, forKey: .userId)
            if let n = try? c.decodeIfPresent(Int.self, forKey: .id) {
                id = .int(n)
            } else if let s = try? c.decodeIfPresent(String.self, forKey: .id), s.utf8.count <= ClientMessage.maxPingIDLength {
                id = .string(s)
            }
        }
    }
}
