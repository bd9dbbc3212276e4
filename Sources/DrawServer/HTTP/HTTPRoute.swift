/// The HTTP endpoints of docs/PROTOCOL.md §5, matched from the request path alone.
enum HTTPRoute: Equatable {
    case health
    case metrics
    /// `/api/rooms`
    case rooms
    /// `/api/rooms/ROOM` (the name is not validated here; an invalid one is simply unknown).
    case room(String)
    /// `/api/rooms/ROOM/draws`
    case draws(String)
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
        // "", "api", "rooms", ROOM[, "draws"]
        guard parts.count >= 4, parts[1] == "api", parts[2] == "rooms", !parts[3].isEmpty else { return .unknownAPI }
        let room = String(parts[3])
        if parts.count == 4 { return .room(room) }
        if parts.count == 5, parts[4] == "draws" { return .draws(room) }
        return .unknownAPI
    }

    /// The one method each endpoint accepts (others get 405).
    var allowedMethod: HTTPMethod? {
        switch self {
        case .health, .metrics, .room, .staticFile: return .get
        case .rooms, .draws: return .post
        case .unknownAPI: return nil
        }
    }
}

/// The request methods the server tells apart.
enum HTTPMethod: Equatable {
    case get, post, put, patch, delete, options, head, other
}
