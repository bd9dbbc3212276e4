/// One accepted connection whose request the front door is still reading. Service thread only.
final class PendingRequest {
    let fd: Int32
    /// Tells this connection apart from a later one that gets the same descriptor number.
    let id: UInt64
    let peer: PeerAddress?
    /// Everything read so far.
    var buffer: [UInt8] = []
    var scanner: HeadScanner
    /// Set once the head is complete and acceptable.
    var head: RequestHead?
    /// Where the head ends in `buffer`, and how many bytes of `buffer` make the whole request.
    var headEnd = 0
    var needed = Int.max
    /// Its body may pass the API's usual limit (an entrant list): counted against
    /// `FrontDoor.maxUploadsInFlight`.
    var isUpload = false
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

/// A connection the front door answered itself and is closing gracefully: its answer is sent
/// and its sending side shut, and what the client still sends is read and dropped until it
/// closes too (or the time or byte budget runs out). Closing at once with unread input would
/// make the kernel answer with a reset, which can destroy the answer before the client reads it.
struct LingeringClose {
    let id: UInt64
    let until: UInt64
    var budget: Int
}
