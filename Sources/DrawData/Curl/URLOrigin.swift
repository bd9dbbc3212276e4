import CCurl

/// Scheme, host and port of a URL, parsed by libcurl's own URL parser, so that "same origin" is
/// decided exactly as curl will connect (case, default ports, IPv6 brackets, percent-encoding).
struct URLOrigin: Hashable, Sendable, CustomStringConvertible {
    /// Lowercase.
    let scheme: String
    /// Lowercase; IPv6 addresses keep their brackets.
    let host: String
    /// The explicit port, or the scheme's default.
    let port: Int

    /// `nil` when curl cannot parse `url` or it has no host (a `file://` URL, say).
    init?(_ url: String) {
        guard let handle = curl_url() else { return nil }
        defer { curl_url_cleanup(handle) }
        guard curl_url_set(handle, CURLUPART_URL, url, 0) == CURLUE_OK,
              let scheme = Self.part(handle, CURLUPART_SCHEME), let host = Self.part(handle, CURLUPART_HOST),
              !host.isEmpty, let port = Self.part(handle, CURLUPART_PORT, flags: UInt32(CURLU_DEFAULT_PORT)).flatMap(Int.init)
        else { return nil }
        self.scheme = scheme.lowercased()
        self.host = host.lowercased()
        self.port = port
    }

    /// `scheme://host:port`.
    var description: String { "\(scheme)://\(host):\(port)" }

    private static func part(_ handle: OpaquePointer, _ what: CURLUPart, flags: UInt32 = 0) -> String? {
        var out: UnsafeMutablePointer<CChar>?
        guard curl_url_get(handle, what, &out, flags) == CURLUE_OK, let out else { return nil }
        defer { curl_free(out) }
        return String(cString: out)
    }
}
