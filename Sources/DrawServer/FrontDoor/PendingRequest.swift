/// One accepted connection whose request the front door is still reading. Service thread only.
final class PendingRequest {
    let fd: Int32
    /// Tells this connection apart from a later one that gets the same descriptor number.
    let id: UInt64
    let peer: PeerAddress?
    /// The head as read so far (with whatever came after it in the same read, until the head is
    /// parsed: then that moves to `body`).
    var buffer: [UInt8] = []
    /// The body read so far: reserved to its `Content-Length` once the head is in, and handed to
    /// the API as it is, never copied (issue 31, finding 2: the server held three copies).
    var body: [UInt8] = []
    /// The body's length from the head.
    var bodyLength = 0
    var scanner: HeadScanner
    /// Set once the head is complete and acceptable.
    var head: RequestHead?
    /// An entrant list upload (`PUT /api/rooms/ROOM/entrants`): the room it is for. Its room,
    /// key and `Content-Type` are checked (`UploadGate`) before its body is read.
    var uploadRoom: String?
    /// Waiting for the `UploadGate`'s verdict: nothing more is read meanwhile.
    var checking = false
    /// Whether `fd` is in the readiness set.
    var watched = false

    init(fd: Int32, id: UInt64, peer: PeerAddress?, limits: RequestLimits) {
        self.fd = fd
        self.id = id
        self.peer = peer
        scanner = HeadScanner(limits: limits)
    }

    var ticket: ArrivalTracker.Ticket { ArrivalTracker.Ticket(fd: fd, id: id) }
}
