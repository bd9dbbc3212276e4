import CLwsShim

/// What the server knows of a WebSocket connection's output without asking lws: the socket its
/// messages may be sent on directly (through its TLS session, for wss), and whether lws holds
/// any of its output.
///
/// Why: in a broadcast every viewer's message used to go through `lws_write`, and before it the
/// question "does lws still hold part of an earlier message?" read lws' per-connection struct:
/// one more cache miss per viewer per message (perf of scenario a, Benchmarks/README.md, "Event
/// loop, session 9"). lws only ever holds output the server handed it, so after a message went
/// out whole on the socket the answer is known: no. `ldlws_write_text` then sends the next one
/// without reading lws' state at all.
///
/// Under TLS the same holds with `SSL_write` in place of `send()` (issue 29): `lws_write` and
/// `lws_partial_buffered` were 6% of the server's CPU in a wss broadcast, around the
/// `SSL_write` lws itself makes (Benchmarks/README.md, "Fan-out over TLS").
///
/// Only the transport reads or changes it (`Connection`); a client keeps one beside its
/// `Connection`. Service thread only.
/// `public` with `package` members so that its `@inlinable` calls inline (see `Connection`).
public struct DirectOutput {
    /// The socket whole frames may be sent on; -1: every write goes through lws.
    @usableFromInline var fd: Int32 = -1
    /// The connection's TLS session (OpenSSL's `SSL *`), which encrypts them; nil: plain.
    @usableFromInline var tls: UnsafeMutableRawPointer?
    /// lws holds none of this connection's output, known without asking it: the last write
    /// went out whole on `fd`. False whenever lws wrote, or may hold, anything.
    @usableFromInline var settled = false

    /// Direct sends stop: before lws closes the socket (descriptors are reused), or when the
    /// peer is gone.
    package init() {}

    @usableFromInline init(fd: Int32, tls: UnsafeMutableRawPointer?, settled: Bool) {
        self.fd = fd
        self.tls = tls
        self.settled = settled
    }

    package mutating func stop() {
        fd = -1
        tls = nil  // lws frees the session with the connection
        settled = false
    }
}

extension Connection {
    /// The direct output of a WebSocket connection that has just been upgraded: on its socket,
    /// through its TLS session when it has one.
    package func directOutput() -> DirectOutput {
        DirectOutput(fd: ldlws_direct_socket(wsi), tls: ldlws_tls_session(wsi), settled: false)
    }

    /// Whether an earlier message is still (partly) held by lws; while one is, writes wait for
    /// WRITEABLE. Asks lws only when `output` does not already know.
    @inlinable @inline(__always)
    package func hasBufferedOutput(_ output: DirectOutput) -> Bool {
        !output.settled && ldlws_output_buffered(wsi) != 0
    }

    /// Sends one WebSocket text message: on the socket itself when it can (`DirectOutput`),
    /// with lws' help otherwise; either way as one whole message, what the socket did not take
    /// buffered by lws. False when the connection failed and should be closed.
    @inlinable @inline(__always)
    package func write(_ message: OutboundMessage, output: inout DirectOutput) -> Bool {
        let result = message.write(to: wsi, fd: output.fd, tls: output.tls, settled: output.settled)
        output.settled = result == LDLWS_WRITE_SENT
        return result != LDLWS_WRITE_FAILED
    }

    /// Sends one control frame (at most 125 bytes) through lws, which may then hold part of it.
    /// False when the connection failed and should be closed.
    package func writeControl(_ kind: ControlFrame, _ payload: [UInt8], output: inout DirectOutput) -> Bool {
        output.settled = false
        return payload.withUnsafeBufferPointer { ldlws_write_control(wsi, kind.shim, $0.baseAddress, $0.count) == 0 }
    }
}
