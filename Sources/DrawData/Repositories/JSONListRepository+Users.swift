import DrawCore

/// The users list (`{"items":[...]}`) behind a URL, as Core's `UserRepository`.
public typealias HTTPUserRepository = JSONListRepository<User>

extension JSONListRepository: UserRepository where Element == User {
    /// - Parameters:
    ///   - url: an `http://`, `https://` or `file://` URL of a users document.
    ///   - client: carries the timeouts and size cap.
    public init(url: String, client: CurlHTTPClient) {
        self.init(url: url, client: client, map: UserListMapper.users(from:source:))
    }

    /// Fetches and maps the users document. Every failure is a `DataSourceError` naming the URL.
    public func fetchUsers() async throws(DataSourceError) -> [User] {
        try await fetchList()
    }
}
