import DrawPresentation
import Glibc

/// Reading requests: head, then body, then the verdict. Service thread only.
extension FrontDoor {
    /// The descriptor's readiness handler, whatever phase the connection is in.
    func readable(_ fd: Int32) {
        if let r = requests[fd] {
            read(r)
        } else if lingering[fd] != nil {
            drainLinger(fd)
        }
    }

    /// Reads what has arrived (never more than the limits allow) and acts on it.
    func read(_ r: PendingRequest) {
        while requests[r.fd] === r {
            // Head and body limits bound the buffer: at most one chunk past the larger of them.
            // Once the head is in, its own body's length does (an upload may be larger than the
            // standard limit; `needed` was bounded by its route's limit when the head was parsed).
            let limit = r.head == nil ? settings.limits.maxHeadBytes + settings.limits.maxBodyBytes
                : max(r.needed, settings.limits.maxHeadBytes + settings.limits.maxBodyBytes)
            let (cap, overflow) = limit.addingReportingOverflow(Self.readChunk)
            guard !overflow else { return refuse(r, .bodyTooLarge) }
            let room = cap - r.buffer.count
            guard room > 0 else { return refuse(r, .headersTooLarge) }
            let n = scratch.withUnsafeMutableBytes { recv(r.fd, $0.baseAddress, min($0.count, room), 0) }
            if n > 0 {
                r.buffer.append(contentsOf: scratch[0..<n])
                advance(r)
                // Still incomplete: part of a request, which may make it a slow one.
                if requests[r.fd] === r, tracker.received(r.ticket) != nil { return refuse(r, .timeout) }
            } else if n == 0 {
                return drop(r) // the client went away before its request was complete
            } else {
                switch errno {
                case EAGAIN, EWOULDBLOCK: return
                case EINTR: continue
                default: return drop(r)
                }
            }
        }
    }

    /// Moves a request on with what its buffer holds now.
    private func advance(_ r: PendingRequest) {
        if r.head == nil {
            switch r.scanner.scan(r.buffer) {
            case .incomplete:
                return
            case .rejected(let why):
                return refuse(r, why)
            case .complete(let start, let end):
                switch RequestHeadParser.parse(r.buffer[start..<end], limits: settings.limits) {
                case .failure(let why):
                    return refuse(r, why)
                case .success(let head):
                    if let why = head.refusal { return refuse(r, why, headOnly: head.method == "HEAD") }
                    if (head.contentLength ?? 0) > settings.limits.maxBodyBytes {
                        // An upload's body is read whole before any key is checked: only a few at
                        // once, so memory stays bounded whoever sends them. Counted, not kept in a
                        // counter, so no path that forgets a request can leak a place.
                        guard requests.values.count(where: \.isUpload) < Self.maxUploadsInFlight else {
                            return refuse(r, code: .busy, headOnly: false)
                        }
                        r.isUpload = true
                    }
                    r.head = head
                    r.headEnd = end
                    // Peer-supplied length, already bounded by its route's body limit; checked anyway.
                    let (needed, overflow) = end.addingReportingOverflow(head.contentLength ?? 0)
                    guard !overflow else { return refuse(r, .bodyTooLarge) }
                    r.needed = needed
                    if r.buffer.count < r.needed, head.expectsContinue { send(r.fd, RawResponse.continueHead) }
                }
            }
        }
        guard let head = r.head, r.buffer.count >= r.needed else { return }
        complete(r, head)
    }

    /// The whole request is in: answer it here at the limits, or pass it on.
    private func complete(_ r: PendingRequest, _ head: RequestHead) {
        let headOnly = head.method == "HEAD"
        if host.isShuttingDown { return refuse(r, code: .shuttingDown, headOnly: headOnly) }
        // The soft limit, as lws' connections had it: this connection is counted among them.
        if connectionCount > settings.maxConnections { return refuse(r, code: .tooManyConnections, headOnly: headOnly) }
        release(r)
        // lws gets the head only. A POST's body goes beside it (see `forwardedHead`); anything
        // after the body is not lws' business (it closes after one response). A WebSocket client
        // must wait for the 101 before it sends a frame (RFC 6455 §4.1), and its frames are
        // read by our own parser once lws has upgraded the connection, never by lws: bytes read
        // past a handshake are dropped.
        let body = RequestHead.bodyMethods.contains(head.method) ? head.body(in: r.buffer, headEnd: r.headEnd) : nil
        handOver(Ready(fd: r.fd, bytes: head.forwardedHead(), body: body, put: head.method == "PUT"))
    }

    /// Forgets a request without closing its descriptor (it goes to lws or into a linger).
    func release(_ r: PendingRequest) {
        requests[r.fd] = nil
        tracker.finished(r.ticket)
        if r.watched { readiness.unwatch(r.fd) }
        r.watched = false
    }

    /// Closes a request without an answer (the client left, or the server is closing).
    func drop(_ r: PendingRequest) {
        release(r)
        Glibc.close(r.fd)
    }

    // MARK: deadlines

    /// Keeps the sweep ticking while anything is being read or closed.
    func armSweep() {
        guard !sweepArmed, !closed else { return }
        sweepArmed = true
        sweepTimer?.schedule(afterNanos: Self.sweepIntervalNanos)
    }

    /// Refuses requests that turned slow past their address's cap or ran out of time, and ends
    /// lingering closes whose time is up.
    func sweep() {
        sweepArmed = false
        let now = clock.monotonicNanos()
        for (ticket, _) in tracker.sweep(now: now) {
            guard let r = requests[ticket.fd], r.id == ticket.id else { continue }
            // The ticket is already finished in the tracker; `refuse` finishing it again is a no-op.
            refuse(r, .timeout)
        }
        while let (fd, id) = lingerOrder.first {
            guard let l = lingering[fd], l.id == id else { _ = lingerOrder.pop(); continue }
            guard now >= l.until else { break }
            _ = lingerOrder.pop()
            endLinger(fd)
        }
        if !requests.isEmpty || !lingering.isEmpty { armSweep() }
    }
}
