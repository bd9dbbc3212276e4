import DrawCore
import Foundation

/// Parses drand's JSON answers. Strict on what a draw depends on (numbers in range, hex of the
/// right length), lenient on fields it does not use, which drand adds over time.
public enum DrandJSON {
    private struct Info: Decodable {
        let public_key: String
        let period: Int64
        let genesis_time: Int64
        let hash: String
    }

    private struct Round: Decodable {
        let round: UInt64
        let randomness: String
        let signature: String
    }

    /// `/{chain}/info`: `{"public_key","period","genesis_time","hash",…}`.
    public static func chain(_ body: Data) throws(BeaconFetchError) -> BeaconChain {
        guard let info = try? JSONDecoder().decode(Info.self, from: body) else {
            throw .malformed("the chain info is not drand's JSON")
        }
        guard let chain = BeaconChain(hash: info.hash, genesisSeconds: info.genesis_time, periodSeconds: info.period,
                                      publicKey: info.public_key) else {
            throw .malformed("the chain info is out of range (hash \(info.hash.prefix(80)), period \(info.period) s, genesis \(info.genesis_time))")
        }
        return chain
    }

    /// `/{chain}/public/{round}`: `{"round","randomness","signature",…}`.
    public static func round(_ body: Data) throws(BeaconFetchError) -> BeaconRound {
        guard let r = try? JSONDecoder().decode(Round.self, from: body) else {
            throw .malformed("the round is not drand's JSON")
        }
        guard let round = BeaconRound(round: r.round, randomnessHex: r.randomness, signatureHex: r.signature) else {
            throw .malformed("round \(r.round) has no 32-byte randomness or no signature")
        }
        return round
    }
}
