import DrawCore
import DrawPresentation

/// Requests answered from the storage thread: the history endpoints (`HistoryReads` decides what
/// each reads) and their answers, which come back as service-thread jobs.
extension HTTPAPI {
    /// Answers at once, or runs the read on the storage thread and answers later (`nil`).
    func answer(_ answer: HistoryAnswer, _ exchange: HTTPExchange, _ wsi: Connection) -> HTTPResponse? {
        switch answer {
        case .now(let response): return response
        case .read(let read): return answerFromStorage(exchange, wsi, read)
        }
    }

    /// Runs `read` on the storage thread (rule 5) and answers the request when it returns.
    /// Returns `nil` (answer later), or a 503 when the storage thread no longer takes work.
    /// A connection waits for its answer before it can ask again, so reads in the queue never
    /// outnumber the connections (`maxConnections`).
    func answerFromStorage(_ exchange: HTTPExchange, _ wsi: Connection,
                                   _ read: @escaping @Sendable () -> HTTPResponse) -> HTTPResponse? {
        guard storage.thread != nil else { return .json(503, APIMessages.error(.storageUnavailable)) }
        lastReadNumber += 1
        let number = lastReadNumber
        pendingReads[number] = PendingRead(connection: wsi, exchange: exchange)
        let answered = loop.executor.continuation { [unowned self] (response: HTTPResponse) in
            storageAnswered(request: number, response)
        }
        guard storage.submit({ answered(read()) }) else {
            pendingReads[number] = nil
            return .json(503, APIMessages.error(.storageUnavailable))
        }
        return nil
    }

    /// A read came back: answer its request, unless the client has gone meanwhile.
    func storageAnswered(request: UInt64, _ response: HTTPResponse) {
        guard let pending = pendingReads.removeValue(forKey: request), let exchange = pending.exchange,
              !loop.destroying else { return }
        respond(response, to: exchange, pending.connection)
    }
}
