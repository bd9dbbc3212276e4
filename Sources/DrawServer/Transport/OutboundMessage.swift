import CLwsShim

/// One serialised server message, shared by every client it goes to.
///
/// The JSON is copied once into a buffer that starts with `LWS_PRE` bytes of headroom, because
/// `lws_write` writes the WebSocket frame header into the bytes just before the payload. The
/// payload itself is never modified after `init`; the headroom is scratch space that lws
/// rewrites on every send. Sharing it between clients is safe because (a) every write happens
/// on the service thread, one at a time, and (b) a server frame header depends only on the
/// payload length and opcode (servers do not mask, and no extension is negotiated), so every
/// client's header is byte-for-byte the same. If lws cannot send everything at once it copies
/// the rest into its own per-connection buffer, so nothing keeps pointing into ours.
final class OutboundMessage {
    private let storage: UnsafeMutablePointer<UInt8>
    /// Payload length in bytes.
    let count: Int

    init(_ bytes: [UInt8]) {
        count = bytes.count
        storage = .allocate(capacity: Lws.pre + bytes.count)
        bytes.withUnsafeBufferPointer { src in
            (storage + Lws.pre).initialize(from: src.baseAddress!, count: bytes.count)
        }
    }

    /// Sends the message on `wsi`: exactly one `lws_write`. Returns false when the connection
    /// failed and should be closed.
    func write(to wsi: OpaquePointer) -> Bool {
        ldlws_write_text(wsi, storage + Lws.pre, count) == 0
    }

    /// The payload bytes (tests, logs).
    var bytes: [UInt8] { Array(UnsafeBufferPointer(start: storage + Lws.pre, count: count)) }

    deinit { storage.deallocate() }
}
