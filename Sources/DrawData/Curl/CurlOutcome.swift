import CCurl
import Foundation

/// What one transfer produced, as plain values: enough to decide success or the right
/// `DataSourceError` without touching the handle again.
struct CurlOutcome {
    var code: CURLcode
    /// curl's detail text for a failure; empty on success.
    var message: String
    /// The last HTTP status (after redirects); 0 for `file://` or when none arrived.
    var responseCode: Int
    /// The OS `errno` behind a connect failure (ECONNREFUSED...), 0 if none.
    var osErrno: Int
    var redirectCount: Int
    /// Whether the request went out (so a timeout happened while waiting for the answer).
    var requestSent: Bool
    var body: Data
    /// The write callback aborted the transfer at the size cap.
    var exceededLimit: Bool
}

extension CurlOutcome {
    /// A failure before any transfer started (no handle, an option refused).
    init(failure message: String) {
        self.init(code: CURLE_FAILED_INIT, message: message, responseCode: 0, osErrno: 0,
                  redirectCount: 0, requestSent: false, body: Data(), exceededLimit: false)
    }
}
