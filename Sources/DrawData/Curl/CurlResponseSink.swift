import CCurlShim
import Foundation

/// Collects a response body from curl's write callback and enforces the size cap as bytes arrive.
///
/// Why in the callback: refusing the chunk that crosses the cap makes curl abort the transfer
/// right there, so at most `limit` bytes are ever held, whatever the server sends and whether or
/// not it announced a length.
///
/// Not `Sendable`: it lives and dies inside one `CurlTransfer`, on one worker thread.
final class CurlResponseSink {
    let limit: Int
    private(set) var body = Data()
    /// Set when a chunk would have taken the body past `limit`; the transfer was aborted then.
    private(set) var exceededLimit = false

    init(limit: Int) {
        self.limit = limit
    }

    /// Appends a chunk; returns false (abort) if it would pass the limit.
    func accept(_ chunk: UnsafeRawBufferPointer) -> Bool {
        guard chunk.count <= limit - body.count else {
            exceededLimit = true
            return false
        }
        body.append(contentsOf: chunk)
        return true
    }

    /// CURLOPT_WRITEFUNCTION. `userdata` is this sink (CURLOPT_WRITEDATA, passed unretained:
    /// `CurlTransfer` keeps the sink alive until `curl_easy_perform` returns).
    static let writeCallback: ldcurl_write_callback = { data, size, count, userdata in
        guard let userdata else { return 0 }
        let sink = Unmanaged<CurlResponseSink>.fromOpaque(userdata).takeUnretainedValue()
        let byteCount = size * count
        guard byteCount > 0, let data else { return byteCount }
        // Returning anything but byteCount tells curl to stop with CURLE_WRITE_ERROR.
        return sink.accept(UnsafeRawBufferPointer(start: data, count: byteCount)) ? byteCount : 0
    }
}
