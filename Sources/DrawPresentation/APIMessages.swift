/// Bodies of the HTTP API's JSON responses (docs/PROTOCOL.md section 5).
public enum APIMessages {
    /// `{"error":{"code":…,"message":…}}`.
    public static func error(_ code: ClientErrorCode, message: String? = nil) -> [UInt8] {
        var w = JSONWriter(capacity: 128)
        w.beginObject()
        w.key("error")
        w.beginObject(); w.field("code", code.rawValue); w.field("message", message ?? code.defaultMessage); w.endObject()
        w.endObject()
        return w.bytes
    }

    /// `201` body for a new room. The host key appears here and nowhere else on the wire.
    public static func roomCreated(room: String, hostKey: String) -> [UInt8] {
        var w = JSONWriter(capacity: 200)
        w.beginObject()
        w.field("room", room)
        w.field("hostKey", hostKey)
        w.field("viewerUrl", viewerPath(room: room))
        w.field("hostUrl", hostPath(room: room, hostKey: hostKey))
        w.endObject()
        return w.bytes
    }

    /// `200` body of a key rotation (`POST /api/rooms/ROOM/key`): the new key, shown once.
    public static func keyRotated(room: String, hostKey: String) -> [UInt8] {
        var w = JSONWriter(capacity: 200)
        w.beginObject()
        w.field("room", room)
        w.field("hostKey", hostKey)
        w.field("hostUrl", hostPath(room: room, hostKey: hostKey))
        w.endObject()
        return w.bytes
    }

    /// `202` body when a draw was accepted.
    public static func drawAccepted(room: String) -> [UInt8] {
        var w = JSONWriter(capacity: 64)
        w.beginObject(); w.field("room", room); w.field("status", "loading"); w.endObject()
        return w.bytes
    }

    /// `200` body of `GET /healthz`.
    public static func health() -> [UInt8] { Array(#"{"status":"ok"}"#.utf8) }

    /// `/healthz` in cluster mode: `degraded` while the link to the shared store is down (the
    /// node still serves its viewers, but refuses new rooms and new draws).
    public static func health(clusterUp: Bool) -> [UInt8] {
        Array((clusterUp ? #"{"status":"ok","cluster":"up"}"# : #"{"status":"degraded","cluster":"down"}"#).utf8)
    }
    /// `503` body of `GET /healthz` while the server drains before a restart.
    public static func healthDraining() -> [UInt8] { Array(#"{"status":"draining"}"#.utf8) }

    /// The page path for viewers of `room`.
    public static func viewerPath(room: String) -> String { "/?room=\(room)" }

    /// The page path for the host: the key rides in the fragment, which browsers never send.
    public static func hostPath(room: String, hostKey: String) -> String { "/?room=\(room)#key=\(hostKey)" }
}
