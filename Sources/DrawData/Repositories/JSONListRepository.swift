import DrawCore
import Foundation

/// Loads one JSON list from a configured URL and maps it to Core entities.
///
/// Users and lottery entries differ only in the mapper, so one type serves both ports; use the
/// `HTTPUserRepository` and `HTTPLotteryRepository` names, whose initialisers pick the mapper.
public struct JSONListRepository<Element: Sendable>: Sendable {
    /// The URL as configured (http, https or file).
    public let url: String
    private let client: CurlHTTPClient
    private let map: @Sendable (Data, String) throws(DataSourceError) -> [Element]

    init(url: String, client: CurlHTTPClient,
         map: @escaping @Sendable (Data, String) throws(DataSourceError) -> [Element]) {
        self.url = url
        self.client = client
        self.map = map
    }

    /// Fetches the body and maps it. Errors name the URL (credentials hidden) as their source.
    func fetchList() async throws(DataSourceError) -> [Element] {
        let body = try await client.get(url)
        return try map(body, URLPolicy.redacted(url))
    }
}
