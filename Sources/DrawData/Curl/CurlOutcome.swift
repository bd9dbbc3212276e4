import CCurl
import Foundation

/// What one fetch produced, as plain values: enough to decide success or the right
/// `DataSourceError` without touching the handle again. After redirects, everything but
/// `redirects` and `finalURL` describes the last request: the final cause, not the 3xx before it.
struct CurlOutcome: Sendable {
    var code: CURLcode
    /// curl's detail text for a failure; empty on success.
    var message: String
    /// The HTTP status of the last request; 0 for `file://` or when none arrived.
    var responseCode: Int
    /// The OS `errno` behind a connect failure (ECONNREFUSED...), 0 if none.
    var osErrno: Int
    /// Redirects followed.
    var redirects: Int
    /// The URL of the last request, when a redirect was followed.
    var finalURL: String?
    /// Why a redirect was not followed (another origin, too many, not http); `nil` if none was refused.
    var refusedRedirect: String?
    /// Why a room source's fetch was refused by its `SourceRestriction` (an internal address, a
    /// host not allowed after a redirect); `nil` if it was not.
    var refusedBySource: String? = nil
    /// Whether the request went out (so a timeout happened while waiting for the answer).
    var requestSent: Bool
    var body: Data
    /// The write callback aborted the transfer at the size cap.
    var exceededLimit: Bool
}

extension CurlOutcome {
    /// A failure before any transfer started (no handle, an option refused).
    init(failure message: String) {
        self.init(code: CURLE_FAILED_INIT, message: message, responseCode: 0, osErrno: 0, redirects: 0,
                  finalURL: nil, refusedRedirect: nil, requestSent: false, body: Data(), exceededLimit: false)
    }
}
