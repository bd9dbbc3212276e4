import DrawCore
@testable import DrawData
import Foundation
import Testing

/// drand's answers are a peer's numbers (`docs/FAIRNESS.md` §9): every one past its limit, or
/// outside its type, is `malformed`, never a trap and never a chain or round a draw could use.
struct DrandJSONTests {
    static let hash = String(repeating: "ab", count: 32)
    static let signature = [UInt8](repeating: 7, count: 48)
    static let randomnessHex = SHA256Hex.of(signature)

    static func info(period: String = "3", genesis: String = "1692803367", hash: String = hash) -> Data {
        Data(#"{"public_key":"aa","period":\#(period),"genesis_time":\#(genesis),"hash":"\#(hash)","extra":[1]}"#.utf8)
    }

    static func round(_ round: String, randomness: String = randomnessHex,
                      signature: String = Hex.encode(signature)) -> Data {
        Data(#"{"round":\#(round),"randomness":"\#(randomness)","signature":"\#(signature)"}"#.utf8)
    }

    static func isMalformed<T>(_ body: () throws(BeaconFetchError) -> T) -> Bool {
        do throws(BeaconFetchError) { _ = try body(); return false } catch {
            if case .malformed = error { return true } else { return false }
        }
    }

    @Test func aChainInfoInRangeIsTheChain() throws {
        let chain = try DrandJSON.chain(Self.info())
        #expect(chain.hash == Self.hash && chain.periodSeconds == 3 && chain.genesisSeconds == 1_692_803_367)
        #expect(try DrandJSON.chain(Self.info(period: "3600")).periodSeconds == 3_600, "the longest period")
    }

    @Test(arguments: [
        ("0", "1"), ("-3", "1"), ("3601", "1"), ("9223372036854775807", "1"), ("9223372036854775808", "1"),
        ("1e400", "1"), ("3.5", "1"), ("\"3\"", "1"),
        ("3", "-1"), ("3", "-9223372036854775808"), ("3", "9223372036854775808"), ("3", "null"),
    ])
    func aChainInfoPastItsLimitsIsMalformed(period: String, genesis: String) {
        #expect(Self.isMalformed { () throws(BeaconFetchError) in try DrandJSON.chain(Self.info(period: period, genesis: genesis)) })
    }

    @Test func aChainInfoWithABadHashIsMalformed() {
        #expect(Self.isMalformed { () throws(BeaconFetchError) in try DrandJSON.chain(Self.info(hash: "ab")) })
        #expect(Self.isMalformed { () throws(BeaconFetchError) in try DrandJSON.chain(Data("not json".utf8)) })
    }

    @Test func aRoundInRangeIsTheRound() throws {
        let r = try DrandJSON.round(Self.round("18446744073709551615"))
        #expect(r.round == UInt64.max && r.signature == Self.signature && r.isConsistent)
    }

    @Test(arguments: ["0", "-1", "18446744073709551616", "1e30", "1.5", "\"5\""])
    func aRoundNumberPastItsLimitsIsMalformed(round: String) {
        #expect(Self.isMalformed { () throws(BeaconFetchError) in try DrandJSON.round(Self.round(round)) })
    }

    @Test func aRoundWithoutItsBytesIsMalformed() {
        let tooLong = String(repeating: "00", count: BeaconRound.maxSignatureBytes + 1)
        #expect(Self.isMalformed { () throws(BeaconFetchError) in try DrandJSON.round(Self.round("5", randomness: "00")) })
        #expect(Self.isMalformed { () throws(BeaconFetchError) in try DrandJSON.round(Self.round("5", signature: "")) })
        #expect(Self.isMalformed { () throws(BeaconFetchError) in try DrandJSON.round(Self.round("5", signature: tooLong)) })
        #expect(Self.isMalformed { () throws(BeaconFetchError) in try DrandJSON.round(Self.round("5", signature: "zz")) })
    }
}
