import DrawCore

/// The lottery list (`{"lotteryList":[...]}`) behind a URL, as Core's `LotteryRepository`.
public typealias HTTPLotteryRepository = JSONListRepository<LotteryEntry>

extension JSONListRepository: LotteryRepository where Element == LotteryEntry {
    /// - Parameters:
    ///   - url: an `http://`, `https://` or `file://` URL of a lottery document.
    ///   - client: carries the timeouts and size cap.
    public init(url: String, client: CurlHTTPClient) {
        self.init(url: url, client: client, map: LotteryListMapper.entries(from:source:))
    }

    /// Fetches and maps the lottery document, in its order. Every failure is a `DataSourceError` naming the URL.
    public func fetchEntries() async throws(DataSourceError) -> [LotteryEntry] {
        try await fetchList()
    }
}
