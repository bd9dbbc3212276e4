import CLwsShim

/// One serialised server message, shared by every client it goes to.
///
/// The JSON is copied once into a buffer that starts with `LWS_PRE` bytes of headroom, because
/// the frame header is written into the bytes just before the payload (by the shim, or by
/// `lws_write`). The payload itself is never modified after `init`; the
/// headroom is scratch space rewritten on every send. Sharing it between clients is safe
/// because (a) every write happens on the service thread, one at a time, and (b) a server frame
/// header depends only on the payload length and opcode (servers do not mask, and no extension
/// is negotiated), so every client's header is byte-for-byte the same. Whatever a socket does
/// not take at once is copied into lws' own per-connection buffer, so nothing keeps pointing
/// into ours.
///
/// `public` with `package` members so that its `@inlinable` calls inline (see `Connection`).
public final class OutboundMessage {
    private let storage: UnsafeMutablePointer<UInt8>
    /// Where the payload starts, `LWS_PRE` bytes into `storage`: kept, so that a send (inlined
    /// into the server's fan-out loop) reads a field instead of asking for `LWS_PRE` again.
    @usableFromInline let payload: UnsafeMutablePointer<UInt8>
    /// Payload length in bytes.
    @usableFromInline package let count: Int

    package init(_ bytes: [UInt8]) {
        count = bytes.count
        storage = .allocate(capacity: Lws.pre + bytes.count)
        payload = storage + Lws.pre
        bytes.withUnsafeBufferPointer { src in
            payload.initialize(from: src.baseAddress!, count: bytes.count)
        }
    }

    /// Sends the message on `wsi` (`ldlws_write_text`): on `fd` itself (through the TLS session
    /// `tls`, if any) when lws holds nothing (`settled` when that is known), else through
    /// `lws_write`.
    @inlinable @inline(__always)
    func write(to wsi: OpaquePointer, fd: Int32, tls: UnsafeMutableRawPointer?, settled: Bool) -> ldlws_write_result {
        ldlws_write_text(wsi, fd, tls, settled ? 1 : 0, Lws.sendChunkBytes, payload, count)
    }

    /// The payload bytes (tests, logs).
    package var bytes: [UInt8] { Array(UnsafeBufferPointer(start: payload, count: count)) }

    deinit { storage.deallocate() }
}
