/// The entrant list uploads whose bodies the front door reads past the API's usual limit (issue
/// 31): each holds one of the `UploadSlots` (in all, per address, per room) from its admission
/// until it is complete, answered or dropped, and keeps its `UploadPace` instead of the head's
/// deadline (finding 5).
///
/// A value keyed by descriptor (and request id, as a number may be reused): the front door reads
/// the bodies and refuses what this names. Times and byte counts are passed in, so tests drive it
/// without sockets. Service thread only.
struct UploadReads {
    /// Seconds a client refused an upload slot is asked to wait (`Retry-After`).
    static let retryAfterSeconds = 5

    private struct Reading {
        let id: UInt64
        let peer: PeerAddress?
        let room: String
        var pace: UploadPace
    }

    let slots: UploadSlots
    private var reading: [Int32: Reading] = [:]

    init(slots: UploadSlots = UploadSlots()) { self.slots = slots }

    /// Uploads being read now.
    var count: Int { reading.count }

    /// Request `id` on `fd`, from `peer` to `room`, may read its body if a slot is free; its pace
    /// starts at `now`, with `bytes` of it in already (those that came with the head).
    mutating func admit(_ fd: Int32, id: UInt64, peer: PeerAddress?, room: String, bytes: Int, at now: UInt64) -> Bool {
        let others = reading.values.map { (peer: $0.peer, room: $0.room) }
        guard slots.admits(peer: peer, room: room, beside: others) else { return false }
        reading[fd] = Reading(id: id, peer: peer, room: room, pace: UploadPace(bytes: bytes, at: now))
        return true
    }

    /// The request's body is in, or it was answered or dropped: its slot (if it held one) is free.
    mutating func ended(_ fd: Int32, id: UInt64) {
        if reading[fd]?.id == id { reading[fd] = nil }
    }

    /// The uploads that fell behind their pace, or ran past its cap, at `now`: refuse them (each
    /// holds its slot until `ended`). `bytes` tells how much of each body is in.
    mutating func offPace(at now: UInt64, bytes: (Int32) -> Int?) -> [Int32] {
        var late: [Int32] = []
        for fd in Array(reading.keys) {
            guard let done = bytes(fd) else { continue }
            if reading[fd]?.pace.check(bytes: done, at: now) != .onPace { late.append(fd) }
        }
        return late
    }
}
