/// Redis' `maxmemory-policy` as a node reads it at start in cluster mode (issue 44,
/// docs/SCALING.md "Deployment"). Only `noeviction` is safe: under any evicting policy Redis may
/// drop a lease (it has a TTL), a room's fence or a draw's escrow when memory runs short, and
/// then two nodes could run one room's draw, or a running draw's seed be lost.
public enum RedisEvictionPolicy: Sendable, Hashable {
    /// `noeviction`: a full Redis refuses writes (`-OOM`), which the cluster answers plainly.
    case noEviction
    /// Any other policy, as Redis named it (printable ASCII, at most 64 characters).
    case evicting(String)
    /// Neither `CONFIG GET` nor `INFO memory` told it: why (Redis away, both denied).
    case unknown(String)

    /// Asks Redis: `CONFIG GET maxmemory-policy`, or where CONFIG is renamed or denied (managed
    /// Redis often does) `INFO memory`'s `maxmemory_policy` field.
    public static func read(from connection: RedisConnection) -> RedisEvictionPolicy {
        let config: RedisReply
        do { config = try connection.command("CONFIG", "GET", "maxmemory-policy") } catch { return .unknown(error.description) }
        if let policy = configValue(config) { return named(policy) }
        let info: RedisReply
        do { info = try connection.command("INFO", "memory") } catch { return .unknown(error.description) }
        if let text = info.text, let policy = infoField(text) { return named(policy) }
        return .unknown("CONFIG GET maxmemory-policy answered \(summary(config)), INFO memory \(summary(info))")
    }

    /// The policy `CONFIG GET maxmemory-policy` answered: `[name, value]`, else `nil`.
    static func configValue(_ reply: RedisReply) -> String? {
        guard case .array(let items) = reply, items.count == 2, items[0].text == "maxmemory-policy" else { return nil }
        return items[1].text
    }

    /// `maxmemory_policy`'s value in `INFO memory`'s text (`field:value` lines), else `nil`.
    static func infoField(_ text: String) -> String? {
        for line in text.split(whereSeparator: \.isNewline) where line.hasPrefix("maxmemory_policy:") {
            return String(line.dropFirst("maxmemory_policy:".count))
        }
        return nil
    }

    /// The case for a policy's name. Whatever Redis sent is shown only as printable ASCII and
    /// cut short: it goes into an operator's terminal line.
    static func named(_ policy: String) -> RedisEvictionPolicy {
        if policy == "noeviction" { return .noEviction }
        let printable = policy.unicodeScalars.filter { $0.isASCII && $0.value > 0x20 && $0.value < 0x7F }
        return .evicting(String(String.UnicodeScalarView(printable.prefix(64))))
    }

    /// An error reply in a few words (a renamed CONFIG answers `ERR unknown command`).
    private static func summary(_ reply: RedisReply) -> String {
        if case .error(let message) = reply { return "\"\(message.prefix(80))\"" }
        return "something else"
    }

    /// Why a node must not start on this policy (one line, `address` as `host:port`), or `nil`.
    public func refusal(address: String) -> String? {
        guard case .evicting(let policy) = self else { return nil }
        return "Redis at \(address) has maxmemory-policy \(policy): the fence and the leases cannot survive eviction; set maxmemory-policy noeviction"
    }
}
