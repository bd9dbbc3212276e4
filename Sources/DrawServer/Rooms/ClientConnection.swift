import DrawCore

/// One WebSocket client. Touched only on the service thread.
///
/// Ownership: lws' per-session slot holds a +1 reference (`Unmanaged.passRetained`) taken in
/// `LWS_CALLBACK_ESTABLISHED` and released in `LWS_CALLBACK_CLOSED` (or, as a fallback, in
/// `LWS_CALLBACK_WSI_DESTROY`); the `wsi` pointer is valid exactly that long.
final class ClientConnection {
    /// Why and how the server is closing this client.
    struct PendingClose {
        let code: Int32
        let reason: String
        /// Send the room messages still owed before closing (shutdown), or not (too slow,
        /// policy).
        let drainRoom: Bool
    }

    let wsi: OpaquePointer
    /// The room this client watches; `nil` for a client of an unknown room (about to be closed).
    var room: Room?
    /// Position in `room.members`, kept for O(1) removal; -1 when not a member.
    var memberIndex = -1
    /// Sequence number of the next room broadcast this client has to send.
    var cursor: UInt64 = 0
    /// Messages for this client only (snapshot, error, pong); sent before room messages.
    var privateQueue = FIFO<OutboundMessage>()
    private(set) var closing: PendingClose?

    var strikes = 0
    var bucket: TokenBucket

    /// The inbound message being reassembled from fragments, bounded by the size limit.
    var inbound: [UInt8] = []
    var inboundBytes = 0
    var inboundBinary = false

    init(wsi: OpaquePointer, bucket: TokenBucket) {
        self.wsi = wsi
        self.bucket = bucket
    }

    /// Messages this client still has to send: private ones plus the room's backlog.
    var backlog: Int {
        privateQueue.count + (room.map { $0.ring.pending(from: cursor) } ?? 0)
    }

    /// Whether WRITEABLE has anything to do.
    var wantsWrite: Bool {
        if !privateQueue.isEmpty || closing != nil { return true }
        guard let room else { return false }
        return cursor < room.ring.nextSeq
    }

    /// Marks the client for closing; the first reason wins.
    func beginClose(_ close: PendingClose) {
        guard closing == nil else { return }
        closing = close
    }

    func resetInbound() {
        inbound.removeAll(keepingCapacity: true)
        inboundBytes = 0
        inboundBinary = false
    }
}
