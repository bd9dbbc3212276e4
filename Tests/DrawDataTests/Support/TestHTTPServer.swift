import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A minimal HTTP/1.1 server on 127.0.0.1 for the Data tests: canned replies per path, one thread
/// per connection, `Connection: close` on every answer.
///
/// Real sockets on purpose: the point of these tests is libcurl's behaviour against a real peer
/// (timeouts, refused connects, streams cut at the cap), which no fake can show.
final class TestHTTPServer: @unchecked Sendable {
    // @unchecked Sendable: `routes`, `port` and `listenFD` are immutable after init; `accepted`
    // and `stopped` are only touched with `lock` held.

    let port: UInt16
    /// Yields each request path as it arrives, so a test can wait for "curl has sent its request"
    /// without sleeping.
    let requests: AsyncStream<String>

    private let routes: [String: Reply]
    private let listenFD: Int32
    private let requestSink: AsyncStream<String>.Continuation
    private let lock = NSLock()
    private var accepted = 0
    private var stopped = false

    /// Starts listening on an ephemeral port. Paths without a route get a plain 404.
    init(routes: [String: Reply]) throws {
        let (fd, port) = try LoopbackSocket.bindEphemeral()
        guard listen(fd, 64) == 0 else {
            let code = errno
            close(fd)
            throw LoopbackSocket.Failure(call: "listen", code: code)
        }
        self.listenFD = fd
        self.port = port
        self.routes = routes
        (requests, requestSink) = AsyncStream.makeStream(of: String.self)
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "test-http-accept"
        thread.start()
    }

    deinit {
        stop()
    }

    /// `http://127.0.0.1:<port><path>`.
    func url(_ path: String) -> String {
        "http://127.0.0.1:\(port)\(path)"
    }

    /// How many TCP connections the server has accepted so far.
    var acceptedConnections: Int {
        lock.withLock { accepted }
    }

    /// Stops accepting. Connections in progress finish on their own threads.
    func stop() {
        let first = lock.withLock { () -> Bool in
            defer { stopped = true }
            return !stopped
        }
        // Wakes the blocked accept() (it fails with EINVAL); the accept thread closes the socket,
        // so the descriptor is not reused while accept() might still hold it.
        if first { shutdown(listenFD, Int32(SHUT_RDWR)) }
    }

    private func acceptLoop() {
        while true {
            let fd = accept(listenFD, nil, nil)
            if fd < 0 {
                if errno == EINTR { continue }
                break
            }
            let keepGoing = lock.withLock { () -> Bool in
                accepted += 1
                return !stopped
            }
            guard keepGoing else { close(fd); break }
            let thread = Thread { [self] in serve(fd) }
            thread.start()
        }
        close(listenFD)
        requestSink.finish()
    }

    private func serve(_ fd: Int32) {
        defer { close(fd) }
        guard let head = LoopbackSocket.readRequestHead(fd) else { return }
        guard head.first?.isLetter == true else {
            // Not HTTP (a TLS ClientHello, say): answer in plain HTTP, as real servers do.
            Reply.status(400, body: Array("plain HTTP only".utf8)).write(to: fd)
            return
        }
        // Request line: "GET /path HTTP/1.1".
        let parts = head.prefix { $0 != "\r" }.split(separator: " ")
        let path = parts.count >= 2 ? String(parts[1]) : "/"
        requestSink.yield(path)
        (routes[path] ?? .status(404, body: Array("not found".utf8))).write(to: fd, origin: "http://127.0.0.1:\(port)")
    }
}
