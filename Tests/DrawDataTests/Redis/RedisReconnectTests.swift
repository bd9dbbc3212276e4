@testable import DrawData
import DrawCore
import Foundation
import Testing

/// Redis goes away and comes back on the same port: the link goes down, the subscriber
/// reconnects within its backoff bound and resubscribes by itself, and events flow again; the
/// command connection reconnects on its next command.
@Suite(.enabled(if: RedisServerProcess.isInstalled, RedisServerProcess.skipMessage))
struct RedisReconnectTests {
    @Test func retryNowEndsABackoffWaitOnceRedisIsBack() throws {
        let server = try RedisServerProcess()
        // A backoff far longer than the test: only `retryNow` can end it in time.
        let config = RedisConfiguration(url: server.url, connectTimeoutMs: 500, commandTimeoutMs: 1_000,
                                        backoff: ReconnectBackoff(initialMs: 60_000, maxMs: 60_000))
        let connection = RedisConnection(configuration: config)
        defer { connection.close() }
        #expect(try connection.command("PING") == .status("PONG"))
        server.kill()
        #expect(throws: RedisError.self) { try connection.command("PING") }   // the link breaks
        #expect(throws: RedisError.self) { try connection.command("PING") }   // the reconnect is refused: backoff
        try server.restart()
        guard case .failure(.unavailable) = Result(catching: { () throws(RedisError) in try connection.command("PING") }) else {
            Issue.record("expected the backoff to refuse at once")
            return
        }
        connection.retryNow()
        #expect(try connection.command("PING") == .status("PONG"))
    }

    /// Issue 27: after a Redis restart, the first command of a connection that sat idle through
    /// it found the socket dead and failed (a joining viewer was closed with 1013). A connection
    /// idle past `idleCheck` is checked with a PING first and replaced, so the command gets through.
    /// One used moments before the restart (never idle past its check) used to fail its first
    /// command ("Server closed the connection"); the server's FIN is seen before sending now.
    @Test func aConnectionOpenThroughARestartIsReplacedBeforeTheCommand() throws {
        let server = try RedisServerProcess()
        let idle = RedisConnection(configuration: server.configuration(), idleCheck: .milliseconds(50))
        let busy = RedisConnection(configuration: server.configuration(), idleCheck: .seconds(3_600))
        defer { idle.close(); busy.close() }
        #expect(try idle.command("SET", "k", "v") == .status("OK"))
        #expect(try busy.command("SET", "k", "v") == .status("OK"))
        try server.restart()
        usleep(100_000)   // idle past the 50 ms check (the fault is the restart above)
        #expect(try idle.command("GET", "k") == .null, "the command went to the new Redis")
        // A write too: it was never sent on the dead socket, so it ran exactly once.
        #expect(try busy.command("INCR", "n") == .integer(1), "not idle, yet replaced before the command")
        #expect(try busy.command("GET", "n") == .string(Array("1".utf8)))
        #expect(busy.link.state == .up)
    }

    @Test func subscriberReconnectsAndResubscribesAfterARedisRestart() throws {
        let server = try RedisServerProcess(password: "restart-pw")
        let backoffMaxMs = 400
        let config = server.configuration(backoffMaxMs: backoffMaxMs)
        let inbox = Inbox<[UInt8]>()
        let states = Inbox<RedisLinkState>()
        let node = RedisRoomEventChannel(connection: RedisConnection(configuration: config)) { _, payload in
            inbox.append(payload)
        }
        node.subscriber.link.observe { states.append($0) }
        node.start()
        defer { node.stop() }
        node.subscribe(room: "quiz")
        node.subscribe(room: "lobby")
        #expect(eventually { node.subscriber.subscribedChannels.count == 2 })
        #expect(try node.publish(Array("before".utf8), toRoom: "quiz") == 1)
        #expect(eventually { inbox.count == 1 })

        server.kill()
        #expect(eventually { node.subscriber.link.state != .up }, "the link goes down")
        #expect(node.subscriber.subscribedChannels.isEmpty)
        #expect(throws: CoordinationError.self) { try node.publish([0], toRoom: "quiz") }
        // Redis stays away for a while: attempts back off, none succeeds.
        #expect(eventually(within: 1) { node.subscriber.link.lastError != nil })

        let restarted = ContinuousClock.now
        try server.start()
        // Back within the backoff bound plus a connect: both subscriptions confirmed again.
        let bound = Double(backoffMaxMs + 500) / 1000 + 1   // +1 s slack for a loaded machine
        #expect(eventually(within: bound) { node.subscriber.subscribedChannels.count == 2 },
                "resubscribed within \(bound) s")
        let took = ContinuousClock.now - restarted
        #expect(node.subscriber.link.state == .up)
        #expect(node.subscriber.link.upCount == 2)
        #expect(states.all.starts(with: [.connecting, .up, .down]), "\(states.all)")

        // The command connection fails once on its dead socket or reconnects at once; then works.
        #expect(eventually(within: 3) { (try? node.publish(Array("after".utf8), toRoom: "quiz")) == 1 })
        #expect(eventually { inbox.all.contains(Array("after".utf8)) })
        #expect(inbox.all.first == Array("before".utf8))
        print("resubscribed \(took) after the restart")
    }

    @Test func aSilentLinkIsDetectedByPing() throws {
        let server = try RedisServerProcess()
        let config = server.configuration(pingIntervalMs: 200)
        let subscriber = RedisSubscriber(configuration: config) { _, _ in }
        subscriber.subscribe("c")
        subscriber.start()
        defer { subscriber.stop() }
        #expect(eventually { subscriber.subscribedChannels == ["c"] })
        // Pause Redis (SIGSTOP): the socket stays open but nothing answers, as with a network
        // that drops packets. The unanswered PING takes the link down.
        kill(try #require(server.processID), SIGSTOP)
        defer { if let pid = server.processID { kill(pid, SIGCONT) } }
        #expect(eventually(within: 4) { subscriber.link.state != .up })
        #expect(subscriber.link.lastError?.contains("PING") == true, "\(subscriber.link.lastError ?? "")")
        kill(try #require(server.processID), SIGCONT)
        #expect(eventually(within: 4) { subscriber.subscribedChannels == ["c"] }, "and recovers once Redis answers")
    }
}
