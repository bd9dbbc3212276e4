import CCurl
import CCurlShim
import Foundation

/// Collects a response body from curl's write callback and enforces the size cap as bytes arrive.
///
/// Why in the callback: refusing the chunk that crosses the cap makes curl abort the transfer
/// right there, so at most `limit` bytes are ever held, whatever the server sends and whether or
/// not it announced a length.
///
/// The body of a redirect (a 3xx answer, which `CurlTransfer` follows itself) is counted against
/// the same cap but not kept: it is never used, and a hostile one must not cost memory.
///
/// Not `Sendable`: it lives and dies inside one `CurlTransfer`, on the `CurlMulti` thread.
final class CurlResponseSink {
    let limit: Int
    /// The handle whose response this is, to tell a redirect's body from the real one.
    private let handle: UnsafeMutableRawPointer
    private(set) var body = Data()
    /// Bytes received so far for the current response, kept or not.
    private var received = 0
    /// Set when a chunk would have taken the body past `limit`; the transfer was aborted then.
    private(set) var exceededLimit = false

    init(limit: Int, handle: UnsafeMutableRawPointer) {
        self.limit = limit
        self.handle = handle
    }

    /// Forgets the response so far: a redirect is being followed.
    func reset() {
        body = Data()
        received = 0
    }

    /// Appends a chunk; returns false (abort) if it would pass the limit.
    func accept(_ chunk: UnsafeRawBufferPointer) -> Bool {
        // `received <= limit` always holds, so the subtraction cannot overflow.
        guard chunk.count <= limit - received else {
            exceededLimit = true
            return false
        }
        received += chunk.count
        var status = 0
        _ = ldcurl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        if !(300..<400).contains(status) { body.append(contentsOf: chunk) }
        return true
    }

    /// CURLOPT_WRITEFUNCTION. `userdata` is this sink (CURLOPT_WRITEDATA, passed unretained:
    /// `CurlTransfer` keeps the sink alive as long as its handle).
    static let writeCallback: ldcurl_write_callback = { data, size, count, userdata in
        guard let userdata else { return 0 }
        let sink = Unmanaged<CurlResponseSink>.fromOpaque(userdata).takeUnretainedValue()
        // size is 1 for curl's body callback; the product is curl's own chunk size, at most
        // CURL_MAX_WRITE_SIZE, so it cannot overflow.
        let byteCount = size * count
        guard byteCount > 0, let data else { return byteCount }
        // Returning anything but byteCount tells curl to stop with CURLE_WRITE_ERROR.
        return sink.accept(UnsafeRawBufferPointer(start: data, count: byteCount)) ? byteCount : 0
    }
}
