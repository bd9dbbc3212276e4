@testable import DrawData
import Foundation
import Testing

/// The blocking command connection against a real redis-server.
@Suite(.enabled(if: RedisServerProcess.isInstalled, RedisServerProcess.skipMessage))
struct RedisCommandTests {
    @Test func commandsRoundTripEveryReplyType() throws {
        let server = try RedisServerProcess()
        let redis = RedisConnection(configuration: server.configuration())
        defer { redis.close() }

        #expect(try redis.command("PING") == .status("PONG"))
        #expect(try redis.command("SET", "k", "v") == .status("OK"))
        #expect(try redis.command("GET", "k") == .string(Array("v".utf8)))
        #expect(try redis.command("GET", "missing") == .null)
        #expect(try redis.command("INCRBY", "n", "41") == .integer(41))
        #expect(try redis.command("RPUSH", "l", "a", "b") == .integer(2))
        #expect(try redis.command("LRANGE", "l", "0", "-1") == .array([.string(Array("a".utf8)), .string(Array("b".utf8))]))
        guard case .error(let message) = try redis.command("NOSUCHCOMMAND") else {
            Issue.record("an unknown command must come back as an error reply")
            return
        }
        #expect(message.hasPrefix("ERR"))
        // The connection is fine after an error reply.
        #expect(try redis.command("PING") == .status("PONG"))
        #expect(redis.link.state == .up)
    }

    @Test func argumentsAreBinarySafe() throws {
        let server = try RedisServerProcess()
        let redis = RedisConnection(configuration: server.configuration())
        defer { redis.close() }
        let value: [UInt8] = [0, 13, 10, 255, 37, 115, 0]   // NUL, CRLF, a format "%s": all plain bytes
        #expect(try redis.command([Array("SET".utf8), Array("bin".utf8), value]) == .status("OK"))
        #expect(try redis.command([Array("GET".utf8), Array("bin".utf8)]) == .string(value))
        #expect(try redis.command([Array("SET".utf8), Array("empty".utf8), []]) == .status("OK"))
        #expect(try redis.command([Array("STRLEN".utf8), Array("empty".utf8)]) == .integer(0))
        #expect(throws: RedisError.badCommand("no arguments")) { try redis.command([[UInt8]]()) }
    }

    @Test func passwordAndACLUserLogIn() throws {
        let server = try RedisServerProcess(password: "pw-\(UInt32.random(in: 0...UInt32.max))",
                                            extraArguments: ["--user", "alice", "on", ">s3cret", "~*", "&*", "+@all"])
        let withPassword = RedisConnection(configuration: server.configuration())
        defer { withPassword.close() }
        #expect(try withPassword.command("SET", "k", "1") == .status("OK"))

        let alice = RedisConnection(configuration: server.configuration(
            url: RedisURL(host: "127.0.0.1", port: server.port, username: "alice", password: "s3cret")))
        defer { alice.close() }
        #expect(try alice.command("ACL", "WHOAMI") == .string(Array("alice".utf8)))
    }

    @Test func wrongOrMissingPasswordIsRefusedWithoutShowingIt() throws {
        let server = try RedisServerProcess(password: "right-one")
        let wrong = RedisConnection(configuration: server.configuration(
            url: RedisURL(host: "127.0.0.1", port: server.port, password: "hunter2")))
        defer { wrong.close() }
        do {
            _ = try wrong.command("PING")
            Issue.record("a wrong password must be refused")
        } catch {
            guard case .handshakeFailed(_, let reason) = error else { Issue.record("got \(error)"); return }
            #expect(reason.contains("WRONGPASS"))
            #expect(!error.description.contains("hunter2"))
        }
        #expect(wrong.link.state == .down)
        #expect(wrong.link.lastError?.contains("hunter2") == false)

        // No password at all: connecting works, commands get NOAUTH error replies.
        let none = RedisConnection(configuration: server.configuration(url: RedisURL(host: "127.0.0.1", port: server.port)))
        defer { none.close() }
        guard case .error(let message) = try none.command("GET", "k") else { Issue.record("expected NOAUTH"); return }
        #expect(message.hasPrefix("NOAUTH"))
    }

    @Test func databaseFromTheURLIsSelected() throws {
        let server = try RedisServerProcess()
        let db3 = RedisConnection(configuration: server.configuration(url: RedisURL(host: "127.0.0.1", port: server.port, database: 3)))
        let db0 = RedisConnection(configuration: server.configuration())
        defer { db3.close(); db0.close() }
        #expect(try db3.command("SET", "where", "three") == .status("OK"))
        #expect(try db0.command("GET", "where") == .null)
        #expect(try db0.command("SELECT", "3") == .status("OK"))
        #expect(try db0.command("GET", "where") == .string(Array("three".utf8)))

        let tooHigh = RedisConnection(configuration: server.configuration(url: RedisURL(host: "127.0.0.1", port: server.port, database: 999)))
        defer { tooHigh.close() }
        #expect(throws: RedisError.self) { try tooHigh.command("PING") }
    }

    /// Nothing listening: the first command fails to connect, the next ones fail at once
    /// (`unavailable`) until the backoff delay has passed, then it tries again.
    @Test func unreachableRedisFailsFastWhileBackingOff() throws {
        let (fd, port) = try LoopbackSocket.bindEphemeral()   // bound, never listening: refused
        defer { _ = close(fd) }
        let config = RedisConfiguration(url: RedisURL(host: "127.0.0.1", port: Int(port)), connectTimeoutMs: 500,
                                        commandTimeoutMs: 500, backoff: ReconnectBackoff(initialMs: 5_000, maxMs: 5_000))
        let redis = RedisConnection(configuration: config)
        defer { redis.close() }
        #expect {
            try redis.command("PING")
        } throws: { error in
            guard case RedisError.connectFailed = error else { return false }
            return true
        }
        #expect {
            try redis.command("PING")
        } throws: { error in
            guard case RedisError.unavailable(_, let ms) = error else { return false }
            return ms > 0 && ms <= 5_000
        }
        #expect(redis.link.state == .down)
    }

    /// A command that gets no reply within the command timeout fails, and the connection is
    /// replaced: the next command works.
    @Test func commandTimeoutDropsTheConnection() throws {
        let server = try RedisServerProcess()
        let redis = RedisConnection(configuration: server.configuration())
        let other = RedisConnection(configuration: server.configuration())
        defer { redis.close(); other.close() }
        #expect(try redis.command("PING") == .status("PONG"))
        // BLPOP blocks server-side for 3 s; the client gives up after 1 s.
        #expect {
            try redis.command("BLPOP", "nothing", "3")
        } throws: { error in
            guard case RedisError.connectionLost = error else { return false }
            return true
        }
        #expect(redis.link.state == .down)
        #expect(try redis.command("PING") == .status("PONG"))
        #expect(try other.command("PING") == .status("PONG"))
    }
}
