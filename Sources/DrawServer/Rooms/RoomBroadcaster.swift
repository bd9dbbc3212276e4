import DrawCore
import DrawPresentation
import Logging
import DrawTransport

/// What rooms show their viewers: draw events from the bus (`+Events`, a `loading` held back a
/// moment), presence, snapshots, heartbeats for quiet rooms (`+Heartbeat`), and the fan-out of
/// each message to every member (here). Each client's own writes are the `ClientWriter`'s.
/// Service thread only; no locks on this path.
final class RoomBroadcaster {
    let config: ServerConfig
    let clock: any DrawClock
    let logger: Logger
    let metrics: ServerMetrics
    unowned let loop: any RoomLoop
    unowned let writer: ClientWriter
    unowned let directory: RoomDirectory
    let shared: any SharedRooms
    let bus: any RoomEventBus
    /// Where a step is made durable before it is shown (`deliver`).
    let steps: any DrawStepLog
    /// Recent draws' entrant lists, encoded once (the entrants endpoint, v1 clients).
    let entrantLists: EntrantLists
    /// Watched rooms in last-broadcast order, for their heartbeats (`+Heartbeat`).
    var heartbeats: RoomHeartbeat

    init(config: ServerConfig, clock: any DrawClock, logger: Logger, metrics: ServerMetrics, loop: any RoomLoop,
         writer: ClientWriter, directory: RoomDirectory, shared: any SharedRooms, bus: any RoomEventBus,
         steps: any DrawStepLog, entrantLists: EntrantLists) {
        self.config = config
        self.clock = clock
        self.logger = logger
        self.metrics = metrics
        self.loop = loop
        self.writer = writer
        self.directory = directory
        self.shared = shared
        self.bus = bus
        self.steps = steps
        self.entrantLists = entrantLists
        heartbeats = RoomHeartbeat(intervalSeconds: config.heartbeatSeconds)
    }

    var phase: ServerPhase { loop.phase }

    /// A room was made: its draw events come to it through the bus.
    func roomMade(_ room: Room) {
        bus.subscribe(room: room.name) { [unowned self, unowned room] event in self.deliver(event, to: room) }
    }

    /// A room left memory: nothing may call into it any more.
    func roomFreed(_ room: Room) {
        bus.unsubscribe(room: room.name)
        heartbeats.forget(room.name)   // a room made later under this name starts its own quiet time
    }

    /// Sends `bytes` to every member of `room`: serialised once, copied once into a shared
    /// buffer, stored once in the room's ring; per client one write, at once. A client whose
    /// backlog passes `outboundQueueLimit` is closed as too slow (4408) instead of growing memory
    /// or holding the room back.
    ///
    /// At once, not on WRITEABLE (issue 17): a client that lws holds nothing for takes the
    /// message now, as the epoll floor does, and only a client whose socket was full (lws keeps
    /// the tail and flushes it first) waits for WRITEABLE. Asking for WRITEABLE first cost a
    /// POLLOUT round trip per client and message: a poll() scan of every socket, or two
    /// epoll_ctl calls.
    ///
    /// The v1 variant (`WireMessages.v1`) is made only while the room has v1 members.
    func broadcast(_ bytes: [UInt8], in room: Room) {
        guard !loop.destroying else { return }
        heartbeatHeard(in: room, broadcast: true)
        let v1 = room.v1Members > 0 ? WireMessages.v1(bytes, entrants: entrantLists.json(drawId:)) : nil
        room.append(RoomMessage(OutboundMessage(bytes), v1: v1.map(OutboundMessage.init)))
        let limit = config.outboundQueueLimit
        var i = 0
        while i < room.members.count {
            let client = room.members[i]
            // Members already closing with drainRoom (shutdown) are never re-judged: they are on
            // their way out and the close deadline bounds them.
            if client.closing == nil, client.backlog > limit {
                writer.closeTooSlow(client) // swap-removes it: index i now holds another member
                continue
            }
            if client.closing == nil, !client.connection.hasBufferedOutput(client.output) {
                // The message owed first (a private one, or this): order stays the queue's.
                if writer.writeNext(client) == .hangUp { client.connection.kill() }
                // writeNext may close a client (swap-removing it): index i then holds another.
                guard i < room.members.count, room.members[i] === client else { continue }
            } else {
                client.connection.requestWritable()
            }
            i += 1
        }
    }

    /// Takes a client out of its room: the room's viewers changed.
    func leaveRoom(_ client: ClientConnection) {
        guard let room = client.room else { return }
        room.remove(client)
        client.room = nil
        viewersChanged(room)
    }
}
