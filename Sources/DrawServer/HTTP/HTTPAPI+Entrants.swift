import DrawCore
import DrawPresentation
import DrawTransport

/// `GET /api/draws/ID/entrants` (docs/PROTOCOL.md §5.6): a draw's entrants, the list protocol v2
/// no longer sends to every viewer. Fixed for the draw, so it is cacheable for good: a strong
/// `ETag` (the entrants hash, which is the SHA-256 of exactly these bytes), `immutable`, and
/// `304` to a browser that has it. Encoded once per draw (`EntrantLists`), not per request.
extension HTTPAPI {
    static let entrantsCacheControl = "public, max-age=31536000, immutable"

    /// From memory when the draw is recent (running here, or another node's started event came
    /// in), else from the store on the storage thread, else (cluster mode) from Redis.
    func drawEntrants(id: String, _ exchange: HTTPExchange, _ wsi: Connection) -> HTTPResponse? {
        guard DrawIdentifier.isValid(id) else { return .json(404, APIMessages.error(.unknownDraw)) }
        let ifNoneMatch = wsi.header(.ifNoneMatch)
        let lists = rooms.entrantLists
        if let list = lists.list(drawId: id) { return Self.entrantsResponse(list, ifNoneMatch: ifNoneMatch) }
        let store = storage.store, shared = rooms.cluster?.services.records, logger = self.logger
        guard store != nil || shared != nil else { return .json(404, APIMessages.error(.unknownDraw)) }
        return answerFromStorage(exchange, wsi) {
            do throws(StorageError) {
                if let record = try store?.record(id: id) {
                    guard let hash = record.entrantsHash, !record.entrants.isEmpty else { return Self.noEntrants }
                    let list = lists.list(drawId: id, hash: hash, players: record.entrants)
                    return Self.entrantsResponse(list, ifNoneMatch: ifNoneMatch)
                }
            } catch {
                logger.error("could not read a draw record", metadata: ["drawId": "\(id)", "error": "\(error)"])
                return .json(503, APIMessages.error(.storageUnavailable))
            }
            // Cluster mode: another node ran it (or runs it). Redis out of reach is not "no such
            // draw": say so, rather than a 404 a client would take as final.
            do throws(CoordinationError) {
                if let list = try shared?.entrants(drawId: id) {
                    lists.keep(EntrantList(hash: list.hash, json: list.json), drawId: id)
                    return Self.entrantsResponse(EntrantList(hash: list.hash, json: list.json), ifNoneMatch: ifNoneMatch)
                }
            } catch {
                return .json(503, APIMessages.error(.clusterUnavailable))
            }
            return .json(404, APIMessages.error(.unknownDraw))
        }
    }

    /// The list, or `304` when the client's `If-None-Match` names it.
    static func entrantsResponse(_ list: EntrantList, ifNoneMatch: String?) -> HTTPResponse {
        let etag = "etag: \(list.etag)\r\n"
        if StaticFileValidator.matches(ifNoneMatch: ifNoneMatch, etag: list.etag) {
            var r = HTTPResponse(status: 304, contentType: "application/json", body: [])
            r.cache = (control: entrantsCacheControl, lines: etag + "cache-control: \(entrantsCacheControl)\r\n")
            return r
        }
        var r = HTTPResponse.json(200, list.json)
        r.cache = (control: entrantsCacheControl, lines: etag)
        return r
    }

    /// A draw that failed before it had a plan has no entrants to serve.
    private static let noEntrants = HTTPResponse.json(404, APIMessages.error(
        .unknownDraw, message: "This draw has no entrants: it failed before it was planned."))
}
