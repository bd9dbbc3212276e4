/// An HTTP request whose answer is being read on the storage thread. Service thread only.
///
/// The exchange is held weakly: lws' session slot owns it, and releases it when the connection
/// closes (or the next keep-alive request replaces it). An answer that finds it gone is dropped,
/// and a live exchange means its `wsi` is still valid.
struct PendingRead {
    let wsi: OpaquePointer
    weak var exchange: HTTPExchange?
}
