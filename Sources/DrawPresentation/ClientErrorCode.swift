/// Why a client's message was refused (`error` messages and HTTP error bodies share these codes).
public enum ClientErrorCode: String, Error, Sendable, CaseIterable {
    case badJSON = "bad_json"
    case unknownType = "unknown_type"
    case binaryNotSupported = "binary_not_supported"
    case rateLimited = "rate_limited"
    case unauthorized = "unauthorized"
    case forbidden = "forbidden"
    case drawRunning = "draw_running"
    case unknownRoom = "unknown_room"
    case badRoomName = "bad_room_name"
    case roomExists = "room_exists"
    case bodyTooLarge = "body_too_large"
    case methodNotAllowed = "method_not_allowed"
    case notFound = "not_found"
    case tooManyConnections = "too_many_connections"
    case tooManyRooms = "too_many_rooms"
    case shuttingDown = "shutting_down"
    /// The server is draining before a restart: running draws finish, new ones are refused.
    case draining = "draining"
    case unsupportedSubprotocol = "unsupported_subprotocol"
    case internalError = "internal_error"
    /// `GET /api/draws/ID`: no draw has this id (or it is not a draw id at all).
    case unknownDraw = "unknown_draw"
    /// History paging: `limit` is not a whole number within `DrawPageRequest.limitRange`.
    case badLimit = "bad_limit"
    /// History paging: `cursor` is not a token the server handed out.
    case badCursor = "bad_cursor"
    /// The draw history could not be read (database locked too long, I/O error).
    case storageUnavailable = "storage_unavailable"
    /// An API `POST` whose `Content-Type` is not `application/json` (HTTP 415).
    case unsupportedMediaType = "unsupported_media_type"
    /// HTTP: the request is not well-formed HTTP/1.1 (bad request line, header or number).
    case badRequest = "bad_request"
    /// HTTP: the request target (URL) is longer than the server reads.
    case uriTooLong = "uri_too_long"
    /// HTTP: the request's headers are larger, or more, than the server reads.
    case headersTooLarge = "headers_too_large"
    /// HTTP: the request did not arrive completely within the server's deadline.
    case requestTimeout = "request_timeout"
    /// HTTP: a protocol version other than HTTP/1.0 and HTTP/1.1.
    case httpVersionNotSupported = "http_version_not_supported"
    /// Too many rooms are being loaded from the store at once; try again shortly.
    case busy = "busy"
    /// The room was deleted by its host (sent to its viewers before the close with 4404).
    case roomDeleted = "room_deleted"
    /// Cluster mode: the shared store (Redis) is unreachable, so no room can be created and no
    /// draw started until it is back (HTTP 503).
    case clusterUnavailable = "cluster_unavailable"
    /// Cluster mode: the shared store (Redis) is full (`maxmemory` reached), so no draw can start
    /// until an operator frees memory (HTTP 503). Unlike `cluster_unavailable`, retrying soon
    /// does not help by itself.
    case clusterFull = "cluster_full"
    /// An uploaded entrant list is larger than the upload limit (`--max-upload-bytes`; HTTP 413).
    case listTooLarge = "list_too_large"
    /// A plain-text entrant list is not UTF-8.
    case listNotUTF8 = "list_not_utf8"
    /// An uploaded list has more entrants than a room may have (`--max-entrants`).
    case tooManyEntrants = "too_many_entrants"
    /// A name in an uploaded list is longer than `--max-name-chars` characters.
    case nameTooLong = "name_too_long"
    /// A name in an uploaded list is longer than its byte limit (`--max-name-chars` × 4).
    case nameTooManyBytes = "name_too_many_bytes"
    /// An uploaded list leaves nobody to draw from.
    case noEntrants = "no_entrants"
    /// An uploaded JSON list is not JSON.
    case listMalformedJSON = "list_malformed_json"
    /// An uploaded JSON list has the wrong shape.
    case listInvalidData = "list_invalid_data"
    /// `PUT /api/rooms/ROOM/settings`: a value outside the operator's limits, or not a number.
    case invalidSettings = "invalid_settings"
    /// `PUT .../entrants` with list URLs: the operator allows no source hosts (room URLs are off).
    case sourceURLsOff = "source_urls_off"
    /// A room's list URL that is not an http(s) URL (`file://` and every other scheme included).
    case sourceURLInvalid = "source_url_invalid"
    /// A room's list URL on a host the operator does not list (`--allowed-source-hosts`).
    case sourceHostNotAllowed = "source_host_not_allowed"
    /// A room's list URL whose host is a private, loopback, link-local… address, without
    /// `--allow-private-sources`.
    case sourceAddressRefused = "source_address_refused"
    /// "Draw the next winner" while no draw waits for it (issue 28).
    case noWinnerWaiting = "no_winner_waiting"
    /// A redraw of a draw that is not the room's last finished one.
    case notRedrawable = "not_redrawable"
    /// A redraw naming someone who is not a winner standing.
    case notAWinner = "not_a_winner"
    /// A redraw with nobody left to draw from.
    case nobodyLeft = "nobody_left"
    case redrawLimit = "redraw_limit"
    /// A scheduled draw's time that is not an RFC 3339 date-time (issue 30).
    case badTime = "bad_time"
    /// A scheduled draw's time that is not in the future.
    case timePassed = "time_passed"
    /// A scheduled draw's time sooner than the server's minimum lead.
    case tooSoon = "too_soon"
    /// A scheduled draw's time further ahead than the server allows.
    case tooFarAhead = "too_far_ahead"
    /// The room has a scheduled draw already (one per room).
    case alreadyScheduled = "already_scheduled"
    /// The room has no scheduled draw (to cancel).
    case notScheduled = "not_scheduled"
    /// The room's list could not be read to freeze it for a scheduled draw.
    case listUnavailable = "list_unavailable"

    /// The sentence sent when no more specific one applies.
    public var defaultMessage: String {
        switch self {
        case .badJSON: return "The message is not a JSON object."
        case .unknownType: return "Unknown message type; expected \"start\", \"next\", \"redraw\" or \"ping\"."
        case .binaryNotSupported: return "Binary frames are not supported; send JSON text frames."
        case .rateLimited: return "Too many messages; slow down."
        case .unauthorized: return "A host key is required to start a draw."
        case .forbidden: return "A valid host key is required to start a draw."
        case .drawRunning: return "A draw is already running in this room."
        case .unknownRoom: return "No such room."
        case .badRoomName: return "Room names are 1 to 64 characters of a-z, 0-9 and '-'."
        case .roomExists: return "A room with that name already exists."
        case .bodyTooLarge: return "The request body is larger than allowed."
        case .methodNotAllowed: return "That method is not allowed on this path."
        case .notFound: return "Not found."
        case .tooManyConnections: return "The server is at its connection limit; try again later."
        case .tooManyRooms: return "The server is at its room limit; try again later."
        case .shuttingDown: return "The server is shutting down."
        case .draining: return "The server is restarting: running draws finish, new draws start after the restart."
        case .unsupportedSubprotocol: return "Offer the live-draw.v2 subprotocol (or live-draw.v1), or none."
        case .internalError: return "The server failed to handle the request."
        case .unknownDraw: return "No such draw."
        case .badLimit: return "limit must be a whole number within the allowed range."
        case .badCursor: return "cursor is not one this server handed out; start again without it."
        case .storageUnavailable: return "The draw history cannot be read right now; try again later."
        case .unsupportedMediaType: return "Send API requests with Content-Type: application/json."
        case .badRequest: return "The request is not well-formed HTTP/1.1."
        case .uriTooLong: return "The request URL is longer than this server accepts."
        case .headersTooLarge: return "The request headers are larger than this server accepts."
        case .requestTimeout: return "The request did not arrive in time."
        case .httpVersionNotSupported: return "Only HTTP/1.0 and HTTP/1.1 are supported."
        case .busy: return "The server is busy loading rooms; try again shortly."
        case .roomDeleted: return "This room was deleted by its host."
        case .clusterUnavailable: return "The cluster's shared store is unreachable or still catching up; try again in a few seconds."
        case .clusterFull: return "The cluster's shared store is full; draws cannot start until an operator frees memory."
        case .listTooLarge: return "The entrant list is larger than this server accepts."
        case .listNotUTF8: return "The entrant list is not UTF-8 text."
        case .tooManyEntrants: return "The entrant list has more entrants than a room may have."
        case .nameTooLong, .nameTooManyBytes: return "A name in the entrant list is longer than allowed."
        case .noEntrants: return "The entrant list has no entrants."
        case .listMalformedJSON: return "The entrant list is not valid JSON."
        case .listInvalidData: return "The entrant list is JSON of the wrong shape."
        case .sourceURLsOff: return "This server takes no list URLs for rooms: its operator allows no source hosts."
        case .sourceURLInvalid: return "A room's list URLs must be http:// or https:// URLs."
        case .sourceHostNotAllowed: return "That host is not one this server fetches room lists from."
        case .sourceAddressRefused: return "That address is private, loopback or otherwise internal; this server fetches room lists only from public addresses."
        case .noWinnerWaiting: return "No draw in this room is waiting for its next winner."
        case .notRedrawable: return "Only a winner of this room's last finished draw can be redrawn."
        case .notAWinner: return "That entrant is not one of the winners of this room's last draw."
        case .nobodyLeft: return "Everyone in the draw was drawn already: nobody is left to draw a replacement from."
        case .redrawLimit: return "This giveaway has had every redraw this server allows (its operator sets how many, or none)."
        case .badTime: return "Send the time as an RFC 3339 date-time, e.g. {\"at\":\"2030-01-31T18:00:00Z\"}."
        case .timePassed: return "That time has passed; choose a time in the future."
        case .tooSoon: return "That time is too soon to schedule a draw for; start it now instead."
        case .tooFarAhead: return "That time is further ahead than a draw can be scheduled."
        case .alreadyScheduled: return "This room has a scheduled draw already; cancel it first."
        case .notScheduled: return "This room has no scheduled draw."
        case .listUnavailable: return "The room's entrant list could not be read; nothing was scheduled. Try again shortly."
        case .invalidSettings: return "The settings are not valid: rounds, intervalMs, decelerateToMs, winners and countdownMs are whole numbers within the server's limits; title and prize are one line of text each (up to 80 and 160 characters)."
        }
    }

    /// The HTTP status this code maps to in API responses.
    public var httpStatus: Int {
        switch self {
        case .badJSON, .unknownType, .binaryNotSupported, .badRoomName, .unsupportedSubprotocol,
             .badLimit, .badCursor, .badRequest, .listNotUTF8, .listMalformedJSON, .badTime: return 400
        case .unauthorized: return 401
        case .forbidden, .sourceURLsOff: return 403
        case .unknownRoom, .unknownDraw, .notFound, .roomDeleted, .notScheduled: return 404
        case .methodNotAllowed: return 405
        case .drawRunning, .roomExists, .noWinnerWaiting, .notRedrawable, .nobodyLeft, .redrawLimit, .alreadyScheduled: return 409
        case .bodyTooLarge, .listTooLarge: return 413
        case .tooManyEntrants, .nameTooLong, .nameTooManyBytes, .noEntrants, .listInvalidData, .invalidSettings,
             .sourceURLInvalid, .sourceHostNotAllowed, .sourceAddressRefused, .notAWinner, .timePassed, .tooSoon,
             .tooFarAhead: return 422
        case .unsupportedMediaType: return 415
        case .rateLimited: return 429
        case .tooManyConnections, .tooManyRooms, .shuttingDown, .draining, .storageUnavailable, .busy, .clusterUnavailable,
             .clusterFull, .listUnavailable: return 503
        case .internalError: return 500
        case .requestTimeout: return 408
        case .uriTooLong: return 414
        case .headersTooLarge: return 431
        case .httpVersionNotSupported: return 505
        }
    }
}
