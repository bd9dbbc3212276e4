/// Why a player list could not be loaded, in terms a host can act on.
///
/// Adapters (the libcurl client, the JSON mappers) translate every low-level failure into one of
/// these, so the use cases and the wire never see curl codes or decoder internals.
public enum DataSourceError: Error, Sendable, Hashable {
    /// DNS failure, connection refused, timeout, TLS failure: nothing usable came back.
    case unreachable(source: String, reason: String)
    /// The server answered with a non-2xx HTTP status.
    case badStatus(source: String, status: Int)
    /// The body is not valid JSON; `detail` says where.
    case malformedJSON(source: String, detail: String)
    /// Valid JSON of the wrong shape: a required field is missing or has the wrong type.
    case invalidData(source: String, detail: String)
    /// The body exceeded the configured size cap.
    case tooLarge(source: String, limitBytes: Int)
    /// The URL is not one we may fetch (bad syntax or a scheme other than http, https, file).
    case badURL(source: String)
    /// A room's list URL broke the operator's rules for room sources (issue 15): its host is not
    /// allowed (any more, or after a redirect), or it led to a private or internal address.
    case refused(source: String, reason: String)

    /// A stable machine-readable code, sent in `failed` messages.
    public var code: String {
        switch self {
        case .unreachable: return "source_unreachable"
        case .badStatus: return "source_bad_status"
        case .malformedJSON: return "source_malformed_json"
        case .invalidData: return "source_invalid_data"
        case .tooLarge: return "source_too_large"
        case .badURL: return "source_bad_url"
        case .refused: return "source_refused"
        }
    }

    /// The source the failure concerns (a URL, as configured by the operator).
    public var source: String {
        switch self {
        case .unreachable(let s, _), .badStatus(let s, _), .malformedJSON(let s, _),
             .invalidData(let s, _), .tooLarge(let s, _), .badURL(let s), .refused(let s, _):
            return s
        }
    }

    /// One sentence for the host.
    public var message: String {
        switch self {
        case .unreachable(let s, let reason):
            return "Could not reach \(s): \(reason)."
        case .badStatus(let s, let status):
            return "\(s) answered with HTTP status \(status)."
        case .malformedJSON(let s, let detail):
            return "\(s) did not return valid JSON: \(detail)."
        case .invalidData(let s, let detail):
            return "\(s) returned JSON of the wrong shape: \(detail)."
        case .tooLarge(let s, let limit):
            return "\(s) returned more than the \(limit)-byte limit."
        case .badURL(let s):
            return "\(s) is not an http, https or file URL that can be fetched."
        case .refused(let s, let reason):
            return "\(s) was not fetched: \(reason)."
        }
    }
}
