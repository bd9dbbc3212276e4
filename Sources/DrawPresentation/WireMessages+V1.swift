/// Protocol v1 from the v2 messages (`WireVersion`): the same bytes with each draw's entrants
/// list written back in, as `"entrants":[…]` before its `entrantCount`, and a snapshot's
/// `"protocol":2` said as 1. So the server encodes every message once, in v2, and pays for v1
/// only when a v1 client is there to get it; the list's bytes are the ones the entrants endpoint
/// serves (`EntrantsEncoding.canonicalJSON`, the same objects v1 always carried).
extension WireMessages {
    /// `v2` as a v1 client gets it; `nil` when it is the same in both versions (rounds, presence,
    /// errors…). `entrants` gives a draw's list by id (`nil`: not known here, and the message goes
    /// without it rather than not at all).
    ///
    /// Where a list goes is found in the bytes: every `entrantCount` these functions write follows
    /// the draw's `"drawId":"<32 hex>"`. The pattern cannot occur inside a string value: a quote
    /// in a string is always escaped, and the pattern's quotes stand unescaped.
    public static func v1(_ v2: [UInt8], entrants: (String) -> [UInt8]?) -> [UInt8]? {
        var out: [UInt8]?
        var copied = 0 // bytes of v2 already in `out`
        var i = 0
        let marker = Self.countMarker, prefix = Self.drawIdMarker
        let last = v2.count - marker.count
        while i <= last {
            guard v2[i] == marker[0], v2[i..<(i + marker.count)].elementsEqual(marker) else { i += 1; continue }
            // `"drawId":"` + 32 hex digits + `"` end right before the comma.
            let idEnd = i - 1, idStart = idEnd - 32, prefixStart = idStart - prefix.count
            guard prefixStart >= 0, v2[idEnd] == UInt8(ascii: "\""),
                  v2[prefixStart..<idStart].elementsEqual(prefix),
                  let list = entrants(String(decoding: v2[idStart..<idEnd], as: UTF8.self)) else {
                i += marker.count
                continue
            }
            var bytes = out ?? []
            bytes.reserveCapacity(v2.count + list.count + 16)
            bytes += v2[copied...i] // through the comma
            bytes += Self.entrantsKey
            bytes += list
            bytes.append(UInt8(ascii: ","))
            copied = i + 1
            out = bytes
            i += marker.count
        }
        if var bytes = out {
            bytes += v2[copied...]
            return Self.saidAsV1(bytes)
        }
        return v2.starts(with: Self.snapshotV2) ? Self.saidAsV1(v2) : nil
    }

    /// A snapshot message says its version first: `{"type":"snapshot","protocol":1,…`.
    private static func saidAsV1(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.starts(with: snapshotV2) else { return bytes }
        var out = bytes
        out[snapshotV2.count - 2] = UInt8(ascii: "1")
        return out
    }

    private static let countMarker = Array(#","entrantCount":"#.utf8)
    private static let drawIdMarker = Array(#""drawId":""#.utf8)
    private static let entrantsKey = Array(#""entrants":"#.utf8)
    private static let snapshotV2 = Array(#"{"type":"snapshot","protocol":2,"#.utf8)
}
