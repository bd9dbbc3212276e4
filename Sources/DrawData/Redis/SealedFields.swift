/// The fields a sealed value of the view or the escrow is bound to (`StoredSeal`), in one place
/// so the writer (`RedisFencedDrawLog`) and the readers (`RedisRoomViewStore`, the escrow read)
/// agree. Where a field names the draw, a part of one draw moved to another (the view's
/// `drawId` changed, a round pushed onto another draw's list, another draw's end) is refused;
/// a round's index is in its field too, so rounds cannot be reordered.
enum SealedFields {
    /// The view's `head` of draw `drawId`.
    static func head(_ drawId: String) -> String { "head\n\(drawId)" }
    /// The view's `progress` (per-winner events) of draw `drawId`.
    static func progress(_ drawId: String) -> String { "progress\n\(drawId)" }
    /// Round `index` of draw `drawId` in the view's rounds list.
    static func round(_ drawId: String, _ index: Int) -> String { "round\n\(drawId)\n\(index)" }
    /// The view's `lastResult`: the room's last finished draw (not bound to one, it outlives it).
    static let lastResult = "lastResult"
    /// The view's `endWire`, the end of draw `drawId` (its `endDrawId`).
    static func endWire(_ drawId: String) -> String { "endWire\n\(drawId)" }
    /// The escrow's `seed` (encrypted), `roundsShown` and `node`, of draw `drawId`.
    static func escrow(_ name: String, _ drawId: String) -> String { "\(name)\n\(drawId)" }
}
