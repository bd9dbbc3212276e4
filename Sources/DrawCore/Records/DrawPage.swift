/// One page of a room's draw history, newest first.
public struct DrawPage: Sendable, Hashable {
    public let draws: [DrawSummary]
    /// Where the next page starts; `nil` on the last page.
    public let next: DrawCursor?

    public init(draws: [DrawSummary], next: DrawCursor?) {
        self.draws = draws
        self.next = next
    }
}

/// A keyset cursor: the store's position of the last draw of the previous page.
///
/// Why keyset and not `offset`: draws are added while someone pages through the history; an offset
/// would then repeat a draw at a page boundary, a cursor never does. Clients treat the token as
/// opaque; it is the decimal position, which the store defines (a strictly increasing number).
public struct DrawCursor: Sendable, Hashable, CustomStringConvertible {
    /// Positive; the next page holds draws at smaller positions.
    public let position: Int64

    /// `nil` unless `position` is positive.
    public init?(position: Int64) {
        guard position > 0 else { return nil }
        self.position = position
    }

    /// Parses a token from a query string exactly as `token` writes one: 1 to 18 ASCII digits,
    /// the first not `0` (docs/openapi.yaml's pattern `^[1-9][0-9]{0,17}$`), nothing else. An
    /// empty `cursor=` is no token either.
    public init(token: String) throws(PageRequestError) {
        let bytes = Array(token.utf8)
        guard (1...18).contains(bytes.count), bytes[0] != UInt8(ascii: "0"),
              bytes.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
              let value = Int64(token), let cursor = DrawCursor(position: value) else {
            throw .badCursor(token)
        }
        self = cursor
    }

    /// The token to hand to clients.
    public var token: String { String(position) }
    public var description: String { token }
}

/// A validated request for one page: a size within `limitRange` and an optional cursor.
public struct DrawPageRequest: Sendable, Hashable {
    /// Sizes a client may ask for.
    public static let limitRange = 1...100
    /// The size when the client names none.
    public static let defaultLimit = 20

    public let limit: Int
    /// `nil` for the first (newest) page.
    public let after: DrawCursor?

    /// Throws `limitOutOfRange` when `limit` is outside `limitRange`.
    public init(limit: Int = DrawPageRequest.defaultLimit, after: DrawCursor? = nil) throws(PageRequestError) {
        guard Self.limitRange.contains(limit) else { throw .limitOutOfRange(limit) }
        self.limit = limit
        self.after = after
    }

    /// Builds a request from raw query-string values (`?limit=…&cursor=…`); a missing value takes
    /// its default. Every malformed value is a `PageRequestError`, which the HTTP API answers with 400.
    public static func parse(limit: String?, cursor: String?) throws(PageRequestError) -> DrawPageRequest {
        var size = defaultLimit
        if let limit {
            // Int(_:) alone would accept "+5"; the API accepts plain digits only.
            guard !limit.isEmpty, limit.utf8.count <= 9,
                  limit.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
                  let n = Int(limit) else { throw .limitNotANumber(limit) }
            size = n
        }
        return try DrawPageRequest(limit: size, after: try cursor.map { (t: String) throws(PageRequestError) in
            try DrawCursor(token: t)
        })
    }
}
