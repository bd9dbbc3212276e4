import CLwsShim

extension Lws {
    /// The numeric address of the client at the other end of `wsi` ("203.0.113.7",
    /// "2001:db8::1"), or `nil` when the socket cannot say.
    ///
    /// The one place the server learns a client's address: per-address limits take the string
    /// from here and never care how it was obtained (a front door that accepts sockets itself
    /// would answer the same question from its own `accept`).
    static func peerAddress(_ wsi: OpaquePointer) -> String? {
        // INET6_ADDRSTRLEN is 46.
        var buf = [CChar](repeating: 0, count: 64)
        let n = buf.withUnsafeMutableBufferPointer { ldlws_peer_address(wsi, $0.baseAddress!, Int32($0.count)) }
        guard n > 0 else { return nil }
        return buf.withUnsafeBufferPointer { p in
            String(decoding: UnsafeRawBufferPointer(start: p.baseAddress, count: Int(n)), as: UTF8.self)
        }
    }
}
