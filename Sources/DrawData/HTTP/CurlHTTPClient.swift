import DrawCore
import Foundation

/// Fetches a whole response body over http, https or file, with libcurl, for the repositories.
///
/// What it guarantees (each one has a test in `CurlHTTPClientTests`):
/// - only `http://`, `https://` and `file://` are fetched; anything else is `badURL` before any
///   network access, and redirects may only go to http or https (never to `file://`), and by
///   default only within the configured URL's origin (`Configuration.redirects`);
/// - https verifies the certificate and the host name; there is no switch to turn that off;
/// - the body is capped while it streams in (`Configuration.maxResponseBytes`), so a hostile or
///   broken source cannot make the server buffer more than the cap;
/// - every failure is a `DataSourceError` with a reason a host can act on.
///
/// Threading rule: no curl call ever runs on Swift's cooperative pool (two threads on this two-core
/// box: blocking them would stall every task in the server). `get(_:)` suspends its caller and
/// hands the transfer to `CurlMulti`'s thread, which runs every transfer side by side and resumes
/// the caller when its transfer ends; a slow source delays only its own fetches.
public struct CurlHTTPClient: Sendable {
    /// Timeouts, size cap and redirect rules of every transfer this client makes.
    public let configuration: Configuration
    private let multi: CurlMulti

    /// Creates a client. Cheap: the transfer thread is shared by all clients and starts on first use.
    public init(configuration: Configuration = Configuration()) {
        self.init(configuration: configuration, multi: .shared)
    }

    init(configuration: Configuration, multi: CurlMulti) {
        self.configuration = configuration
        self.multi = multi
    }

    /// Fetches `url` and returns its body.
    ///
    /// An http(s) answer other than 2xx is `badStatus` (redirects the policy allows are followed
    /// first, and the error is then the final target's). A `file://`
    /// URL whose file is missing or unreadable is `unreachable` with the reason "file not found
    /// or not readable": a file has no status code, and "nothing usable came back" is exactly
    /// what `unreachable` means.
    public func get(_ url: String) async throws(DataSourceError) -> Data {
        let source = URLPolicy.redacted(url)
        // Checked here as well as by curl's protocol allow-list, so a bad URL never even reaches
        // the transfer thread, let alone a socket.
        guard URLPolicy.isFetchable(url) else { throw .badURL(source: source) }
        let configuration = self.configuration
        if let restriction = configuration.restriction, let why = URLPolicy.roomSourceRefusal(url, restriction) {
            throw .refused(source: source, reason: why)
        }
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Data, DataSourceError>, Never>) in
            multi.submit(url: url, configuration: configuration) { outcome in
                continuation.resume(returning: outcome.result(source: source, configuration: configuration))
            }
        }
        return try result.get()
    }
}
