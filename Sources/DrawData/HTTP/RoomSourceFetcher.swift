import DrawCore

/// The server's `RoomURLSources`: a room's two list URLs, checked against the operator's
/// `SourceRestriction` and fetched with libcurl under it (`CurlHTTPClient`, whose transfers then
/// check the host on every redirect and the address of every connection).
public struct RoomSourceFetcher: RoomURLSources {
    /// Longest URL a host may give (a list URL; a longer one is refused as invalid).
    public static let maxURLBytes = 2048

    public let restriction: SourceRestriction
    private let client: CurlHTTPClient

    /// - Parameter fetch: the operator's fetch limits (timeouts, size cap, redirect policy); the
    ///   restriction is added to them.
    public init(restriction: SourceRestriction, fetch: CurlHTTPClient.Configuration) {
        self.restriction = restriction
        var configuration = fetch
        configuration.restriction = restriction
        client = CurlHTTPClient(configuration: configuration)
    }

    public func refusal(of sources: DrawSources) -> RoomSourceRefusal? {
        guard !restriction.allowedHosts.isEmpty else {
            return RoomSourceRefusal(.off, "This server takes no list URLs for rooms: its operator allows no source hosts (--allowed-source-hosts).")
        }
        for (member, url) in [("usersUrl", sources.usersURL), ("lotteryUrl", sources.lotteryURL)] {
            if let refusal = refusal(of: url, member: member) { return refusal }
        }
        return nil
    }

    public func load(_ sources: DrawSources) async throws(DrawError) -> MergeResult {
        for url in [sources.usersURL, sources.lotteryURL] {
            if let refusal = refusal(of: url, member: "") {
                throw .source(.refused(source: URLPolicy.redacted(url), reason: refusal.message))
            }
        }
        let useCase = LoadPlayers(users: HTTPUserRepository(url: sources.usersURL, client: client),
                                  lottery: HTTPLotteryRepository(url: sources.lotteryURL, client: client))
        return try await useCase.execute()
    }

    private func refusal(of url: String, member: String) -> RoomSourceRefusal? {
        let name = member.isEmpty ? "the URL" : member
        guard url.utf8.count <= Self.maxURLBytes, URLPolicy.isFetchable(url), let origin = URLOrigin(url),
              ["http", "https"].contains(origin.scheme) else {
            return RoomSourceRefusal(.invalidURL, "\(name) must be an http:// or https:// URL of at most \(Self.maxURLBytes) bytes (file:// and other schemes are never fetched for a room).")
        }
        // Credentials would be kept with the room and shown in every draw's record.
        guard URLPolicy.redacted(url) == url else {
            return RoomSourceRefusal(.invalidURL, "\(name) must not carry a user name or password.")
        }
        guard restriction.allows(host: origin.host) else {
            return RoomSourceRefusal(.hostNotAllowed, "\(name): \(origin.host) is not a host this server fetches room lists from (the operator's --allowed-source-hosts).")
        }
        if let address = IPAddress(origin.host), let range = restriction.refusedRange(of: address) {
            return RoomSourceRefusal(.internalAddress, "\(name): \(address) is a \(range.rawValue) address; this server fetches room lists only from public addresses (the operator's --allow-private-sources).")
        }
        return nil
    }
}
