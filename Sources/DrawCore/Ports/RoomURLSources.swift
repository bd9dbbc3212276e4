/// A room's list fetched from the two URLs its host gave (issue 15; `PUT .../entrants` with
/// `{"usersUrl","lotteryUrl"}`), under the operator's rules for room sources: allowed hosts only,
/// http(s) only, no internal addresses unless allowed. Implemented in DrawData
/// (`RoomSourceFetcher`, libcurl).
public protocol RoomURLSources: Sendable {
    /// Why `sources` may not be a room's (room URLs off, not http(s), a host not allowed, a
    /// literal internal address), or `nil`. Syntax and names only, no network: a name's
    /// addresses are checked when a draw fetches (DNS may answer differently then anyway).
    func refusal(of sources: DrawSources) -> RoomSourceRefusal?

    /// Fetches both lists and merges them as the operator's are (same rules, same warnings).
    /// Checks `refusal(of:)` again first: the operator may have changed the rules since.
    func load(_ sources: DrawSources) async throws(DrawError) -> MergeResult
}

/// Why a room may not fetch its list from the URLs its host gave; `message` names the URL's host
/// and the operator's option.
public struct RoomSourceRefusal: Error, Sendable, Hashable {
    public enum Reason: Sendable, Hashable {
        /// The operator allows no source hosts: room URLs are off.
        case off
        /// Not an http(s) URL (`file://` and every other scheme), or not one at all.
        case invalidURL
        /// Its host is not one the operator lists.
        case hostNotAllowed
        /// Its host is an internal address (private, loopback, link-local…), not allowed.
        case internalAddress
    }

    public let reason: Reason
    public let message: String

    public init(_ reason: Reason, _ message: String) {
        self.reason = reason
        self.message = message
    }
}
