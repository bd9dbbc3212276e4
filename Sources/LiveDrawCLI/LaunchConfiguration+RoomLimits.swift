import DrawCore
import DrawData
import Foundation

/// The limits of what a host may bring to a room (issue 15): its own entrant list and its settings.
extension LaunchConfiguration.Limits {
    public static let maxEntrants = 1...10_000_000
    /// Up to 1 GiB: the body is held in memory while it is read.
    public static let maxUploadBytes = 1...(1 << 30)
    public static let maxNameChars = 1...10_000
    public static let maxWinners = 1...1000
    /// 0 switches redraws off; 100 is far past any honest giveaway's no-shows.
    public static let maxRedraws = 0...100
}

extension LaunchConfiguration {
    /// `--max-entrants`, `--max-upload-bytes`, `--max-name-chars` (a character takes at most 4
    /// bytes of UTF-8 in the common case; longer grapheme clusters count against the byte limit).
    static func entrantLimits(_ o: LaunchOptions) throws(ConfigurationError) -> EntrantListLimits {
        let chars = try check(o.maxNameChars, in: Limits.maxNameChars, "max-name-chars")
        return EntrantListLimits(maxEntrants: try check(o.maxEntrants, in: Limits.maxEntrants, "max-entrants"),
                                 maxNameCharacters: chars, maxNameBytes: chars * 4,
                                 maxBodyBytes: try check(o.maxUploadBytes, in: Limits.maxUploadBytes, "max-upload-bytes"))
    }

    /// `--max-rounds`, `--max-winners`, `--min-interval-ms`, `--max-interval-ms`.
    static func roomSettingsLimits(_ o: LaunchOptions) throws(ConfigurationError) -> RoomSettingsLimits {
        let minInterval = try check(o.minIntervalMs, in: RoundSchedule.intervalLimit, "min-interval-ms")
        let maxInterval = try check(o.maxIntervalMs, in: RoundSchedule.intervalLimit, "max-interval-ms")
        guard minInterval <= maxInterval else {
            throw ConfigurationError("--min-interval-ms (\(minInterval)) must not be above --max-interval-ms (\(maxInterval))")
        }
        return RoomSettingsLimits(maxRounds: try check(o.maxRounds, in: RoundSchedule.roundLimit, "max-rounds"),
                                  maxWinners: try check(o.maxWinners, in: Limits.maxWinners, "max-winners"),
                                  minIntervalMs: minInterval, maxIntervalMs: maxInterval)
    }
}

extension LaunchConfiguration {
    /// `--allowed-source-hosts` (names or addresses, comma-separated; no scheme, port or path) and
    /// `--allow-private-sources`; `nil` when the list is empty: room list URLs are off.
    static func sourceRestriction(_ o: LaunchOptions) throws(ConfigurationError) -> SourceRestriction? {
        let hosts = o.allowedSourceHosts.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            .filter { !$0.isEmpty }
        let hostCharacters = Set("abcdefghijklmnopqrstuvwxyz0123456789.-:[]_")
        for host in hosts where !host.allSatisfy(hostCharacters.contains) || host.hasPrefix(".") {
            throw ConfigurationError("--allowed-source-hosts: '\(host)' is not a host name or address (no scheme, port or path)")
        }
        guard !hosts.isEmpty else { return nil }
        return SourceRestriction(allowedHosts: hosts, allowPrivateAddresses: o.allowPrivateSources)
    }
}
