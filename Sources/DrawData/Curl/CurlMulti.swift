import CCurl
import Dispatch
import Foundation

/// Every list fetch of the process, driven by one thread through libcurl's multi interface.
///
/// Why: the fetches used to run `curl_easy_perform` on four blocking threads, in order. Eight
/// rooms whose list source hung held all four, and every other room's draw waited behind them
/// for the whole timeout (15 s). Here transfers run side by side: one thread waits in
/// `curl_multi_poll` for whichever socket is ready, so a slow source delays only the draws that
/// use it. It also never blocks Swift's cooperative pool (two threads on this machine).
///
/// How work arrives: `submit` (any thread) appends to `incoming` under `lock` and wakes the thread
/// with `curl_multi_wakeup`, which libcurl documents as safe to call from any thread. Everything
/// else (the multi handle, every easy handle, `active`, `waiting`) is touched on the thread only.
///
/// DNS lookups do not block the thread either: Debian's libcurl resolves names on helper threads
/// (`curl-config --features` lists AsynchDNS).
///
/// At most `maxTransfers` run at once; later ones wait, first in first out, and their timeouts
/// start when they do. Each transfer holds a socket, and the process's descriptors are shared
/// with the viewers' connections; 256 transfers are 128 draws loading at the same moment.
///
/// The thread starts on the first submission and then lives as long as the process, asleep in
/// `curl_multi_poll` when there is nothing to do.
final class CurlMulti: @unchecked Sendable {
    // @unchecked Sendable: `incoming` and `multi` (its creation) are guarded by `lock`; `active`
    // and `waiting` belong to the thread; `maxTransfers` is immutable.

    /// The instance every `CurlHTTPClient` uses.
    static let shared = CurlMulti(maxTransfers: 256)

    /// The thread's name.
    static let threadName = "ld-curl-multi"

    /// One fetch asked for and not started yet.
    private struct Request {
        let url: String
        let configuration: CurlHTTPClient.Configuration
        let completion: @Sendable (CurlOutcome) -> Void
    }

    let maxTransfers: Int
    private let lock = NSLock()
    private var incoming: [Request] = []
    /// The multi handle; created with the thread, on the first submission.
    private var multi: UnsafeMutableRawPointer?

    /// Transfers added to the multi handle, by easy handle.
    private var active: [UnsafeMutableRawPointer: CurlTransfer] = [:]
    /// Submitted, waiting for one of the `maxTransfers` places; `waiting[waitingHead...]`.
    private var waiting: [Request] = []
    private var waitingHead = 0

    init(maxTransfers: Int) {
        precondition(maxTransfers >= 1, "at least one transfer must be able to run")
        self.maxTransfers = maxTransfers
    }

    /// Fetches `url`; `completion` gets the outcome on the multi thread (keep it short: resume a
    /// continuation). Never blocks.
    func submit(url: String, configuration: CurlHTTPClient.Configuration,
                completion: @escaping @Sendable (CurlOutcome) -> Void) {
        let request = Request(url: url, configuration: configuration, completion: completion)
        let handle: UnsafeMutableRawPointer? = lock.withLock {
            incoming.append(request)
            if multi == nil { start() }
            return multi
        }
        guard let handle else {
            // libcurl could not make a multi handle (out of memory): fail this one at once.
            let failed = lock.withLock { () -> [Request] in defer { incoming.removeAll() }; return incoming }
            for r in failed { r.completion(CurlOutcome(failure: "libcurl could not create a multi handle")) }
            return
        }
        _ = curl_multi_wakeup(handle)
    }

    /// Creates the multi handle and the thread. Called with `lock` held, once.
    private func start() {
        guard CurlEasyHandle.globalInitSucceeded, let handle = curl_multi_init() else { return }
        multi = handle
        let thread = Thread { [self] in
            // Set above, before the thread exists, and never changed again.
            guard let handle = lock.withLock({ multi }) else { return }
            run(handle)
        }
        thread.name = Self.threadName
        thread.start()
    }

    private func run(_ multi: UnsafeMutableRawPointer) {
        while true {
            let arrived = lock.withLock { () -> [Request] in defer { incoming.removeAll() }; return incoming }
            waiting.append(contentsOf: arrived)
            startWaiting(multi)
            var running: Int32 = 0
            _ = curl_multi_perform(multi, &running)
            if collectFinished(multi) { continue }   // redirects re-added: perform them at once
            // curl shortens the wait to its own next timeout; a submission wakes it up early.
            _ = curl_multi_poll(multi, nil, 0, active.isEmpty ? 60_000 : 1000, nil)
        }
    }

    /// Starts waiting requests while there is room.
    private func startWaiting(_ multi: UnsafeMutableRawPointer) {
        while active.count < maxTransfers, waitingHead < waiting.count {
            let request = waiting[waitingHead]
            waitingHead += 1
            if waitingHead == waiting.count {
                waiting.removeAll()
                waitingHead = 0
            }
            switch CurlTransfer.make(url: request.url, configuration: request.configuration,
                                     completion: request.completion) {
            case .failed(let outcome):
                request.completion(outcome)
            case .ready(let transfer):
                add(transfer, to: multi)
            }
        }
    }

    private func add(_ transfer: CurlTransfer, to multi: UnsafeMutableRawPointer) {
        let raw = transfer.handle.raw
        guard curl_multi_add_handle(multi, raw) == CURLM_OK else {
            transfer.completion(CurlOutcome(failure: "libcurl could not start the transfer"))
            return
        }
        active[raw] = transfer
    }

    /// Hands every finished transfer its outcome, or sets it up for its redirect. Returns true
    /// when a redirect was added back (it should be performed without waiting).
    private func collectFinished(_ multi: UnsafeMutableRawPointer) -> Bool {
        var followed = false
        var left: Int32 = 0
        while let message = curl_multi_info_read(multi, &left) {
            guard message.pointee.msg == CURLMSG_DONE, let raw = message.pointee.easy_handle,
                  let transfer = active.removeValue(forKey: raw) else { continue }
            let code = message.pointee.data.result
            // Removed before anything else touches the handle: a handle is reconfigured, or
            // cleaned up when `transfer` goes, only outside the multi handle.
            _ = curl_multi_remove_handle(multi, raw)
            switch transfer.finished(code) {
            case .follow:
                add(transfer, to: multi)
                followed = true
            case .done(let outcome):
                transfer.completion(outcome)
            }
        }
        startWaiting(multi)
        return followed
    }
}
