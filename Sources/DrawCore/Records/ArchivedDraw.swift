/// An ended draw as a node keeps it in its own store (`DrawArchive`, issue 44), copied from the
/// cluster's shared store while that still holds it: what `GET /api/draws/ID`, its entrants and
/// the room's history answer once Redis has let the draw go (`HistoryRetention`).
public struct ArchivedDraw: Sendable, Hashable {
    public let drawId: String
    public let room: String
    /// Its place in the cluster's history sequence (what history pages are ordered by).
    public let position: Int64
    /// Its history line, as the shared store kept it.
    public let summary: [UInt8]
    /// Its record, the entrant list apart (kept once per list).
    public let body: SharedRecordBody

    public init(drawId: String, room: String, position: Int64, summary: [UInt8], body: SharedRecordBody) {
        self.drawId = drawId
        self.room = room
        self.position = position
        self.summary = summary
        self.body = body
    }
}
