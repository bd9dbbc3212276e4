import DrawCore
import Foundation

/// Fetches a whole response body over http, https or file, with libcurl, for the repositories.
///
/// What it guarantees (each one has a test in `CurlHTTPClientTests`):
/// - only `http://`, `https://` and `file://` are fetched; anything else is `badURL` before any
///   network access, and redirects may only go to http or https (never to `file://`);
/// - https verifies the certificate and the host name; there is no switch to turn that off;
/// - the body is capped while it streams in (`Configuration.maxResponseBytes`), so a hostile or
///   broken source cannot make the server buffer more than the cap;
/// - every failure is a `DataSourceError` with a reason a host can act on.
///
/// Threading rule: `curl_easy_perform` blocks its thread for the whole transfer, so it never runs
/// on Swift's cooperative pool (two threads on this two-core box: blocking them would stall every
/// task in the server). `get(_:)` suspends its caller and hands the transfer to
/// `CurlWorkerPool`'s few dedicated threads, which resume the caller when curl returns.
public struct CurlHTTPClient: Sendable {
    /// Timeouts, size cap and redirect limit of every transfer this client makes.
    public let configuration: Configuration
    private let pool: CurlWorkerPool

    /// Creates a client. Cheap: the worker threads are shared by all clients and start on first use.
    public init(configuration: Configuration = Configuration()) {
        self.init(configuration: configuration, pool: .shared)
    }

    init(configuration: Configuration, pool: CurlWorkerPool) {
        self.configuration = configuration
        self.pool = pool
    }

    /// Fetches `url` and returns its body.
    ///
    /// An http(s) answer other than 2xx is `badStatus` (redirects are followed first). A `file://`
    /// URL whose file is missing or unreadable is `unreachable` with the reason "file not found
    /// or not readable": a file has no status code, and "nothing usable came back" is exactly
    /// what `unreachable` means.
    public func get(_ url: String) async throws(DataSourceError) -> Data {
        let source = URLPolicy.redacted(url)
        // Checked here as well as by curl's protocol allow-list, so a bad URL never even takes a
        // worker thread, let alone a socket.
        guard URLPolicy.isFetchable(url) else { throw .badURL(source: source) }
        let configuration = self.configuration
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Data, DataSourceError>, Never>) in
            pool.submit {
                // On a CurlWorkerPool thread: blocking here is the point.
                let outcome = CurlTransfer.perform(url: url, configuration: configuration)
                continuation.resume(returning: outcome.result(source: source, configuration: configuration))
            }
        }
        return try result.get()
    }
}
