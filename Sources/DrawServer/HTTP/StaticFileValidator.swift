import Foundation

/// The validators of one static file (RFC 9110 §8.8): an `ETag` from its size and modification
/// time, and `Last-Modified`; sent with `Cache-Control: no-cache`, so a browser keeps the file
/// but asks before each use, and a `304 Not Modified` answers when nothing changed. Any change to
/// the file (a deploy, an edit) changes its modification time, hence its tag, so nobody sees a
/// stale page.
struct StaticFileValidator: Equatable {
    /// Quoted, strong: `"size-seconds.nanoseconds"` in hexadecimal.
    let etag: String
    /// An IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`).
    let lastModified: String

    init(size: Int64, seconds: Int64, nanoseconds: Int64) {
        etag = "\"\(String(size, radix: 16))-\(String(seconds, radix: 16)).\(String(nanoseconds, radix: 16))\""
        lastModified = Self.httpDate(seconds)
    }

    /// The header lines sent with the file and with a 304.
    var headerLines: String {
        "etag: \(etag)\r\nlast-modified: \(lastModified)\r\ncache-control: no-cache\r\n"
    }

    /// Whether an `If-None-Match` value names this file as the browser has it: `*`, or any tag
    /// of the list, compared weakly (a `W/` prefix is ignored), as RFC 9110 §13.1.2 says for GET.
    func matches(ifNoneMatch: String?) -> Bool { Self.matches(ifNoneMatch: ifNoneMatch, etag: etag) }

    /// The same for any strong `etag` (quoted): the entrants endpoint's too.
    static func matches(ifNoneMatch: String?, etag: String) -> Bool {
        guard let value = ifNoneMatch else { return false }
        for part in value.split(separator: ",") {
            var tag = part.trimmingCharacters(in: .whitespaces)
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag.removeFirst(2) }
            if tag == etag { return true }
        }
        return false
    }

    static func httpDate(_ seconds: Int64) -> String {
        var t = time_t(seconds)
        var parts = tm()
        gmtime_r(&t, &parts)
        var buffer = [CChar](repeating: 0, count: 64)
        let n = strftime(&buffer, buffer.count, "%a, %d %b %Y %H:%M:%S GMT", &parts)
        return String(decoding: buffer.prefix(n).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
