import DrawCore

/// `RoomEventChannel` on Redis pub/sub: `PUBLISH` on the command connection, subscriptions on a
/// `RedisSubscriber` (its own thread, reconnects and resubscribes by itself).
///
/// Events arrive at `onEvent` on the subscriber thread ("ld-redis-sub"), with the room name taken
/// back from the channel name. Call `start()` once and `stop()` before dropping it.
public final class RedisRoomEventChannel: RoomEventChannel {
    public let connection: RedisConnection
    public let subscriber: RedisSubscriber
    public let keyspace: RedisKeyspace

    /// `connection` publishes; a subscriber of its own (same configuration) receives.
    public init(connection: RedisConnection, keyspace: RedisKeyspace = RedisKeyspace(),
                onEvent: @escaping @Sendable (_ room: String, _ payload: [UInt8]) -> Void) {
        self.connection = connection
        self.keyspace = keyspace
        subscriber = RedisSubscriber(configuration: connection.configuration) { channel, payload in
            guard let room = keyspace.room(ofEventChannel: channel) else { return }
            onEvent(room, payload)
        }
    }

    /// Starts the subscriber thread.
    public func start() { subscriber.start() }

    /// Stops the subscriber thread (not the command connection: it may be shared).
    public func stop() { subscriber.stop() }

    @discardableResult
    public func publish(_ payload: [UInt8], toRoom room: String) throws(CoordinationError) -> Int {
        let reply: RedisReply
        do {
            reply = try connection.command([Array("PUBLISH".utf8), Array(keyspace.eventChannel(room: room).utf8), payload])
        } catch {
            throw .unavailable(error.description)
        }
        guard case .integer(let receivers) = reply, let count = Int(exactly: receivers), count >= 0 else {
            throw .unexpectedReply("PUBLISH answered \(reply)")
        }
        return count
    }

    /// Calls `observer` with the room each time Redis confirms its channel's subscription (on the
    /// subscriber thread).
    public func observeSubscriptions(_ observer: @escaping @Sendable (_ room: String) -> Void) {
        let keyspace = self.keyspace
        subscriber.observeConfirmations { channel in
            if let room = keyspace.room(ofEventChannel: channel) { observer(room) }
        }
    }

    public func subscribe(room: String) { subscriber.subscribe(keyspace.eventChannel(room: room)) }

    public func unsubscribe(room: String) { subscriber.unsubscribe(keyspace.eventChannel(room: room)) }
}
