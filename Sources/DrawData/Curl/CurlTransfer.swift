import CCurl
import Foundation

/// One list fetch in flight on the `CurlMulti` thread: a fresh handle with our safety options, the
/// body being received, and the redirects followed so far.
///
/// Redirects are followed here, not by curl (`CURLOPT_FOLLOWLOCATION` stays off): curl has no
/// hook to approve a redirect before it connects, and the target must be checked first against
/// the `RedirectPolicy` (by default, the same origin only), because a redirect can point anywhere,
/// internal addresses included. Following it ourselves also means that a failure after a redirect
/// is reported as what it was (the target's status or connect error), not as the 3xx before it.
///
/// Threading rule: created, driven and dropped on the `CurlMulti` thread only (see `CurlEasyHandle`).
final class CurlTransfer {
    /// Protocols curl may use for the configured URL itself (CURLOPT_PROTOCOLS_STR).
    static let allowedProtocols = "http,https,file"
    /// Protocols a redirect may lead to. No `file`: a remote server must never be able to make us
    /// read a local file. Set as the allow-list once a redirect is followed, too.
    static let allowedRedirectProtocols = "http,https"

    /// What to do once curl has finished the current request.
    enum Next {
        /// The handle was set up for the redirect target; add it to the multi handle again.
        case follow
        /// The fetch is over.
        case done(CurlOutcome)
    }

    let handle: CurlEasyHandle
    let configuration: CurlHTTPClient.Configuration
    let completion: @Sendable (CurlOutcome) -> Void
    private let sink: CurlResponseSink
    /// A room source's connect check (`SourceRestriction`); `nil` for the operator's URLs, or
    /// when private addresses are allowed.
    private let addressGuard: SourceAddressGuard?
    /// Where the configured URL is; redirects are judged against it.
    private let origin: URLOrigin?
    /// The URL of the current request.
    private var url: String
    private var redirects = 0
    /// Set when a redirect broke the room source's rules (reported as `refused`, not `unreachable`).
    private var refusedBySource: String?
    /// When the whole fetch (every redirect included) must be over, monotonic nanoseconds.
    private let deadline: UInt64

    /// What `make` gives: a configured transfer, or the outcome of a setup that failed.
    enum Made {
        case ready(CurlTransfer)
        case failed(CurlOutcome)
    }

    /// A configured transfer, or the outcome of a setup that failed (no handle, an option refused).
    static func make(url: String, configuration: CurlHTTPClient.Configuration,
                     completion: @escaping @Sendable (CurlOutcome) -> Void) -> Made {
        guard let handle = CurlEasyHandle() else {
            return .failed(CurlOutcome(failure: "libcurl could not create a transfer handle"))
        }
        let transfer = CurlTransfer(handle: handle, url: url, configuration: configuration, completion: completion)
        let setup = transfer.configure()
        guard setup == CURLE_OK else {
            // A refused safety option must stop the transfer, never be skipped.
            return .failed(CurlOutcome(failure: "libcurl refused an option: \(handle.errorMessage(for: setup))"))
        }
        return .ready(transfer)
    }

    private init(handle: CurlEasyHandle, url: String, configuration: CurlHTTPClient.Configuration,
                 completion: @escaping @Sendable (CurlOutcome) -> Void) {
        self.handle = handle
        self.url = url
        self.configuration = configuration
        self.completion = completion
        sink = CurlResponseSink(limit: configuration.maxResponseBytes, handle: handle.raw)
        addressGuard = configuration.restriction.map(SourceAddressGuard.init)
        origin = URLOrigin(url)
        deadline = Self.now() &+ UInt64(configuration.totalTimeoutMs) * 1_000_000
    }

    /// curl finished the current request with `code`: follow its redirect, or end the fetch.
    func finished(_ code: CURLcode) -> Next {
        let status = handle.info(CURLINFO_RESPONSE_CODE)
        guard code == CURLE_OK, (300..<400).contains(status),
              let target = handle.info(string: CURLINFO_REDIRECT_URL) else {
            return .done(outcome(code))
        }
        if let refusal = refusal(of: target) {
            var result = outcome(code)
            result.refusedRedirect = refusal
            return .done(result)
        }
        let now = Self.now()
        guard now < deadline else { return .done(outcome(CURLE_OPERATION_TIMEDOUT)) }
        redirects += 1
        url = target
        sink.reset()
        handle.clearErrorMessage()
        let setup = [
            handle.set(CURLOPT_URL, target),
            handle.set(CURLOPT_PROTOCOLS_STR, Self.allowedRedirectProtocols),
            // What is left of the total timeout: it covers the whole fetch, not each request.
            handle.set(CURLOPT_TIMEOUT_MS, max(1, Int((deadline - now) / 1_000_000))),
        ].first { $0 != CURLE_OK }
        if let setup {
            return .done(CurlOutcome(failure: "libcurl refused an option: \(handle.errorMessage(for: setup))"))
        }
        return .follow
    }

    /// Why the redirect to `target` is not followed, in a few lowercase words; `nil` to follow it.
    /// The target is named by its origin only: its path or query may carry tokens, and the reason
    /// goes to every viewer of the room.
    private func refusal(of target: String) -> String? {
        guard let to = URLOrigin(target), ["http", "https"].contains(to.scheme) else {
            return "redirected to a URL that is not http or https; refused"
        }
        if let restriction = configuration.restriction, !restriction.allows(host: to.host) {
            refusedBySource = "redirected to \(to), a host this server does not fetch room lists from"
            return refusedBySource
        }
        guard redirects < configuration.maxRedirects else {
            return "more than \(configuration.maxRedirects) redirects"
        }
        guard let from = origin, configuration.redirects.allows(from: from, to: to) else {
            switch configuration.redirects {
            case .none: return "redirected to \(to); this server follows no redirects"
            case .sameOrigin, .any: return "redirected to another origin, \(to); only redirects within \(origin.map { "\($0)" } ?? "the same origin") are followed"
            }
        }
        return nil
    }

    private func outcome(_ code: CURLcode) -> CurlOutcome {
        CurlOutcome(
            code: code,
            message: code == CURLE_OK ? "" : handle.errorMessage(for: code),
            responseCode: handle.info(CURLINFO_RESPONSE_CODE),
            osErrno: handle.info(CURLINFO_OS_ERRNO),
            redirects: redirects,
            finalURL: redirects > 0 ? url : nil,
            refusedRedirect: nil,
            refusedBySource: refusedBySource ?? addressGuard?.refused.map {
                "it led to \($0.address), a \($0.range.rawValue) address, and this server fetches room lists only from public addresses"
            },
            requestSent: handle.info(CURLINFO_REQUEST_SIZE) > 0,
            body: sink.body,
            exceededLimit: sink.exceededLimit
        )
    }

    /// Applies every option; returns the first failure (all are attempted, none is optional).
    private func configure() -> CURLcode {
        var results: [CURLcode] = [
            handle.set(CURLOPT_URL, url),
            handle.set(CURLOPT_PROTOCOLS_STR, Self.allowedProtocols),
            handle.set(CURLOPT_REDIR_PROTOCOLS_STR, Self.allowedRedirectProtocols),
            // libcurl's defaults already verify; set explicitly so no build or env changes that.
            handle.set(CURLOPT_SSL_VERIFYPEER, 1),
            handle.set(CURLOPT_SSL_VERIFYHOST, 2),
            // Without this, curl uses signals (SIGALRM) for DNS timeouts, which is unsafe with
            // several threads.
            handle.set(CURLOPT_NOSIGNAL, 1),
            // Redirects are judged and followed by `finished(_:)`, never by curl.
            handle.set(CURLOPT_FOLLOWLOCATION, 0),
            handle.set(CURLOPT_CONNECTTIMEOUT_MS, configuration.connectTimeoutMs),
            handle.set(CURLOPT_TIMEOUT_MS, configuration.totalTimeoutMs),
            handle.set(CURLOPT_USERAGENT, "live-draw"),
            handle.setWriteCallback(CurlResponseSink.writeCallback),
            // Unretained: the sink lives as long as this transfer, which outlives the handle's use.
            handle.set(CURLOPT_WRITEDATA, pointer: Unmanaged.passUnretained(sink).toOpaque()),
        ]
        if let restriction = configuration.restriction {
            results += [
                // A room's URLs: never `file://` or another scheme, even on the first request.
                handle.set(CURLOPT_PROTOCOLS_STR, Self.allowedRedirectProtocols),
                // No proxy from the environment: the address checked must be the one connected to.
                handle.set(CURLOPT_PROXY, ""),
                // A fresh connection every time: a pooled one was checked (or not) for another URL.
                handle.set(CURLOPT_FRESH_CONNECT, 1),
                handle.set(CURLOPT_FORBID_REUSE, 1),
            ]
            if let addressGuard, !restriction.allowPrivateAddresses { results.append(addressGuard.install(on: handle)) }
        }
        // Refuses an announced oversized body before any of it is read. 0 would mean "no limit"
        // to curl, so a zero cap is left to the write callback alone.
        if configuration.maxResponseBytes > 0 {
            results.append(handle.set(CURLOPT_MAXFILESIZE_LARGE, offT: Int64(configuration.maxResponseBytes)))
        }
        return results.first { $0 != CURLE_OK } ?? CURLE_OK
    }

    private static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
}
