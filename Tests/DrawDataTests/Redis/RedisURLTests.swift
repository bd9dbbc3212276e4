@testable import DrawData
import Testing

/// `--redis-url` forms: what is accepted, what each refusal says, and that no message or
/// description ever shows the password.
struct RedisURLTests {
    @Test(arguments: [
        ("redis://localhost", RedisURL(host: "localhost")),
        ("redis://10.0.0.5:6380", RedisURL(host: "10.0.0.5", port: 6380)),
        ("redis://redis.internal:6379/3", RedisURL(host: "redis.internal", database: 3)),
        ("redis://host/", RedisURL(host: "host")),
        ("redis://:s3cret@host", RedisURL(host: "host", password: "s3cret")),
        ("redis://alice:s3cret@host:7000/1", RedisURL(host: "host", port: 7000, username: "alice", password: "s3cret", database: 1)),
        ("redis://alice:p%40ss%3Aw%2Fd@host", RedisURL(host: "host", username: "alice", password: "p@ss:w/d")),
        ("redis://:a/b?c#d@e@host", RedisURL(host: "host", password: "a/b?c#d@e")),
        ("redis://[::1]:6390", RedisURL(host: "::1", port: 6390)),
        ("redis://[::1]", RedisURL(host: "::1")),
    ])
    func accepted(_ text: String, _ expected: RedisURL) throws {
        #expect(try RedisURL(parsing: text) == expected)
    }

    @Test(arguments: [
        ("rediss://host", RedisURLError.tlsUnsupported),
        ("http://host", .unsupportedScheme("http")),
        ("localhost:6379", .notRedisURL),
        ("", .notRedisURL),
        ("redis://", .badHost("missing")),
        ("redis://host?db=1", .queryOrFragment),
        ("redis://s3cret@host", .userWithoutPassword),
        ("redis://alice:@host", .userWithoutPassword),
        ("redis://:@host", .emptyCredentials),
        ("redis://:bad%zzpass@host", .badPercentEncoding(part: "password")),
        ("redis://host:0", .badPort),
        ("redis://host:65536", .badPort),
        ("redis://host:-1", .badPort),
        ("redis://host:", .badPort),
        ("redis://host/x", .badDatabase),
        ("redis://host/-1", .badDatabase),
        ("redis://host/99999999999", .badDatabase),
        ("redis://ho st", .badHost("only letters, digits, '-', '.' and '_' (IPv6 goes in brackets)")),
        ("redis://[::1", .badHost("unclosed '['")),
        ("redis://[host]", .badHost("not an IPv6 address in brackets")),
    ])
    func refused(_ text: String, _ expected: RedisURLError) {
        #expect(throws: expected) { try RedisURL(parsing: text) }
    }

    @Test func tlsRefusalSaysWhyAndWhatToDo() {
        let message = RedisURLError.tlsUnsupported.description
        #expect(message.contains("hiredis 0.14 has no TLS"))
        #expect(message.contains("tunnel"))
    }

    /// A password never shows: not in the description, not in any refusal, wherever it was put.
    @Test(arguments: [
        "redis://alice:hunter2@host:6379/2",
        "redis://:hunter2@host",
        "redis://hunter2@host",
        "redis://host:hunter2",
        "redis://host/hunter2",
        "redis://alice:hunter2@host:99999",
        "redis://alice:hunter2%@host",
    ])
    func passwordNeverShown(_ text: String) {
        do {
            let url = try RedisURL(parsing: text)
            #expect(!url.description.contains("hunter2"))
        } catch {
            #expect(!error.description.contains("hunter2"), "\(error)")
        }
    }

    @Test func descriptionMasksThePasswordAndKeepsTheRest() throws {
        #expect(try RedisURL(parsing: "redis://alice:hunter2@host:7000/2").description == "redis://alice:***@host:7000/2")
        #expect(try RedisURL(parsing: "redis://:hunter2@host").description == "redis://:***@host:6379")
        #expect(try RedisURL(parsing: "redis://[::1]").description == "redis://[::1]:6379")
    }
}
