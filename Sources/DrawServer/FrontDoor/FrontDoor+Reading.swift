import DrawPresentation
import Glibc

/// Reading requests: head, then body, then the verdict. Service thread only.
extension FrontDoor {
    /// The descriptor's readiness handler, whatever phase the connection is in.
    func readable(_ fd: Int32) {
        if let r = requests[fd] {
            read(r)
        } else if lingering.contains(fd) {
            drainLinger(fd)
        }
    }

    /// Reads what has arrived (never more than the limits allow) and acts on it.
    func read(_ r: PendingRequest) {
        while requests[r.fd] === r, !r.checking {
            let n: Int
            if r.head == nil {
                // The head's limit bounds the buffer (`headReadCap`).
                guard let cap = headReadCap else { return refuse(r, .bodyTooLarge) }
                let room = cap - r.buffer.count
                guard room > 0 else { return refuse(r, .headersTooLarge) }
                n = scratch.withUnsafeMutableBytes { recv(r.fd, $0.baseAddress, min($0.count, room), 0) }
                if n > 0 { r.buffer.append(contentsOf: scratch[0..<n]) }
            } else {
                // The body's own length (bounded by its route's limit when the head was parsed),
                // read into its reserved buffer and never past it.
                let room = r.bodyLength - r.body.count
                guard room > 0 else { return advance(r) }
                n = Self.receive(r.fd, into: &r.body, upTo: min(Self.readChunk, room))
            }
            if n > 0 {
                advance(r)
                // Still incomplete: part of a request, which may make it a slow one (an upload
                // admitted to its body no longer counts here: its pace does).
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

    /// `recv` straight into the spare capacity of `body` (reserved to its length once the head
    /// was parsed), not through `scratch`: an upload's 16 MiB are not copied 4 KiB at a time.
    /// Returns what `recv` returned.
    private static func receive(_ fd: Int32, into body: inout [UInt8], upTo count: Int) -> Int {
        var n = 0
        body.append(addingCapacity: count) { span in
            n = span.withUnsafeMutableBufferPointer { free, filled in
                let got = recv(fd, free.baseAddress.map { $0 + filled }, min(count, free.count - filled), 0)
                if got > 0 { filled += got }
                return got
            }
        }
        return n
    }

    /// Moves a request on with what its buffers hold now.
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
                    if let why = head.refusal { return refuse(r, why) } // a HEAD's answer: `refuse` sees it in the buffer
                    r.head = head
                    // Peer-supplied length, already bounded by its route's body limit.
                    r.bodyLength = head.contentLength ?? 0
                    // The body gets a buffer of its own, reserved once: no doubling while it
                    // grows, and it goes to the API as it is. What came after the head moves there.
                    r.body.reserveCapacity(r.bodyLength)
                    r.body.append(contentsOf: r.buffer[end..<min(r.buffer.count, end + r.bodyLength)])
                    r.buffer = []
                    if head.method == "PUT", let path = head.path, case .roomEntrants(let room) = HTTPRoute.match(path) {
                        r.uploadRoom = room
                        return checkUpload(r, head)
                    }
                    if r.body.count < r.bodyLength, head.expectsContinue { send(r.fd, RawResponse.continueHead) }
                }
            }
        }
        guard let head = r.head, !r.checking, r.body.count >= r.bodyLength else { return }
        complete(r, head)
    }

    /// An upload's head is in: nothing more is read until the gate has checked its room, key and
    /// type (issue 31, findings 1 and 4); then it takes an upload slot if its body is large.
    private func checkUpload(_ r: PendingRequest, _ head: RequestHead) {
        guard let gate = uploadGate, let room = r.uploadRoom else { return admitUpload(r, head) }
        r.checking = true
        if r.watched { readiness.unwatch(r.fd) } // level-triggered: unread input would wake us again
        r.watched = false
        func text(_ name: String) -> String? { head.values(of: name).first.map { String(decoding: $0, as: UTF8.self) } }
        let upload = UploadRequest(room: room, contentType: text("content-type"), authorization: text("authorization"))
        gate.check(upload) { [weak self] verdict in
            // The request may have timed out or gone meanwhile; its descriptor may be another's.
            guard let self, requests[r.fd] === r else { return }
            r.checking = false
            switch verdict {
            case .refuse(let code, let message): refuse(r, code: code, message: message, headOnly: false)
            case .admit: admitUpload(r, head)
            }
        }
    }

    /// An upload that may send its body: a slot if it needs one, `100 Continue`, then its body.
    private func admitUpload(_ r: PendingRequest, _ head: RequestHead) {
        if r.bodyLength > settings.limits.maxBodyBytes {
            guard uploads.admit(r.fd, id: r.id, peer: r.peer, room: r.uploadRoom ?? "", bytes: r.body.count,
                                at: clock.monotonicNanos()) else {
                return refuse(r, code: .busy, message: "Too many uploads are being read now (from this address, to this room, or in all); try again shortly.",
                              retryAfter: UploadReads.retryAfterSeconds)
            }
            // From now on its deadline follows its progress (finding 5), not the 5 s of a head.
            tracker.finished(r.ticket)
        }
        if r.body.count < r.bodyLength, head.expectsContinue { send(r.fd, RawResponse.continueHead) }
        if !r.watched {
            r.watched = readiness.watch(r.fd, for: .readable) { [unowned self] _ in self.readable(r.fd) }
            guard r.watched else { return drop(r) }
        }
        armSweep()
        // What came with the head may be the whole body already; else read what is waiting.
        if r.body.count >= r.bodyLength { return complete(r, head) }
        read(r)
    }

    /// The whole request is in: answer it here at the limits, or pass it on.
    private func complete(_ r: PendingRequest, _ head: RequestHead) {
        let headOnly = head.method == "HEAD"
        if host.isShuttingDown { return refuse(r, code: .shuttingDown, headOnly: headOnly) }
        // The soft limit, as lws' connections had it: this connection is counted among them.
        if connectionCount > settings.maxConnections { return refuse(r, code: .tooManyConnections, headOnly: headOnly) }
        release(r)
        // lws gets the head only. A POST's body goes beside it (see `forwardedHead`), handed over
        // as it was read, not copied; anything after the body is not lws' business (it closes
        // after one response). A WebSocket client must wait for the 101 before it sends a frame
        // (RFC 6455 §4.1), and its frames are read by our own parser once lws has upgraded the
        // connection, never by lws: bytes read past a handshake are dropped.
        var body: [UInt8]?
        if RequestHead.bodyMethods.contains(head.method) {
            body = r.body
            r.body = [] // the one reference left is the one handed over
        }
        handOver(HandOverLine.Ready(fd: r.fd, bytes: head.forwardedHead(), body: body, put: head.method == "PUT"))
    }

    /// Forgets a request without closing its descriptor (it goes to lws or into a linger).
    func release(_ r: PendingRequest) {
        requests[r.fd] = nil
        uploads.ended(r.fd, id: r.id)
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
        // Uploads' bodies: each must keep its pace (finding 5).
        for fd in uploads.offPace(at: now, bytes: { requests[$0]?.body.count }) {
            if let r = requests[fd] { refuse(r, .timeout) }
        }
        for fd in lingering.expired(now: now) { closeLinger(fd) }
        if !requests.isEmpty || !lingering.isEmpty { armSweep() }
    }
}
