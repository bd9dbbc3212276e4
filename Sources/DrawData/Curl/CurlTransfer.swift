import CCurl
import Foundation

/// One blocking GET with libcurl: configure a fresh handle with our safety options, perform,
/// and collect what the error mapping needs.
///
/// Threading rule: `perform(url:configuration:)` blocks for the whole transfer. Call it only from
/// a `CurlWorkerPool` thread, never from async code directly.
enum CurlTransfer {
    /// Protocols curl may use for the URL itself (CURLOPT_PROTOCOLS_STR).
    static let allowedProtocols = "http,https,file"
    /// Protocols a redirect may lead to (CURLOPT_REDIR_PROTOCOLS_STR). No `file`: a remote server
    /// must never be able to make us read a local file.
    static let allowedRedirectProtocols = "http,https"

    static func perform(url: String, configuration: CurlHTTPClient.Configuration) -> CurlOutcome {
        guard let handle = CurlEasyHandle() else {
            return CurlOutcome(failure: "libcurl could not create a transfer handle")
        }
        let sink = CurlResponseSink(limit: configuration.maxResponseBytes)
        // The write callback gets the sink unretained; withExtendedLifetime keeps it alive until
        // curl is done with it.
        return withExtendedLifetime(sink) {
            let setup = configure(handle, url: url, configuration: configuration, sink: sink)
            guard setup == CURLE_OK else {
                // A refused safety option must stop the transfer, never be skipped.
                return CurlOutcome(failure: "libcurl refused an option: \(handle.errorMessage(for: setup))")
            }
            let code = handle.perform()
            return CurlOutcome(
                code: code,
                message: code == CURLE_OK ? "" : handle.errorMessage(for: code),
                responseCode: handle.info(CURLINFO_RESPONSE_CODE),
                osErrno: handle.info(CURLINFO_OS_ERRNO),
                redirectCount: handle.info(CURLINFO_REDIRECT_COUNT),
                requestSent: handle.info(CURLINFO_REQUEST_SIZE) > 0,
                body: sink.body,
                exceededLimit: sink.exceededLimit
            )
        }
    }

    /// Applies every option; returns the first failure (all are attempted, none is optional).
    private static func configure(_ handle: CurlEasyHandle, url: String,
                                  configuration: CurlHTTPClient.Configuration,
                                  sink: CurlResponseSink) -> CURLcode {
        var results: [CURLcode] = [
            handle.set(CURLOPT_URL, url),
            handle.set(CURLOPT_PROTOCOLS_STR, allowedProtocols),
            handle.set(CURLOPT_REDIR_PROTOCOLS_STR, allowedRedirectProtocols),
            // libcurl's defaults already verify; set explicitly so no build or env changes that.
            handle.set(CURLOPT_SSL_VERIFYPEER, 1),
            handle.set(CURLOPT_SSL_VERIFYHOST, 2),
            // Without this, curl uses signals (SIGALRM) for DNS timeouts, which is unsafe with
            // several threads.
            handle.set(CURLOPT_NOSIGNAL, 1),
            handle.set(CURLOPT_FOLLOWLOCATION, 1),
            handle.set(CURLOPT_MAXREDIRS, configuration.maxRedirects),
            handle.set(CURLOPT_CONNECTTIMEOUT_MS, configuration.connectTimeoutMs),
            handle.set(CURLOPT_TIMEOUT_MS, configuration.totalTimeoutMs),
            handle.set(CURLOPT_USERAGENT, "live-draw"),
            handle.setWriteCallback(CurlResponseSink.writeCallback),
            handle.set(CURLOPT_WRITEDATA, pointer: Unmanaged.passUnretained(sink).toOpaque()),
        ]
        // Refuses an announced oversized body before any of it is read. 0 would mean "no limit"
        // to curl, so a zero cap is left to the write callback alone.
        if configuration.maxResponseBytes > 0 {
            results.append(handle.set(CURLOPT_MAXFILESIZE_LARGE, offT: Int64(configuration.maxResponseBytes)))
        }
        return results.first { $0 != CURLE_OK } ?? CURLE_OK
    }
}
