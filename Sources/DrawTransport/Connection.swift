import CLwsShim

/// One connection the transport holds (HTTP or WebSocket), as the server sees it: a handle with
/// the operations it needs (write, ask to be told when writable, read input, answer a request),
/// so the server never holds lws' `wsi` itself or calls the shim.
///
/// Valid from lws' WSI_CREATE to its WSI_DESTROY; an owner that keeps one longer (a request
/// waiting for the storage thread) must know by other means that the connection is still there.
/// Service thread only, like every lws call (threading rule 1 on `LiveDrawServer`).
/// The type is `public` and its members `package` on purpose: the compiler serializes an
/// `@inlinable` body for other modules only on a public type (without package-wide
/// cross-module optimisation), and the fan-out loop's calls must inline as before the move.
/// Nothing of it can be used outside this package.
public struct Connection: Hashable {
    /// lws' connection; `package` so tests can make a handle that is never used for I/O.
    @usableFromInline package let wsi: OpaquePointer

    package init(wsi: OpaquePointer) { self.wsi = wsi }

    // MARK: writing

    /// Asks lws for a WRITEABLE event on this connection.
    @inlinable @inline(__always)
    package func requestWritable() { ldlws_request_writable(wsi) }

    /// The control frames the server sends itself.
    package enum ControlFrame {
        case ping
        case pong
        case close

        var shim: ldlws_control {
            switch self {
            case .ping: LDLWS_CONTROL_PING
            case .pong: LDLWS_CONTROL_PONG
            case .close: LDLWS_CONTROL_CLOSE
            }
        }
    }

    // MARK: lifetime

    /// Drops the connection on lws' next turn, without a close frame.
    package func kill() { ldlws_kill(wsi) }

    // MARK: WebSocket input we read ourselves

    /// Stops lws from reading the connection; returns the socket to read it from, or -1.
    package func takeOverInput() -> Int32 { ldlws_ws_take_over_input(wsi) }

    /// Reads input into `buffer` (through the TLS session for wss). Returns the count read,
    /// 0 at end of input, -1 when nothing is there now, -2 on error; `more` tells whether TLS
    /// holds decrypted bytes the socket no longer signals.
    package func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, more: inout Bool) -> Int {
        var pending: Int32 = 0
        let n = ldlws_ws_read(wsi, fd, buffer.baseAddress, buffer.count, &pending)
        more = pending != 0
        return n
    }
}
