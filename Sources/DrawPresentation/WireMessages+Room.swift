import DrawCore

extension WireMessages {
    /// `room`: the room's next draw changed between draws (its host replaced or removed the list,
    /// or changed the settings). The same members as the snapshot's room part (`settings`,
    /// `entrants`, `warnings`, `allVoid`, see `RoomInfoJSON`), so a page applies it with the code
    /// that reads a snapshot, and viewers see the change without reconnecting.
    public static func room(_ name: String, info: RoomInfo) -> [UInt8] {
        var w = JSONWriter(capacity: 256)
        w.beginObject()
        w.field("type", "room")
        w.field("room", name)
        info.write(into: &w)
        w.endObject()
        return w.bytes
    }
}
