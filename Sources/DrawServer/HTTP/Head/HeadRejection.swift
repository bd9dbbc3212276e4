import DrawPresentation

/// Why the front door answers a request itself instead of handing it to lws.
enum HeadRejection: Error, Equatable {
    /// Not a well-formed HTTP/1.x request (the reason goes into the error message).
    case malformed(String)
    /// Request target longer than `RequestLimits.maxTargetBytes`, or too many query parameters.
    case targetTooLong
    /// Head larger than `RequestLimits.maxHeadBytes`, or more header lines than allowed.
    case headersTooLarge
    /// `Content-Length` larger than `RequestLimits.maxBodyBytes` (or than any number we keep).
    case bodyTooLarge
    /// An entrant list upload whose `Content-Length` is past the upload limit (`--max-upload-bytes`):
    /// the host's own code and a message naming the limit.
    case uploadTooLarge(limitBytes: Int)
    /// A body sent with `Transfer-Encoding` (chunked): the API reads bodies by `Content-Length`.
    case transferEncoding
    /// `HTTP/2.0` and other versions than 1.0 and 1.1.
    case versionNotSupported
    /// A method the path does not accept; `allow` is the `Allow` header's value.
    case methodNotAllowed(allow: String)
    /// Any other method on a path that does not exist.
    case notFound
    /// The whole request did not arrive within the head deadline.
    case timeout

    /// The code (and HTTP status) of the JSON error body.
    var code: ClientErrorCode {
        switch self {
        case .malformed: return .badRequest
        case .targetTooLong: return .uriTooLong
        case .headersTooLarge: return .headersTooLarge
        case .bodyTooLarge: return .bodyTooLarge
        case .uploadTooLarge: return .listTooLarge
        case .transferEncoding: return .badJSON
        case .versionNotSupported: return .httpVersionNotSupported
        case .methodNotAllowed: return .methodNotAllowed
        case .notFound: return .notFound
        case .timeout: return .requestTimeout
        }
    }

    /// The error message when it says more than the code's default.
    var message: String? {
        switch self {
        case .malformed(let why): return "Malformed request: \(why)."
        // The same words the API has always used for chunked bodies (docs/PROTOCOL.md §5).
        case .transferEncoding: return "Send the request body with a Content-Length header."
        case .uploadTooLarge(let limit):
            return "The entrant list is larger than \(limit) bytes, the upload limit (--max-upload-bytes)."
        default: return nil
        }
    }

    /// The `Allow` header to send with the answer, if any.
    var allow: String? {
        if case .methodNotAllowed(let allow) = self { return allow }
        return nil
    }
}
