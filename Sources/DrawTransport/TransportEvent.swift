/// What happened on the transport that the server must act on: a connection came or went, a
/// request or a WebSocket message arrived, a connection may be written to, another thread woke
/// the loop, descriptors the server reads itself are ready. What the server does not act on the
/// transport handles itself. Service thread only.
package enum TransportEvent {
    // MARK: the service loop
    /// The readiness set (`Readiness`) has descriptors ready.
    case readinessReady(Connection)
    /// lws closed the readiness set's descriptor.
    case readinessClosed(Connection)
    /// Another thread posted to the inbox (`ServiceInbox`); lws may say so more than once.
    case wakeUp

    // MARK: every connection
    case created(Connection)
    /// The last callback of a connection.
    case destroyed(Connection, SessionSlot?)

    // MARK: HTTP
    /// A request's headers are complete.
    case httpRequest(Connection, SessionSlot, path: String)
    case httpBody(Connection, SessionSlot?, UnsafeRawBufferPointer)
    case httpBodyComplete(Connection, SessionSlot?)
    case httpWritable(Connection, SessionSlot?)
    case httpClosed(Connection, SessionSlot?)

    // MARK: WebSocket
    /// The last moment to refuse an upgrade with an HTTP status.
    case confirmUpgrade(Connection, upgrade: String)
    case established(Connection, SessionSlot?)
    /// Input lws parsed itself (it no longer should, see `WebSocketInput`).
    case received(Connection, SessionSlot?)
    case writable(Connection, SessionSlot?)
    case closed(Connection, SessionSlot?)
}

/// What the server answers an event with: go on, the upgrade was refused with an answer
/// already written, or drop the connection.
package enum TransportReply {
    /// Go on (0).
    case proceed
    /// The upgrade was refused with a response written here (1).
    case refused
    /// Close the connection (-1).
    case hangUp

    package var code: Int32 {
        switch self {
        case .proceed: 0
        case .refused: 1
        case .hangUp: -1
        }
    }
}

/// Whoever handles the transport's events (the server's `ServiceDispatcher`).
package protocol TransportHandler: AnyObject {
    func handle(_ event: TransportEvent) -> TransportReply
}
