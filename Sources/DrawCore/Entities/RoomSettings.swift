/// What a room's host chose for it when creating it, kept with the room so a restart does not
/// change how the room behaves.
///
/// Empty today: `POST /api/rooms` takes only a name, and the round schedule, the player lists and
/// the limits are the server's, the same for every room. It exists so the room record, the store
/// and the API have a place for per-room choices from the start; the store keeps it as a JSON
/// object (`{}` today), so adding a field needs no schema migration, and a field added later must
/// have a default, because rooms stored before it lack it.
public struct RoomSettings: Sendable, Hashable {
    public init() {}
}
