import Foundation

/// The `id` a client may put in a `ping`, echoed in the `pong`.
public enum PingID: Sendable, Equatable {
    case int(Int)
    case string(String)
}

/// A message a client sent, after validation. Anything else is a `ClientErrorCode`.
public enum ClientMessage: Sendable, Equatable {
    /// `{"type":"start","hostKey":"…"}`; `hostKey` is `nil` when absent or not a string.
    case start(hostKey: String?)
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
        case "start": return .success(.start(hostKey: fields.hostKey))
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

        enum CodingKeys: String, CodingKey { case type, hostKey, id }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            type = try? c.decodeIfPresent(String.self, forKey: .type)
            hostKey = try? c.decodeIfPresent(String.self, forKey: .hostKey)
            if let n = try? c.decodeIfPresent(Int.self, forKey: .id) {
                id = .int(n)
            } else if let s = try? c.decodeIfPresent(String.self, forKey: .id), s.utf8.count <= ClientMessage.maxPingIDLength {
                id = .string(s)
            }
        }
    }
}
