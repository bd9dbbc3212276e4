import DrawTransport

/// The HTTP endpoints of docs/PROTOCOL.md §5, matched from the request path alone.
enum HTTPRoute: Equatable {
    case health
    case metrics
    /// `/api/rooms`
    case rooms
    /// `/api/rooms/ROOM` (the name is not validated here; an invalid one is simply unknown).
    case room(String)
    /// `/api/rooms/ROOM/draws`: GET pages the room's history, POST starts a draw.
    case draws(String)
    /// `/api/rooms/ROOM/draws/next`: POST draws the next winner of a draw waiting for the host.
    case nextWinner(String)
    /// `/api/rooms/ROOM/redraws`: POST removes a winner of the room's last draw and redraws.
    case redraws(String)
    /// `/api/rooms/ROOM/key`: POST rotates the room's host key.
    case roomKey(String)
    /// `/api/rooms/ROOM/qr.svg`: the room's viewer link as a QR code.
    case roomQR(String)
    /// `/api/rooms/ROOM/entrants`: GET reads the room's own list (host key), PUT replaces it,
    /// DELETE removes it.
    case roomEntrants(String)
    /// `/api/rooms/ROOM/settings`: PUT replaces the room's settings.
    case roomSettings(String)
    /// `/api/rooms/ROOM/schedule`: PUT schedules the room's next draw for a time, DELETE cancels it.
    case roomSchedule(String)
    /// `/api/draws/ID`: one draw's record (the id is validated by the handler).
    case draw(String)
    /// `/api/draws/ID/entrants`: one draw's entrants, served once per draw (immutable).
    case drawEntrants(String)
    /// Any other `/api/…` path.
    case unknownAPI
    /// Everything else is a static file request.
    case staticFile(String)

    static func match(_ path: String) -> HTTPRoute {
        switch path {
        case "/healthz": return .health
        case "/metrics": return .metrics
        case "/api/rooms", "/api/rooms/": return .rooms
        default: break
        }
        guard path.hasPrefix("/api/") || path == "/api" else { return .staticFile(path) }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        // "", "api", "draws", ID
        if parts.count == 4, parts[1] == "api", parts[2] == "draws", !parts[3].isEmpty {
            return .draw(String(parts[3]))
        }
        if parts.count == 5, parts[1] == "api", parts[2] == "draws", !parts[3].isEmpty, parts[4] == "entrants" {
            return .drawEntrants(String(parts[3]))
        }
        // "", "api", "rooms", ROOM[, "draws"]
        guard parts.count >= 4, parts[1] == "api", parts[2] == "rooms", !parts[3].isEmpty else { return .unknownAPI }
        let room = String(parts[3])
        if parts.count == 4 { return .room(room) }
        if parts.count == 5, parts[4] == "draws" { return .draws(room) }
        if parts.count == 6, parts[4] == "draws", parts[5] == "next" { return .nextWinner(room) }
        if parts.count == 5, parts[4] == "redraws" { return .redraws(room) }
        if parts.count == 5, parts[4] == "key" { return .roomKey(room) }
        if parts.count == 5, parts[4] == "qr.svg" { return .roomQR(room) }
        if parts.count == 5, parts[4] == "entrants" { return .roomEntrants(room) }
        if parts.count == 5, parts[4] == "settings" { return .roomSettings(room) }
        if parts.count == 5, parts[4] == "schedule" { return .roomSchedule(room) }
        return .unknownAPI
    }

    /// The largest body a request may send: the route's own limit where it has one (an entrant
    /// list, `PUT /api/rooms/ROOM/entrants`), else `standard`.
    static func maxBodyBytes(method: String, path: String?, standard: Int, upload: Int) -> Int {
        guard method == "PUT", let path, case .roomEntrants = match(path) else { return standard }
        return max(standard, upload)
    }

    /// The methods each endpoint accepts (others get 405); none for an unknown API path (404).
    var allowedMethods: Set<HTTPMethod> {
        switch self {
        case .health, .metrics, .draw, .drawEntrants, .roomQR, .staticFile: return [.get]
        case .room: return [.get, .delete]
        case .rooms, .roomKey, .nextWinner, .redraws: return [.post]
        case .draws: return [.get, .post]
        case .roomEntrants: return [.get, .put, .delete]
        case .roomSettings: return [.put]
        case .roomSchedule: return [.put, .delete]
        case .unknownAPI: return []
        }
    }

    /// Whether `method` on this path acts for the room's host (`Authorization: Bearer KEY`): such a
    /// request without a key is answered `401` before its type or body are looked at, as
    /// docs/openapi.yaml's `security` marks these operations.
    func needsHostKey(_ method: HTTPMethod) -> Bool {
        switch (self, method) {
        case (.room, .delete), (.roomKey, .post), (.draws, .post), (.roomEntrants, .get), (.roomEntrants, .put),
             (.roomEntrants, .delete), (.roomSettings, .put), (.nextWinner, .post), (.redraws, .post), (.roomSchedule, .put),
             (.roomSchedule, .delete):
            return true
        default:
            return false
        }
    }

    /// The `Allow` header of a 405 on this path: HEAD wherever GET is. `nil` for an unknown path.
    var allowHeader: String? {
        let allowed = allowedMethods
        guard !allowed.isEmpty else { return nil }
        let names = (allowed.contains(.get) ? ["GET", "HEAD"] : []) + (allowed.contains(.post) ? ["POST"] : [])
            + (allowed.contains(.put) ? ["PUT"] : []) + (allowed.contains(.delete) ? ["DELETE"] : [])
        return names.joined(separator: ", ")
    }

    /// The `Allow` header for targets that name no path (`OPTIONS *`, CONNECT's `host:port`).
    static let serverAllow = "GET, HEAD, POST, PUT, DELETE"
}
