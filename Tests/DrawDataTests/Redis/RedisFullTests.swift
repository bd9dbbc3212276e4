@testable import DrawData
import DrawCore
import Testing

/// Redis full (issue 44): its `-OOM` reply is told apart from an absent Redis and from other
/// error replies, and the eviction policy a node refuses is read from `CONFIG` or `INFO`.
@Suite(.enabled(if: RedisServerProcess.isInstalled, RedisServerProcess.skipMessage))
struct RedisFullTests {
    @Test func aWriteRefusedForWantOfMemoryIsFullAndReadsGoOn() throws {
        let server = try RedisServerProcess()
        let redis = RedisConnection(configuration: server.configuration())
        defer { redis.close() }
        #expect(try redis.command("CONFIG", "SET", "maxmemory", "1") == .status("OK"))

        #expect { _ = try redis.coordinate(["SET", "k", "v"]) } throws: { error in
            guard case CoordinationError.full(let message)? = error as? CoordinationError else { return false }
            return message.hasPrefix("OOM ")
        }
        // A script's write is refused alike (the lease's grant is one).
        let lease = RedisRoomLease(connection: redis)
        #expect { _ = try lease.acquire(room: "r", owner: "node-a/1", ttlMs: 3_000) } throws: { error in
            if case CoordinationError.full? = error as? CoordinationError { return true }
            return false
        }
        // Other error replies are not "full"; reads still answer.
        #expect { _ = try redis.coordinate(["NOSUCHCOMMAND"]) } throws: { error in
            if case CoordinationError.unexpectedReply? = error as? CoordinationError { return true }
            return false
        }
        #expect(try redis.coordinate(["GET", "k"]) == .null)
    }

    @Test func theEvictionPolicyIsReadFromConfigOrElseFromInfo() throws {
        let server = try RedisServerProcess()
        let redis = RedisConnection(configuration: server.configuration())
        defer { redis.close() }
        #expect(RedisEvictionPolicy.read(from: redis) == .noEviction)
        #expect(try redis.command("CONFIG", "SET", "maxmemory-policy", "allkeys-lru") == .status("OK"))
        #expect(RedisEvictionPolicy.read(from: redis) == .evicting("allkeys-lru"))

        let managed = try RedisServerProcess(extraArguments: ["--maxmemory-policy", "volatile-lru", "--rename-command", "CONFIG", ""])
        let denied = RedisConnection(configuration: managed.configuration())
        defer { denied.close() }
        #expect(RedisEvictionPolicy.read(from: denied) == .evicting("volatile-lru"))
        let refusal = RedisEvictionPolicy.evicting("volatile-lru").refusal(address: "127.0.0.1:6379")
        #expect(refusal == "Redis at 127.0.0.1:6379 has maxmemory-policy volatile-lru: the fence and the leases cannot survive eviction; set maxmemory-policy noeviction")
        #expect(RedisEvictionPolicy.noEviction.refusal(address: "x") == nil)
    }

    @Test func anUnreachableRedisLeavesThePolicyUnknown() throws {
        let server = try RedisServerProcess()
        let redis = RedisConnection(configuration: server.configuration())
        defer { redis.close() }
        server.stop()
        guard case .unknown = RedisEvictionPolicy.read(from: redis) else {
            Issue.record("an unreachable Redis must leave the policy unknown")
            return
        }
    }
}

/// The pure parts: which replies are "full", and what is made of a policy's name.
struct RedisFullParsingTests {
    @Test func outOfMemoryRepliesInEveryForm() {
        #expect(RedisReply.error("OOM command not allowed when used memory > 'maxmemory'.").isOutOfMemory)
        #expect(RedisReply.error("OOM command not allowed when used memory > 'maxmemory'. script: a29a, on @user_script:1.").isOutOfMemory)
        #expect(RedisReply.error("ERR Error running script (call to f_a29a): @user_script:1: -OOM command not allowed when used memory > 'maxmemory'").isOutOfMemory)
        #expect(!RedisReply.error("ERR unknown command 'OOM'").isOutOfMemory)
        #expect(!RedisReply.error("NOPERM this user has no permissions").isOutOfMemory)
        #expect(!RedisReply.string(Array("OOM command not allowed".utf8)).isOutOfMemory)
    }

    @Test func policiesAreReadFromBothAnswersAndShownPrintable() {
        #expect(RedisEvictionPolicy.configValue(.array([.string(Array("maxmemory-policy".utf8)), .string(Array("noeviction".utf8))])) == "noeviction")
        #expect(RedisEvictionPolicy.configValue(.error("ERR unknown command 'CONFIG'")) == nil)
        #expect(RedisEvictionPolicy.configValue(.array([])) == nil)
        #expect(RedisEvictionPolicy.infoField("# Memory\r\nused_memory:939488\r\nmaxmemory_policy:allkeys-lfu\r\n") == "allkeys-lfu")
        #expect(RedisEvictionPolicy.infoField("# Memory\r\nused_memory:939488\r\n") == nil)
        #expect(RedisEvictionPolicy.named("noeviction") == .noEviction)
        #expect(RedisEvictionPolicy.named("all\u{1B}[31mkeys\nlru") == .evicting("all[31mkeyslru"))
        #expect(RedisEvictionPolicy.named(String(repeating: "x", count: 500)) == .evicting(String(repeating: "x", count: 64)))
    }
}
