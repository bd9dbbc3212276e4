/// The versions of the WebSocket protocol (docs/PROTOCOL.md §1), chosen per connection by the
/// subprotocol the client offers.
///
/// v2 (issue 15) sends a draw's entrants once over HTTP (`GET /api/draws/ID/entrants`) instead of
/// in `started`, `finished` and snapshots, which carry `entrantCount` and `entrantsHash` instead:
/// with 100,000 entrants the list is megabytes, and v1 sent it to every viewer. v1 is still
/// served, to clients that offer `live-draw.v1` or no subprotocol at all (as they always could),
/// by writing the list back into the v2 messages (`WireMessages.v1(_:entrants:)`).
public enum WireVersion: Int, Sendable, CaseIterable {
    case v1 = 1
    case v2 = 2

    /// What the page and new clients should offer.
    public static let latest = WireVersion.v2

    /// The WebSocket subprotocol name: `live-draw.v1`, `live-draw.v2`.
    public var subprotocol: String { "live-draw.v\(rawValue)" }

    /// The version of a connection for which lws chose the protocol called `name`: a client that
    /// offered no subprotocol (lws' default protocol) gets v1, as it always did.
    public init(chosenProtocol name: String) {
        self = Self.allCases.first { $0.subprotocol == name } ?? .v1
    }
}
