import DrawCore
import Foundation

/// drand's HTTP API over the libcurl client (`CurlHTTPClient`): a chain's `info` at start and its
/// rounds during draws (`docs/FAIRNESS.md` §9). `GET {base}/{chain}/info` and
/// `GET {base}/{chain}/public/{round}`, both small JSON objects.
public struct DrandClient: BeaconSource {
    /// The endpoint without a trailing slash, e.g. `https://api.drand.sh`.
    public let baseURL: String
    /// The configured chain hash (64 lowercase hex characters).
    public let chainHash: String
    private let client: CurlHTTPClient

    /// Beacon answers are a few hundred bytes: 64 KiB bounds a relay gone wrong.
    public static let maxResponseBytes = 64 << 10

    /// - Parameters:
    ///   - baseURL: as `--beacon-url`'s check leaves it (`BeaconOption.url`, the one place it is
    ///     normalised): without a trailing slash.
    ///   - chainHash: lowercase, as `BeaconOption.chainHash`.
    ///   - configuration: timeouts of every fetch; its size cap is lowered to `maxResponseBytes`.
    public init(baseURL: String, chainHash: String, configuration: CurlHTTPClient.Configuration) {
        self.baseURL = baseURL
        self.chainHash = chainHash
        var c = configuration
        c.maxResponseBytes = min(c.maxResponseBytes, Self.maxResponseBytes)
        client = CurlHTTPClient(configuration: c)
    }

    /// The chain's `info`, checked against the configured hash: a beacon serving another chain
    /// (or a hash typed wrong) must stop the start, not draw from the wrong randomness.
    public func info() async throws(BeaconFetchError) -> BeaconChain {
        let body = try await get("\(baseURL)/\(chainHash)/info")
        let chain = try DrandJSON.chain(body)
        guard chain.hash == chainHash else {
            throw .malformed("the beacon's chain is \(chain.hash), not the configured \(chainHash)")
        }
        return chain
    }

    public func round(_ round: UInt64) async -> Result<BeaconRound, BeaconFetchError> {
        do throws(BeaconFetchError) {
            return .success(try DrandJSON.round(try await get("\(baseURL)/\(chainHash)/public/\(round)")))
        } catch {
            return .failure(error)
        }
    }

    private func get(_ url: String) async throws(BeaconFetchError) -> Data {
        do throws(DataSourceError) {
            return try await client.get(url)
        } catch {
            throw .unreachable(error.message)
        }
    }
}
