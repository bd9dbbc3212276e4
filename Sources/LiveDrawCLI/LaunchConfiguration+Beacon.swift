import DrawCore
import DrawData

/// The beacon options, checked: an endpoint, the chain it must serve, and the timing rules. The
/// chain's `info` is fetched at start (`LiveDrawApp`), since only the beacon knows its genesis
/// and period.
public struct BeaconOption: Sendable, Hashable {
    /// http or https, without a trailing slash.
    public let url: String
    /// 64 lowercase hex characters.
    public let chainHash: String
    public let marginMs: Int
    public let waitMs: Int
}

extension LaunchConfiguration {
    /// Both options or neither; an http(s) URL and a 64-hex chain hash; timings in their limits.
    static func beacon(_ o: LaunchOptions) throws(ConfigurationError) -> BeaconOption? {
        let url = o.beaconURL.flatMap { $0.isEmpty ? nil : $0 }
        let chain = o.beaconChain.flatMap { $0.isEmpty ? nil : $0 }
        let margin = try check(o.beaconMarginMs, in: BeaconSettings.marginLimit, "beacon-margin-ms")
        let wait = try check(o.beaconWaitMs, in: BeaconSettings.waitLimit, "beacon-wait-ms")
        switch (url, chain) {
        case (nil, nil):
            return nil
        case (_?, nil):
            throw ConfigurationError("--beacon-url needs --beacon-chain, the hash of the drand chain to use "
                + "(quicknet: 52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971)")
        case (nil, _?):
            throw ConfigurationError("--beacon-chain needs --beacon-url, the drand endpoint (e.g. https://api.drand.sh)")
        case (let url?, let chain?):
            let lower = url.lowercased()
            guard lower.hasPrefix("http://") || lower.hasPrefix("https://"), !url.contains(where: \.isWhitespace) else {
                throw ConfigurationError("--beacon-url must be an http or https URL, not \(url)")
            }
            guard BeaconChain.isValidHash(chain) else {
                throw ConfigurationError("--beacon-chain must be a chain hash of 64 hex characters, not \(chain)")
            }
            var base = url
            while base.hasSuffix("/") { base.removeLast() }
            return BeaconOption(url: base, chainHash: chain.lowercased(), marginMs: margin, waitMs: wait)
        }
    }
}
