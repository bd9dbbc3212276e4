/// How big an entrant list a host may bring (issue 15): checked on every uploaded list, whatever
/// its shape, before anything is stored, so an oversized list is refused whole.
public struct EntrantListLimits: Sendable, Hashable {
    /// Most entrants after merging (plain text: non-blank lines).
    public let maxEntrants: Int
    /// Longest name (and username), in characters as a reader counts them (grapheme clusters).
    public let maxNameCharacters: Int
    /// Longest name (and username) in UTF-8 bytes: bounds what one character may hide (a
    /// grapheme cluster can be arbitrarily long).
    public let maxNameBytes: Int
    /// Largest body, in bytes, of one uploaded document (a plain-text list, or each JSON list).
    public let maxBodyBytes: Int

    /// - Precondition: every limit is at least 1 (the options are checked before this).
    public init(maxEntrants: Int, maxNameCharacters: Int, maxNameBytes: Int, maxBodyBytes: Int) {
        precondition(maxEntrants >= 1 && maxNameCharacters >= 1 && maxNameBytes >= 1 && maxBodyBytes >= 1,
                     "every entrant list limit must be at least 1")
        self.maxEntrants = maxEntrants
        self.maxNameCharacters = maxNameCharacters
        self.maxNameBytes = maxNameBytes
        self.maxBodyBytes = maxBodyBytes
    }

    /// The defaults: 100,000 entrants (issue 15), names up to 100 characters and 400 bytes, and
    /// 16 MiB a document (100,000 users of the JSON shape take about 10 MB).
    public static let standard = EntrantListLimits(maxEntrants: 100_000, maxNameCharacters: 100,
                                                   maxNameBytes: 400, maxBodyBytes: 16 << 20)
}
