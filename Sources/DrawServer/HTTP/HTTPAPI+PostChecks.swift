import DrawPresentation
import DrawTransport

/// Checks every API `POST` passes before its body is read. Service thread only.
extension HTTPAPI {
    /// A refusal for this `POST`, or `nil` to go on: `415` when it is not sent as JSON (so no
    /// cross-site page can send it unasked, see `JSONContentType`), then `429` when it would
    /// create a room and its address has created too many lately. The body is never read, so
    /// the connection closes after the answer.
    func refusePost(_ wsi: Connection, route: HTTPRoute) -> HTTPResponse? {
        guard JSONContentType.matches(wsi.header(.contentType)) else {
            var r = HTTPResponse.json(415, APIMessages.error(.unsupportedMediaType))
            r.closeAfter = true
            return r
        }
        guard route == .rooms else { return nil }
        let key = ClientAddress.budgetKey(for: wsi.peerAddress)
        guard case .limited(let seconds) = roomCreations.take(key, nowNanos: clock.monotonicNanos()) else { return nil }
        metrics.roomCreationLimited()
        logger.debug("room creation rate-limited", metadata: ["address": "\(key)"])
        let message = "Too many rooms created from this address; try again in \(seconds) s."
        var r = HTTPResponse.json(429, APIMessages.error(.rateLimited, message: message))
        r.extraHeader = (name: "Retry-After", value: String(seconds))
        r.closeAfter = true
        return r
    }
}
