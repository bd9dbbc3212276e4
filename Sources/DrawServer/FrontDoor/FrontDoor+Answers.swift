import DrawPresentation
import Glibc

/// The front door's own answers and the lingering close after them. Service thread only.
extension FrontDoor {
    /// Answers a request the front door will not hand over, then closes: gracefully (see
    /// `LingeringCloses`), except after a 408, whose client is too slow to be worth the wait.
    /// A HEAD's answer has no body, also when its head could not be parsed (`HEAD /%zz`): told
    /// from the head, which stays in `r.buffer` until it is accepted.
    func refuse(_ r: PendingRequest, _ why: HeadRejection) {
        let headOnly = RequestHead.announcesHEAD(r.buffer)
        answer(r, RawResponse.error(why.code, message: why.message, allow: why.allow, headOnly: headOnly),
               linger: why != .timeout)
    }

    func refuse(_ r: PendingRequest, code: ClientErrorCode, message: String? = nil, retryAfter: Int? = nil, headOnly: Bool = false) {
        answer(r, RawResponse.error(code, message: message, retryAfter: retryAfter, headOnly: headOnly), linger: true)
    }

    private func answer(_ r: PendingRequest, _ response: [UInt8], linger: Bool) {
        release(r)
        send(r.fd, response)
        // Done sending: the client reads the answer, then its end of file.
        shutdown(r.fd, Int32(SHUT_WR))
        guard linger else {
            Glibc.close(r.fd)
            return
        }
        lingering.begin(r.fd, id: r.id, at: clock.monotonicNanos())
        if !readiness.watch(r.fd, for: .readable, handler: { [unowned self] _ in self.readable(r.fd) }) {
            endLinger(r.fd)
            return
        }
        armSweep()
    }

    /// Best effort, never blocking: the answers are small and the socket new, so the kernel
    /// takes them whole; whatever it does not take is lost rather than waited for.
    func send(_ fd: Int32, _ bytes: [UInt8]) {
        bytes.withUnsafeBytes { p in
            _ = Glibc.send(fd, p.baseAddress, p.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
        }
    }

    /// Reads and drops what a closing client still sends; closes at its end of file, on an
    /// error, or past the byte budget.
    func drainLinger(_ fd: Int32) {
        guard lingering.contains(fd) else { return }
        while true {
            let n = scratch.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n > 0 {
                if !lingering.drained(n, from: fd) { return endLinger(fd) }
                continue
            }
            if n < 0, errno == EINTR { continue }
            if n < 0, errno == EAGAIN || errno == EWOULDBLOCK { return }
            return endLinger(fd)
        }
    }

    /// Ends a lingering close early (or at the server's close).
    func endLinger(_ fd: Int32) {
        guard lingering.end(fd) else { return }
        closeLinger(fd)
    }

    /// Closes a descriptor that `lingering` no longer holds.
    func closeLinger(_ fd: Int32) {
        readiness.unwatch(fd)
        Glibc.close(fd)
    }
}
