import Crypto

/// The lowercase hex SHA-256 of some bytes: the form of every list hash the server stores
/// (`entrantsHash` is this of `EntrantsEncoding.canonicalJSON`).
public enum SHA256Hex {
    /// Hex SHA-256 of `bytes`. For a caller that already holds a list's canonical bytes, so
    /// that they are not encoded a second time just to be hashed (10 MB at 100,000 entrants).
    public static func of(_ bytes: [UInt8]) -> String {
        Hex.encode(SHA256.hash(data: bytes))
    }
}
