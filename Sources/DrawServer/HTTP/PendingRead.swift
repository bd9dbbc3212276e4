import DrawTransport

/// An HTTP request waiting for its answer (`HTTPAnswers`): a room being loaded, a change or a
/// read on the storage thread. Service thread only.
///
/// The exchange is held weakly: lws' session slot owns it, and releases it when the connection
/// closes (or the next keep-alive request replaces it). An answer that finds it gone is dropped,
/// and a live exchange means its connection is still valid.
struct PendingRead {
    let connection: Connection
    weak var exchange: HTTPExchange?
}
