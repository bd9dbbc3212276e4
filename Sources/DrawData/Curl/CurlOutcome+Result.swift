import CCurl
import DrawCore
import Foundation

extension CurlOutcome {
    /// The body, or the `DataSourceError` a host can act on.
    ///
    /// Order matters: a refused redirect first (its 3xx status is not the server's answer), then a
    /// non-2xx status (the server's own answer beats whatever went wrong with its body), then
    /// curl's transfer result. After redirects, the error is the last request's (the final cause)
    /// and its source says where the fetch was redirected to.
    func result(source: String, configuration: CurlHTTPClient.Configuration) -> Result<Data, DataSourceError> {
        if let refusedBySource {
            return .failure(.refused(source: source, reason: refusedBySource))
        }
        if let refusedRedirect {
            return .failure(.unreachable(source: source, reason: refusedRedirect))
        }
        let source = finalURL.map { "\(source) (redirected to \(URLPolicy.described($0)))" } ?? source
        if responseCode != 0, !(200..<300).contains(responseCode) {
            return .failure(.badStatus(source: source, status: responseCode))
        }
        if code == CURLE_OK { return .success(body) }
        if code == CURLE_FILESIZE_EXCEEDED || (code == CURLE_WRITE_ERROR && exceededLimit) {
            return .failure(.tooLarge(source: source, limitBytes: configuration.maxResponseBytes))
        }
        if code == CURLE_UNSUPPORTED_PROTOCOL || code == CURLE_URL_MALFORMAT {
            return .failure(.badURL(source: source))
        }
        return .failure(.unreachable(source: source, reason: unreachableReason(configuration)))
    }

    /// Says which kind of "nothing usable came back" it was, in a few lowercase words.
    private func unreachableReason(_ configuration: CurlHTTPClient.Configuration) -> String {
        switch code {
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            return "DNS lookup failed (\(message))"
        case CURLE_COULDNT_CONNECT:
            switch Int32(clamping: osErrno) {
            case ECONNREFUSED: return "connection refused"
            case EHOSTUNREACH, ENETUNREACH: return "host unreachable (no route)"
            case ETIMEDOUT: return "timed out connecting"
            default: return "could not connect (\(message))"
            }
        case CURLE_OPERATION_TIMEDOUT:
            let limit = min(configuration.connectTimeoutMs, configuration.totalTimeoutMs)
            return requestSent
                ? "timed out waiting for the response (limit \(configuration.totalTimeoutMs) ms)"
                : "timed out connecting (limit \(limit) ms)"
        case CURLE_FILE_COULDNT_READ_FILE:
            return "file not found or not readable"
        case CURLE_PEER_FAILED_VERIFICATION:
            return "TLS certificate or host name could not be verified (\(message))"
        case CURLE_SSL_CONNECT_ERROR:
            return "TLS handshake failed (\(message))"
        case CURLE_SSL_CACERT_BADFILE:
            return "no usable CA certificates to verify TLS with (\(message))"
        case CURLE_GOT_NOTHING:
            return "the server closed the connection without answering"
        case CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_PARTIAL_FILE:
            return "the connection broke off during the transfer (\(message))"
        default:
            return message
        }
    }
}
