@testable import DrawData
import Foundation
import Testing

/// A command whose connection breaks after it was sent (here: Redis drops the client while the
/// command waits) may have run. A read said to be `idempotent` is asked once more on a fresh
/// connection; any other command fails with `connectionLost`, which callers treat as "Redis is
/// unreachable, try later".
@Suite(.enabled(if: RedisServerProcess.isInstalled, RedisServerProcess.skipMessage))
struct RedisCutOffCommandTests {
    @Test func anIdempotentCommandCutOffIsSentAgainOnce() throws {
        let server = try RedisServerProcess()
        let reader = RedisConnection(configuration: server.configuration())
        let admin = RedisConnection(configuration: server.configuration())
        defer { reader.close(); admin.close() }
        #expect(try reader.command("PING") == .status("PONG"))   // an open connection to cut

        let answer = Inbox<Result<RedisReply, RedisError>>()
        let thread = Thread {
            answer.append(Result(catching: { () throws(RedisError) in
                try reader.command([Array("BLPOP".utf8), Array("list".utf8), Array("5".utf8)], idempotent: true)
            }))
        }
        thread.start()
        // Once the read waits in Redis, drop its connection (as a Redis going away would).
        #expect(eventually { Self.blocked(admin) == 1 })
        #expect(try admin.command("CLIENT", "KILL", "TYPE", "normal", "SKIPME", "yes") == .integer(1))
        // The read is asked again on a new connection: it waits there, and gets the push.
        #expect(eventually { Self.blocked(admin) == 1 })
        #expect(try admin.command("RPUSH", "list", "x") == .integer(1))
        #expect(eventually { answer.count == 1 })
        #expect(try answer.all.first?.get() == .array([.string(Array("list".utf8)), .string(Array("x".utf8))]))
    }

    @Test func anyOtherCommandCutOffFailsAsConnectionLost() throws {
        let server = try RedisServerProcess()
        let writer = RedisConnection(configuration: server.configuration())
        let admin = RedisConnection(configuration: server.configuration())
        defer { writer.close(); admin.close() }
        #expect(try writer.command("PING") == .status("PONG"))

        let answer = Inbox<Result<RedisReply, RedisError>>()
        let thread = Thread {
            answer.append(Result(catching: { () throws(RedisError) in try writer.command("BLPOP", "list", "5") }))
        }
        thread.start()
        #expect(eventually { Self.blocked(admin) == 1 })
        #expect(try admin.command("CLIENT", "KILL", "TYPE", "normal", "SKIPME", "yes") == .integer(1))
        #expect(eventually { answer.count == 1 })
        guard case .failure(.connectionLost)? = answer.all.first else {
            Issue.record("expected connectionLost, got \(String(describing: answer.all.first))")
            return
        }
        #expect(Self.blocked(admin) == 0, "not sent again")
        #expect(try writer.command("PING") == .status("PONG"), "the next command reconnects")
    }

    /// How many clients wait in a blocking command (INFO clients' `blocked_clients`).
    private static func blocked(_ admin: RedisConnection) -> Int? {
        guard let info = (try? admin.command("INFO", "clients"))?.text else { return nil }
        let line = info.split(whereSeparator: \.isNewline).first { $0.hasPrefix("blocked_clients:") }
        return line.flatMap { Int($0.dropFirst("blocked_clients:".count)) }
    }
}
