import DrawPresentation
import DrawTransport

/// Every API answer goes out through here: at once (`respond`), or later, once a room is loaded,
/// the store has made a change (a room created, deleted, a key rotated) or read the history
/// (`later`, `answer`). Owns the requests waiting for their answer. Service thread only.
final class HTTPAnswers {
    /// How long a request whose answer comes later may wait for it before lws closes the
    /// connection (issue 31, finding 3: lws' own 10 s handshake timeout cut off answers while the
    /// change went on, so a host was told nothing of a list it had replaced). Longer than any
    /// work the server bounds itself: an upload gives up with a coded 503 before it changes
    /// anything after `UploadParseQueue.Limits.standard.workNanos` (20 s), and the store's write that follows
    /// takes milliseconds; a room load or history read, the same.
    static let answerTimeoutSeconds = 120

    unowned let loop: ServiceLoop
    unowned let storage: ServerStorage
    /// Requests waiting for their answer, by request number.
    private var pending: [UInt64: PendingRead] = [:]
    private var lastNumber: UInt64 = 0

    init(loop: ServiceLoop, storage: ServerStorage) {
        self.loop = loop
        self.storage = storage
    }

    /// Sets the exchange's response and asks for the WRITEABLE that sends it.
    func respond(_ r: HTTPResponse, to exchange: HTTPExchange, _ wsi: Connection) {
        var r = r
        r.headOnly = exchange.headOnly
        r.closeAfter = r.closeAfter || exchange.closeAfter || loop.closesEveryResponse
        exchange.setResponse(r)
        wsi.requestWritable()
    }

    /// The request on `wsi` as a resource's handler sees it.
    func request(_ exchange: HTTPExchange, _ wsi: Connection) -> APIRequest {
        APIRequest(exchange: exchange, later: { [unowned self] in later(exchange, wsi) })
    }

    /// A way to answer `exchange` later, once: the request waits among `pending` (an answer that
    /// finds the client gone is dropped, see `answered`). Calling it at once, before returning
    /// `nil` to lws, is fine too.
    func later(_ exchange: HTTPExchange, _ wsi: Connection) -> (HTTPResponse) -> Void {
        let number = wait(exchange, wsi)
        return { [unowned self] response in answered(request: number, response) }
    }

    /// Answers a history request at once, or runs the read on its store's thread and answers
    /// later (`nil`).
    func answer(_ answer: HistoryAnswer, _ exchange: HTTPExchange, _ wsi: Connection) -> HTTPResponse? {
        switch answer {
        case .now(let response):
            return response
        case .read(let reads, let read):
            guard storage.thread != nil else { return .json(503, APIMessages.error(.storageUnavailable)) }
            let number = wait(exchange, wsi)
            guard submit(read, reading: reads, request: number) else {
                pending[number] = nil
                return .json(503, APIMessages.error(.storageUnavailable))
            }
            return nil
        }
    }

    /// Keeps `exchange` waiting under a new request number, with the connection's lws timeout
    /// moved out to `answerTimeoutSeconds`: every answer that comes later (a history read on a
    /// store's thread too, which a slow Redis can hold past lws' 10 s) arrives.
    private func wait(_ exchange: HTTPExchange, _ wsi: Connection) -> UInt64 {
        wsi.waitForAnswer(seconds: Self.answerTimeoutSeconds)
        lastNumber += 1
        pending[lastNumber] = PendingRead(connection: wsi, exchange: exchange)
        return lastNumber
    }

    /// Runs `read` on its store's thread (rule 5); what it answers comes back as a job: the
    /// response for waiting request `number`, or the next read. A connection waits for its answer
    /// before it can ask again, so reads in the queues never outnumber the connections.
    private func submit(_ read: @escaping @Sendable () -> HistoryAnswer, reading reads: ServerStorage.Reads,
                        request number: UInt64) -> Bool {
        let answered = loop.executor.continuation { [unowned self] (next: HistoryAnswer) in
            switch next {
            case .now(let response):
                self.answered(request: number, response)
            case .read(let reads, let read):
                if !submit(read, reading: reads, request: number) {
                    self.answered(request: number, .json(503, APIMessages.error(.storageUnavailable)))
                }
            }
        }
        return storage.submit({ answered(read()) }, reading: reads)
    }

    /// An answer came: give it to its request, unless the client has gone meanwhile.
    private func answered(request: UInt64, _ response: HTTPResponse) {
        guard let waiting = pending.removeValue(forKey: request), let exchange = waiting.exchange,
              !loop.destroying else { return }
        respond(response, to: exchange, waiting.connection)
    }
}
