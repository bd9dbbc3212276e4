extension WireMessages {
    /// `heartbeat`: sent to a room that heard nothing else for the server's heartbeat interval,
    /// so a page can tell a quiet room from a dead connection (browsers cannot see WebSocket
    /// pings). `intervalMs` is that interval, from which a client derives how long a silence
    /// means "lost" (docs/PROTOCOL.md).
    public static func heartbeat(intervalMs: Int, serverTime: Double) -> [UInt8] {
        var w = JSONWriter(capacity: 80)
        w.beginObject()
        w.field("type", "heartbeat")
        w.field("intervalMs", intervalMs)
        w.field("serverTime", millis: serverTime)
        w.endObject()
        return w.bytes
    }
}
