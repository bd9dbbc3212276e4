import CSysShim
import Glibc

/// Descriptors the server reads or accepts on itself, outside lws' own sockets (our listening
/// socket, request heads still being read, WebSocket input): one level-triggered epoll set that
/// lws polls with everything else through a single adopted descriptor.
///
/// Why: lws 4.1 reads every socket it owns with its own parsers, which we cannot make stricter.
/// Whatever we want to read first we watch here instead, and lws wakes the service thread with
/// `LWS_CALLBACK_RAW_RX_FILE` on the epoll descriptor whenever any of them is ready. One extra
/// descriptor in lws' poll set, however many are watched.
///
/// Threading: service thread only, like everything lws (threading rule 1 on `LiveDrawServer`);
/// debug builds check it. Handlers run on the service thread, from `dispatch()`.
package final class Readiness {
    /// What a descriptor is watched for, and what it was found ready for.
    package struct Events: OptionSet, Sendable {
        package let rawValue: UInt32
        package init(rawValue: UInt32) { self.rawValue = rawValue }
        package static let readable = Events(rawValue: UInt32(LDSYS_READABLE))
        package static let writable = Events(rawValue: UInt32(LDSYS_WRITABLE))
        /// Always reported, never asked for: the peer hung up (or shut down its sending side).
        package static let hangup = Events(rawValue: UInt32(LDSYS_HANGUP))
        package static let error = Events(rawValue: UInt32(LDSYS_ERROR))
    }

    package typealias Handler = (Events) -> Void

    private let epoll: Int32
    /// The lws connection of the adopted epoll descriptor; lws owns it (and closes `epoll` with it).
    package private(set) var connection: Connection?
    private var handlers: [Int32: Handler] = [:]
    private let owner: ThreadOwner
    /// Most descriptors one `dispatch` handles; the rest stay ready for the next turn.
    private static let batch = 256
    /// Allocated once: `dispatch` runs on every wake-up of the service thread that has input.
    private let readyFDs = UnsafeMutableBufferPointer<Int32>.allocate(capacity: batch)
    private let readyEvents = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: batch)

    /// Creates the epoll set and adopts it into the transport. `nil` when either fails.
    package init?(transport: Transport) {
        owner = transport.thread
        let fd = ldsys_epoll_create()
        guard fd >= 0 else { return nil }
        guard let adopted = transport.context.adoptFile(fd) else {
            Glibc.close(fd)
            return nil
        }
        epoll = fd
        connection = adopted
    }

    /// Descriptors watched now.
    package var count: Int { handlers.count }

    /// Starts watching `fd`: `handler` runs whenever it is ready for `events`, and on hang-up
    /// or error, for as long as that lasts (level-triggered: read or unwatch, or it fires again).
    /// False when the kernel refused (the fd is then not watched).
    @discardableResult
    package func watch(_ fd: Int32, for events: Events, handler: @escaping Handler) -> Bool {
        owner.check()
        guard connection != nil, ldsys_epoll_add(epoll, fd, events.rawValue | UInt32(LDSYS_PEER_SHUTDOWN)) == 0 else {
            return false
        }
        handlers[fd] = handler
        return true
    }

    /// Changes what a watched `fd` is watched for. False when it is not watched.
    @discardableResult
    package func modify(_ fd: Int32, for events: Events) -> Bool {
        owner.check()
        guard handlers[fd] != nil else { return false }
        return ldsys_epoll_modify(epoll, fd, events.rawValue | UInt32(LDSYS_PEER_SHUTDOWN)) == 0
    }

    /// Stops watching `fd`. Call it before `fd` is closed: descriptor numbers are reused at once,
    /// and a stale handler must never see a new connection's events.
    package func unwatch(_ fd: Int32) {
        owner.check()
        guard handlers.removeValue(forKey: fd) != nil else { return }
        _ = ldsys_epoll_remove(epoll, fd)
    }

    /// Runs the handler of every ready descriptor, once each. Called from lws' callback for the
    /// epoll descriptor; what is still ready afterwards keeps the descriptor readable, so lws
    /// calls again on its next turn.
    package func dispatch() {
        owner.check()
        let n = Int(ldsys_epoll_wait(epoll, readyFDs.baseAddress, readyEvents.baseAddress, Int32(Self.batch), 0))
        guard n > 0 else { return }
        // Handlers never dispatch again (only lws' service turn does), so the batch buffers are
        // not overwritten while this loop reads them.
        for i in 0..<n {
            // A handler may unwatch (or close) another descriptor reported in this batch.
            guard let handler = handlers[readyFDs[i]] else { continue }
            var ready = Events(rawValue: readyEvents[i])
            if ready.contains(Events(rawValue: UInt32(LDSYS_PEER_SHUTDOWN))) { ready.insert(.hangup) }
            handler(ready.intersection([.readable, .writable, .hangup, .error]))
        }
    }

    /// Forgets every handler; lws closes the epoll descriptor when it destroys the context.
    package func close() {
        handlers.removeAll()
        connection = nil
    }

    deinit {
        readyFDs.deallocate()
        readyEvents.deallocate()
    }
}
