import DrawCore
import DrawData
import Foundation
import LiveDrawCLI
import Logging

/// The beacon at start (`--beacon-url`): the chain's `info`, fetched once through the libcurl
/// client and checked against `--beacon-chain`, gives the genesis and period every draw's round
/// is computed from. Before the server exists: a beacon that is down, serves another chain or
/// answers garbage stops the start with one line, rather than failing every draw later.
enum BeaconSetup {
    static func resolve(_ option: BeaconOption, fetch: CurlHTTPClient.Configuration,
                        logger: Logger) -> Result<(settings: BeaconSettings, source: any BeaconSource), BeaconSetupError> {
        let client = DrandClient(baseURL: option.url, chainHash: option.chainHash, configuration: fetch)
        let box = InfoBox()
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            do throws(BeaconFetchError) { box.result = .success(try await client.info()) } catch { box.result = .failure(error) }
            done.signal()
        }
        done.wait()
        switch box.result {
        case .success(let chain)?:
            guard let settings = BeaconSettings(chain: chain, marginMs: option.marginMs, waitMs: option.waitMs) else {
                return .failure(BeaconSetupError(message: "the beacon's settings are out of range"))
            }
            logger.notice("draws commit to a beacon round", metadata: [
                "beacon": "\(option.url)", "chain": "\(chain.hash)", "period": "\(chain.periodSeconds)s",
                "genesis": "\(chain.genesisSeconds)",
            ])
            return .success((settings, client))
        case .failure(let error)?:
            return .failure(BeaconSetupError(message: "--beacon-url \(option.url): \(error.message)"))
        case nil:
            return .failure(BeaconSetupError(message: "--beacon-url \(option.url): no answer"))
        }
    }

    /// Carries the fetch's result from its task to the waiting start thread (the semaphore orders them).
    private final class InfoBox: @unchecked Sendable {
        var result: Result<BeaconChain, BeaconFetchError>?
    }
}

/// Why the beacon stopped the start: one line.
struct BeaconSetupError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
