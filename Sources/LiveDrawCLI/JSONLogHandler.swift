import Foundation
import Logging

/// A swift-log handler that writes one JSON object per line, for log collectors (Loki,
/// Elasticsearch, Cloud Logging), with `--log-format json`:
///
/// `{"timestamp":"2026-11-23T14:36:47.123Z","level":"info","label":"live-draw","message":"…","metadata":{"port":"8080"}}`
///
/// `timestamp` is UTC, ISO 8601 with milliseconds; `level` is swift-log's level name; metadata
/// values are strings, arrays or objects as logged (string-convertible ones as their string).
/// Nothing here knows about secrets: the server never logs host keys (see `StartupBanner` for
/// the one line that holds one, which JSON mode keeps out of this log).
public struct JSONLogHandler: LogHandler {
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]
    private let label: String
    private let sink: LineSink

    /// Where finished lines go: one `write` per line, under a lock, so lines from several
    /// threads never interleave.
    public final class LineSink: @unchecked Sendable {
        private let lock = NSLock()
        private let write: (String) -> Void

        public init(write: @escaping (String) -> Void) { self.write = write }

        /// Standard output, unbuffered per line (container runtimes collect it).
        public static let standardOutput = LineSink { line in
            FileHandle.standardOutput.write(Data(line.utf8))
        }

        func emit(_ line: String) { lock.withLock { write(line) } }
    }

    public init(label: String, sink: LineSink = .standardOutput) {
        self.label = label
        self.sink = sink
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(level: Logger.Level, message: Logger.Message, metadata explicit: Logger.Metadata?,
                    source: String, file: String, function: String, line: UInt) {
        var merged = metadata
        if let explicit { merged.merge(explicit) { _, new in new } }
        sink.emit(Self.line(timestamp: Date(), level: level, label: label, message: message.description,
                            metadata: merged))
    }

    /// One log line, newline included. Keys in a fixed order, metadata keys sorted, so lines
    /// are stable to read and to test.
    public static func line(timestamp: Date, level: Logger.Level, label: String, message: String,
                            metadata: Logger.Metadata) -> String {
        var out = "{\"timestamp\":"
        appendString(Self.iso8601(timestamp), to: &out)
        out += ",\"level\":"
        appendString(level.rawValue, to: &out)
        out += ",\"label\":"
        appendString(label, to: &out)
        out += ",\"message\":"
        appendString(message, to: &out)
        out += ",\"metadata\":"
        appendValue(.dictionary(metadata), to: &out)
        out += "}\n"
        return out
    }

    private static func appendValue(_ value: Logger.Metadata.Value, to out: inout String) {
        switch value {
        case .string(let s):
            appendString(s, to: &out)
        case .stringConvertible(let c):
            appendString(c.description, to: &out)
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                appendValue(item, to: &out)
            }
            out += "]"
        case .dictionary(let entries):
            out += "{"
            for (i, key) in entries.keys.sorted().enumerated() {
                if i > 0 { out += "," }
                appendString(key, to: &out)
                out += ":"
                appendValue(entries[key]!, to: &out)
            }
            out += "}"
        }
    }

    /// A JSON string: quotes, backslashes and control characters escaped (RFC 8259), the rest
    /// as is (the output is UTF-8). U+2028/2029 are escaped too, for readers that treat them as
    /// line ends: one object per line must hold whatever a message contains.
    static func appendString(_ s: String, to out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{2028}", "\u{2029}":
                out += "\\u" + String(scalar.value, radix: 16)
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }

    /// `2026-11-23T14:36:47.123Z`. By hand: ISO8601DateFormatter is not thread-safe to share and
    /// costly to make per line.
    static func iso8601(_ date: Date) -> String {
        let millis = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        var seconds = time_t(millis / 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func pad(_ v: Int32, _ width: Int) -> String {
            let s = String(v)
            return String(repeating: "0", count: max(0, width - s.count)) + s
        }
        return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))T"
            + "\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2)).\(pad(Int32(millis % 1000), 3))Z"
    }
}
