import DrawPresentation
import DrawTransport

/// The checks a POST or PUT passes before its body is read. Service thread only.
extension HTTPAPI {
    /// A refusal for this `POST`, or `nil` to go on: `415` when it is not sent as JSON (so no
    /// cross-site page can send it unasked, see `JSONContentType`), then `429` when it would
    /// create a room and its address has created too many lately (`RoomsAPI`). The body is never
    /// read, so the connection closes after the answer.
    func refusePost(_ wsi: Connection, route: HTTPRoute) -> HTTPResponse? {
        guard JSONContentType.matches(wsi.header(.contentType)) else {
            var r = HTTPResponse.json(415, APIMessages.error(.unsupportedMediaType))
            r.closeAfter = true
            return r
        }
        guard route == .rooms else { return nil }
        return rooms.refuseCreation(from: ClientAddress.budgetKey(for: wsi.peerAddress))
    }

    /// The `Content-Type` check before a PUT's body is read: an entrant list is `text/plain` (one
    /// name per line) or `application/json` (the seed's two lists); settings and schedules are
    /// JSON. A PUT is never a CORS "simple request", so `text/plain` lets no other site's page
    /// send one unasked.
    func refusePut(_ wsi: Connection, _ exchange: HTTPExchange) -> HTTPResponse? {
        let type = wsi.header(.contentType)
        if case .roomEntrants = exchange.route, RoomEntrantsAPI.listFormat(type) != nil { return nil }
        if case .roomSettings = exchange.route, JSONContentType.matches(type) { return nil }
        if case .roomSchedule = exchange.route, JSONContentType.matches(type) { return nil }
        let message: String
        if case .roomEntrants = exchange.route {
            message = RoomEntrantsAPI.listTypeMessage
        } else {
            message = "Send the request with Content-Type: application/json."
        }
        var r = HTTPResponse.json(415, APIMessages.error(.unsupportedMediaType, message: message))
        r.closeAfter = true
        return r
    }
}
