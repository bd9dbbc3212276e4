import DrawCore

extension ClientErrorCode {
    /// The API's code for a refused history page request (`400 bad_limit` / `400 bad_cursor`).
    /// Send it with `error.message`, which names the allowed range.
    public init(_ error: PageRequestError) {
        switch error {
        case .limitNotANumber, .limitOutOfRange: self = .badLimit
        case .badCursor: self = .badCursor
        }
    }
}
