/// Where a server gets beacon rounds (`--beacon-url`): drand's HTTP API in production
/// (`DrawData.DrandClient`). Called off the service thread.
public protocol BeaconSource: Sendable {
    /// Round `round` of the configured chain, as the beacon answered it. The caller checks it
    /// (`DrawBeacon.resolved(with:)`): the source only parses.
    func round(_ round: UInt64) async -> Result<BeaconRound, BeaconFetchError>
}
