/// Why a history page request was refused: the client's fault, so the HTTP API answers 400.
public enum PageRequestError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `limit` is not a plain decimal number.
    case limitNotANumber(String)
    /// `limit` is outside `DrawPageRequest.limitRange`.
    case limitOutOfRange(Int)
    /// `cursor` is not a token the store handed out.
    case badCursor(String)

    /// A stable machine-readable code for the API's error body.
    public var code: String {
        switch self {
        case .limitNotANumber, .limitOutOfRange: return "bad_limit"
        case .badCursor: return "bad_cursor"
        }
    }

    /// One sentence for the client.
    public var message: String {
        let range = DrawPageRequest.limitRange
        switch self {
        case .limitNotANumber:
            return "limit must be a whole number from \(range.lowerBound) to \(range.upperBound)."
        case .limitOutOfRange(let n):
            return "limit \(n) is outside \(range.lowerBound)...\(range.upperBound)."
        case .badCursor:
            return "cursor is not one this server handed out; start again without it."
        }
    }

    public var description: String { message }
}
