@testable import DrawData
import DrawCore
import Foundation
import Testing

/// Pub/sub through `RedisSubscriber` and the `RoomEventChannel` over it, on a real redis-server.
@Suite(.enabled(if: RedisServerProcess.isInstalled, RedisServerProcess.skipMessage))
struct RedisPubSubTests {
    struct Event: Sendable, Equatable {
        let room: String
        let payload: [UInt8]
    }

    /// Two nodes, each with its own channel; only the node that has viewers in `quiz` subscribes.
    @Test func eventsReachOnlyNodesSubscribedToTheRoom() throws {
        let server = try RedisServerProcess()
        let publisher = RedisConnection(configuration: server.configuration())
        let keyspace = RedisKeyspace(prefix: "t:")
        let onA = Inbox<Event>(), onB = Inbox<Event>()
        let nodeA = RedisRoomEventChannel(connection: RedisConnection(configuration: server.configuration()), keyspace: keyspace) {
            onA.append(Event(room: $0, payload: $1))
        }
        let nodeB = RedisRoomEventChannel(connection: RedisConnection(configuration: server.configuration()), keyspace: keyspace) {
            onB.append(Event(room: $0, payload: $1))
        }
        nodeA.start(); nodeB.start()
        defer { nodeA.stop(); nodeB.stop(); publisher.close() }

        nodeA.subscribe(room: "quiz")
        nodeB.subscribe(room: "other")
        #expect(eventually { nodeA.subscriber.subscribedChannels == ["t:events:quiz"] })
        #expect(eventually { nodeB.subscriber.subscribedChannels == ["t:events:other"] })

        let payloads: [[UInt8]] = [Array("round 1".utf8), [0, 255, 13, 10], Array("round 2".utf8)]
        for payload in payloads { #expect(try nodeA.publish(payload, toRoom: "quiz") == 1, "one node has viewers in quiz") }
        #expect(eventually { onA.count == 3 })
        #expect(onA.all == payloads.map { Event(room: "quiz", payload: $0) }, "in order, bytes intact")

        // B is subscribed to another room only: a marker published to B's room after the quiz
        // events arrives; by then nothing of quiz has (same connection, in order).
        #expect(try nodeB.publish(Array("marker".utf8), toRoom: "other") == 1)
        #expect(eventually { onB.count == 1 })
        #expect(onB.all == [Event(room: "other", payload: Array("marker".utf8))])
        #expect(try publisher.command("PUBSUB", "NUMSUB", "t:events:quiz") == .array([.string(Array("t:events:quiz".utf8)), .integer(1)]))
    }

    @Test func unsubscribedRoomGetsNothingMore() throws {
        let server = try RedisServerProcess()
        let inbox = Inbox<Event>()
        let node = RedisRoomEventChannel(connection: RedisConnection(configuration: server.configuration())) {
            inbox.append(Event(room: $0, payload: $1))
        }
        node.start()
        defer { node.stop() }
        node.subscribe(room: "a")
        node.subscribe(room: "b")
        #expect(eventually { node.subscriber.subscribedChannels.count == 2 })
        #expect(try node.publish([1], toRoom: "a") == 1)
        #expect(eventually { inbox.count == 1 })

        node.unsubscribe(room: "a")
        #expect(eventually { node.subscriber.subscribedChannels == [RedisKeyspace().eventChannel(room: "b")] })
        #expect(try node.publish([2], toRoom: "a") == 0, "Redis has no subscriber for a any more")
        #expect(try node.publish([3], toRoom: "b") == 1)
        #expect(eventually { inbox.count == 2 })
        #expect(inbox.all == [Event(room: "a", payload: [1]), Event(room: "b", payload: [3])])

        // Unsubscribing everything leaves subscribed mode; subscribing again works.
        node.unsubscribe(room: "b")
        #expect(eventually { node.subscriber.subscribedChannels.isEmpty })
        node.subscribe(room: "a")
        #expect(eventually { node.subscriber.subscribedChannels.count == 1 })
        #expect(try node.publish([4], toRoom: "a") == 1)
        #expect(eventually { inbox.count == 3 })
    }

    @Test func subscriberRunsOnItsNamedThreadAndStopsCleanly() throws {
        let server = try RedisServerProcess()
        let threadNames = Inbox<String>()
        let subscriber = RedisSubscriber(configuration: server.configuration()) { _, _ in
            threadNames.append(Thread.current.name ?? "")
        }
        subscriber.subscribe("c")   // before start: sent on the first connection
        subscriber.start()
        #expect(eventually { subscriber.subscribedChannels == ["c"] })
        #expect(subscriber.link.state == .up)
        let publisher = RedisConnection(configuration: server.configuration())
        defer { publisher.close() }
        #expect(try publisher.command("PUBLISH", "c", "x") == .integer(1))
        #expect(eventually { threadNames.count == 1 })
        #expect(threadNames.all == [RedisSubscriber.threadName])

        subscriber.stop()
        #expect(subscriber.link.state == .down)
        #expect(subscriber.subscribedChannels.isEmpty)
        #expect(eventually { (try? publisher.command("PUBSUB", "NUMSUB", "c")) == .array([.string(Array("c".utf8)), .integer(0)]) })
    }

    @Test func subscriberLogsInWithThePassword() throws {
        let server = try RedisServerProcess(password: "sub-secret")
        let inbox = Inbox<[UInt8]>()
        let subscriber = RedisSubscriber(configuration: server.configuration()) { _, payload in inbox.append(payload) }
        subscriber.subscribe("c")
        subscriber.start()
        defer { subscriber.stop() }
        #expect(eventually { subscriber.subscribedChannels == ["c"] })
        let publisher = RedisConnection(configuration: server.configuration())
        defer { publisher.close() }
        #expect(try publisher.command("PUBLISH", "c", "hello") == .integer(1))
        #expect(eventually { inbox.all == [Array("hello".utf8)] })
    }
}
