import Foundation
import LiveDrawCLI
import Logging
import Testing

struct JSONLogHandlerTests {
    /// Collects what the handler writes.
    private final class Lines: @unchecked Sendable {
        private let lock = NSLock()
        private var items: [String] = []
        var all: [String] { lock.withLock { items } }
        func add(_ s: String) { lock.withLock { items.append(s) } }
    }

    private func object(_ line: String) throws -> [String: Any] {
        #expect(line.hasSuffix("\n") && line.dropLast().firstIndex(of: "\n") == nil, "one line: \(line)")
        return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    @Test func oneObjectPerLineWithTheFiveFields() throws {
        let lines = Lines()
        var handler = JSONLogHandler(label: "live-draw", sink: .init(write: lines.add))
        handler.logLevel = .info
        handler[metadataKey: "node"] = "a"
        let logger = Logger(label: "live-draw", factory: { _ in handler })
        logger.debug("not shown")
        logger.notice("listening", metadata: ["port": "8080", "tls": .stringConvertible(false),
                                              "list": ["x", "y"], "nested": ["k": "v"]])
        #expect(lines.all.count == 1)
        let o = try object(lines.all[0])
        #expect(Set(o.keys) == ["timestamp", "level", "label", "message", "metadata"])
        #expect(o["level"] as? String == "notice")
        #expect(o["label"] as? String == "live-draw")
        #expect(o["message"] as? String == "listening")
        let metadata = try #require(o["metadata"] as? [String: Any])
        #expect(metadata["port"] as? String == "8080")
        #expect(metadata["tls"] as? String == "false")
        #expect(metadata["node"] as? String == "a")
        #expect(metadata["list"] as? [String] == ["x", "y"])
        #expect(metadata["nested"] as? [String: String] == ["k": "v"])
        let stamp = try #require(o["timestamp"] as? String)
        #expect(stamp.contains(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/))
    }

    @Test func anyMessageStaysOneValidLine() throws {
        let nasty = "quote \" backslash \\ newline \n cr \r tab \t nul \u{0} bell \u{7} ls \u{2028} ps \u{2029} é 🎲"
        let line = JSONLogHandler.line(timestamp: Date(timeIntervalSince1970: 0), level: .error, label: "l",
                                       message: nasty, metadata: [nasty: .string(nasty)])
        let o = try object(line)
        #expect(o["message"] as? String == nasty)
        #expect((o["metadata"] as? [String: String])?[nasty] == nasty)
        #expect(o["timestamp"] as? String == "1970-01-01T00:00:00.000Z")
    }

    @Test func timestampsAreUTCWithMilliseconds() {
        let line = JSONLogHandler.line(timestamp: Date(timeIntervalSince1970: 1_795_444_607.123_9), level: .info,
                                       label: "l", message: "m", metadata: [:])
        #expect(line.hasPrefix(#"{"timestamp":"2026-11-23T14:36:47.123Z","level":"info","label":"l","message":"m","metadata":{}}"#))
    }
}
