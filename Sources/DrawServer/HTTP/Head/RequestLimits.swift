/// How large a request the front door reads before it hands the connection to lws
/// (docs/PROTOCOL.md §5.4). Requests past a limit are answered (414, 431, 413), never dropped.
struct RequestLimits: Equatable, Sendable {
    /// Longest request target (path and query); 414 beyond. `Connection.uri` reads paths this long.
    var maxTargetBytes = 2048
    /// Most query parameters (`&`- or `;`-separated); 414 beyond. lws keeps each one in a slot of
    /// a fixed table (95 slots shared with the headers) and hangs up without a word when it
    /// runs out, so the front door must stop well short of it.
    var maxQueryParameters = 32
    /// Largest head: request line and header section with every line end; 431 beyond.
    var maxHeadBytes = 8192
    /// Most header field lines; 431 beyond (the same lws table as the query parameters).
    var maxHeaderFields = 50
    /// Largest request body; 413 beyond. The front door reads the whole body before lws sees
    /// the request, so lws never holds a header table while a client trickles a body in.
    var maxBodyBytes = 16 * 1024
    /// Largest body of an entrant list upload (`PUT /api/rooms/ROOM/entrants`), the one route whose
    /// body may be larger than `maxBodyBytes` (`HTTPRoute.maxBodyBytes`); 413 beyond.
    var maxUploadBytes = 16 * 1024

    /// The body limit of a request to `path` with `method`.
    func maxBodyBytes(method: String, path: String?) -> Int {
        HTTPRoute.maxBodyBytes(method: method, path: path, standard: maxBodyBytes, upload: maxUploadBytes)
    }

    /// Bytes of one lws header table that hold any head within these limits. lws stores each
    /// header it does not know as an 8-byte record plus name and value, so a head of many
    /// tiny unknown headers takes more room in the table than on the wire.
    var lwsHeaderTableBytes: Int { maxHeadBytes + maxHeaderFields * 10 + 256 }
}
