extension CurlHTTPClient {
    /// Limits of one transfer. The defaults suit two small JSON lists fetched before a draw.
    public struct Configuration: Sendable, Hashable {
        /// The seed app's lists are a few hundred bytes; 1 MiB leaves room and still bounds memory.
        public static let defaultMaxResponseBytes = 1 << 20

        /// How long DNS plus the TCP (and TLS) connect may take.
        public var connectTimeout: Duration
        /// How long the whole transfer may take, connect and redirects included.
        public var totalTimeout: Duration
        /// The most body bytes accepted; one more aborts the transfer with `tooLarge`.
        public var maxResponseBytes: Int
        /// The most redirects followed before giving up (`unreachable`).
        public var maxRedirects: Int
        /// Which redirects are followed at all; by default only within the URL's own origin.
        public var redirects: RedirectPolicy
        /// A room's list URLs (issue 15): the extra rules they are fetched under; `nil` for the
        /// operator's own URLs, which may be anything the operator chose (`file://` included).
        public var restriction: SourceRestriction?

        /// - Parameters:
        ///   - connectTimeout: rounded up to whole milliseconds, at least 1 ms.
        ///   - totalTimeout: rounded up to whole milliseconds, at least 1 ms.
        ///   - maxResponseBytes: negative values count as 0 (only an empty body is accepted).
        ///   - maxRedirects: negative values count as 0 (redirects are refused).
        ///   - redirects: which redirects may be followed (within `maxRedirects`).
        public init(connectTimeout: Duration = .seconds(5), totalTimeout: Duration = .seconds(15),
                    maxResponseBytes: Int = Configuration.defaultMaxResponseBytes, maxRedirects: Int = 3,
                    redirects: RedirectPolicy = .sameOrigin, restriction: SourceRestriction? = nil) {
            self.connectTimeout = connectTimeout
            self.totalTimeout = totalTimeout
            self.maxResponseBytes = max(0, maxResponseBytes)
            self.maxRedirects = max(0, maxRedirects)
            self.redirects = redirects
            self.restriction = restriction
        }

        /// `connectTimeout` as curl takes it. Never 0, because curl reads 0 as "no timeout".
        var connectTimeoutMs: Int { Self.milliseconds(connectTimeout) }
        /// `totalTimeout` as curl takes it. Never 0, because curl reads 0 as "no timeout".
        var totalTimeoutMs: Int { Self.milliseconds(totalTimeout) }

        private static func milliseconds(_ d: Duration) -> Int {
            let (seconds, attoseconds) = d.components
            guard seconds >= 0 else { return 1 }
            let capped = min(seconds, Int64(Int32.max))   // curl keeps ms in a long; ~68 years is plenty
            let ms = capped * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
            return max(1, Int(ms))
        }
    }
}
