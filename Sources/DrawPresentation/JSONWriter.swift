import DrawCore

/// A minimal append-only JSON builder.
///
/// Why not `JSONEncoder`: wire messages are built once per broadcast and must have a fixed key
/// order (documented in PROTOCOL.md, and relied on by tests that compare bytes); building bytes
/// directly is also several times cheaper than `Codable` on the hot path.
public struct JSONWriter {
    /// The bytes written so far.
    public private(set) var bytes: [UInt8] = []
    private var needsComma: [Bool] = []

    public init(capacity: Int = 256) { bytes.reserveCapacity(capacity) }

    /// Opens an object (as a value, or as the top level).
    public mutating func beginObject() { valuePrefix(); bytes.append(UInt8(ascii: "{")); needsComma.append(false) }
    /// Closes the innermost object.
    public mutating func endObject() { bytes.append(UInt8(ascii: "}")); needsComma.removeLast() }
    /// Opens an array value.
    public mutating func beginArray() { valuePrefix(); bytes.append(UInt8(ascii: "[")); needsComma.append(false) }
    /// Closes the innermost array.
    public mutating func endArray() { bytes.append(UInt8(ascii: "]")); needsComma.removeLast() }

    /// Writes `"name":` inside an object; the next call writes its value.
    public mutating func key(_ name: String) {
        valuePrefix()
        JSONText.appendString(name, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        // The value that follows must not get a comma of its own.
        pendingValueAfterKey = true
    }

    private var pendingValueAfterKey = false

    /// Writes a string value.
    public mutating func string(_ s: String) { valuePrefix(); JSONText.appendString(s, to: &bytes) }
    /// Writes an integer value.
    public mutating func int(_ n: Int) { valuePrefix(); bytes += Array(String(n).utf8) }
    /// Writes a boolean value.
    public mutating func bool(_ b: Bool) { valuePrefix(); bytes += Array((b ? "true" : "false").utf8) }
    /// Writes `null`.
    public mutating func null() { valuePrefix(); bytes += Array("null".utf8) }
    /// Writes `json`, one complete JSON value built elsewhere by a writer (never peer input), as is.
    public mutating func raw(_ json: [UInt8]) { valuePrefix(); bytes += json }

    /// Writes epoch milliseconds with exactly three decimals (microsecond resolution), never in
    /// exponent form, so every client parses it the same way.
    public mutating func millis(_ ms: Double) {
        valuePrefix()
        let micros = Int64((ms * 1000).rounded())
        let whole = micros / 1000, frac = abs(micros % 1000)
        var text = String(whole) + "."
        if frac < 100 { text += frac < 10 ? "00" : "0" }
        text += String(frac)
        bytes += Array(text.utf8)
    }

    // Convenience: key + value in one call.
    public mutating func field(_ k: String, _ v: String) { key(k); string(v) }
    public mutating func field(_ k: String, _ v: Int) { key(k); int(v) }
    public mutating func field(_ k: String, _ v: Bool) { key(k); bool(v) }
    public mutating func field(_ k: String, millis v: Double) { key(k); millis(v) }
    // Nullable values (the draw records): `null` when absent, never a missing key, so every
    // record has the same shape whatever its status.
    public mutating func field(_ k: String, orNull v: String?) { key(k); if let v { string(v) } else { null() } }
    public mutating func field(_ k: String, orNull v: Bool?) { key(k); if let v { bool(v) } else { null() } }
    public mutating func field(_ k: String, millisOrNull v: Double?) { key(k); if let v { millis(v) } else { null() } }

    private mutating func valuePrefix() {
        if pendingValueAfterKey { pendingValueAfterKey = false; return }
        guard !needsComma.isEmpty else { return }
        if needsComma[needsComma.count - 1] { bytes.append(UInt8(ascii: ",")) }
        needsComma[needsComma.count - 1] = true
    }
}
