/// Reads a host's uploaded entrant list (`PUT /api/rooms/ROOM/entrants`) into a room's list,
/// within the operator's `EntrantListLimits`. Implemented in DrawData (`UploadedEntrantList`),
/// where the JSON decoding and the seed lists' mappers live; the server only hands it the body.
///
/// Pure and thread-safe: the server calls it off its service thread (a 100,000-name list takes a
/// while to read), with the body it has already bounded by `limits.maxBodyBytes`.
public protocol EntrantListReader: Sendable {
    /// The limits every upload is held to (the server also bounds the request body with them).
    var limits: EntrantListLimits { get }

    /// The list in `body`, merged, with where it came from; throws naming the first limit or rule
    /// broken, and then nothing of it is kept. The body is consumed: a reader lets go of it as
    /// soon as it has read it, before building the list (issue 31: an upload's peak memory).
    func read(_ body: consuming [UInt8], as format: EntrantListFormat) throws(EntrantListError) -> RoomEntrants
}

/// The shapes an uploaded list comes in, told apart by the request's `Content-Type`.
public enum EntrantListFormat: Sendable, Hashable {
    /// `text/plain`: one name per line (`PlainTextEntrantList`).
    case plainText
    /// `application/json`: `{"users":[…],"usersInLottery":[…]}`, the seed's two lists.
    case jsonLists
}
