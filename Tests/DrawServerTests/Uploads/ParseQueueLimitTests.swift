import DrawCore
@testable import DrawServer
import Foundation
import Testing

extension RealSocketTests {
    /// Issue 31, finding 2, through the real server: two lists parse at once, eight wait, the
    /// next is answered `503 busy` with `Retry-After` at once, and a list that cannot be read by
    /// its deadline is answered `503 busy` with nothing changed. The parses are held by the test
    /// (`GatedReader`): each blocks its own parse thread, never a thread of Swift's pool, which
    /// is what lets a test hold two of them at all (the pool has two threads here). The deadline
    /// is passed by moving the server's clock, not by waiting 20 s.
    @Suite struct ParseQueueLimitTests {
        /// A reader whose parses start when the server lets them and end when the test does.
        /// Each upload's body is its room's name, so the test knows which parse is which.
        final class GatedReader: EntrantListReader, @unchecked Sendable {
            let limits = EntrantListLimits(maxEntrants: 100, maxNameCharacters: 100, maxNameBytes: 400, maxBodyBytes: 4096)
            private let lock = NSLock()
            private var gates: [String: DispatchSemaphore] = [:] // guarded by lock
            private(set) var startedRooms: [String] { get { lock.withLock { started } } set { lock.withLock { started = newValue } } }
            private var started: [String] = [] // guarded by lock
            private let startedSignal = DispatchSemaphore(value: 0)

            func read(_ body: consuming [UInt8], as format: EntrantListFormat) throws(EntrantListError) -> RoomEntrants {
                let room = String(decoding: body, as: UTF8.self)
                let gate = DispatchSemaphore(value: 0)
                lock.withLock {
                    gates[room] = gate
                    started.append(room)
                }
                startedSignal.signal()
                // Blocks this parse's own thread until the test lets it end (bounded, so a
                // failing test cannot hang the run).
                _ = gate.wait(timeout: .now() + 10)
                return RoomEntrants(players: [Player(userId: 1, name: room, username: "", regDate: CalendarDate(iso: "2024-01-01")!, isVoid: false)],
                                    warnings: [], sources: EntrantsOrigin.plainText)
            }

            /// Waits until `count` parses have started in all; false after 5 s.
            func waitForStarts(_ count: Int) -> Bool {
                while startedRooms.count < count {
                    guard startedSignal.wait(timeout: .now() + 5) == .success else { return false }
                }
                return true
            }

            /// Lets the parse of `room` end.
            func finish(_ room: String) {
                lock.withLock { gates[room] }?.signal()
            }
        }

        /// One upload on a thread of its own; its answer is kept for the test.
        final class Upload: @unchecked Sendable {
            let room: String
            private let done = DispatchSemaphore(value: 0)
            private let lock = NSLock()
            private var answer: Result<TestHTTP.Response, any Error>? // guarded by lock

            /// - Parameter any: signalled too when the answer comes, shared by several uploads.
            init(port: Int, room: String, key: String, any: DispatchSemaphore? = nil) {
                self.room = room
                Thread.detachNewThread { [self] in
                    let r = Result { () throws -> TestHTTP.Response in
                        try TestHTTP.request(port: port, "PUT", "/api/rooms/\(room)/entrants",
                                             headers: ["Authorization": "Bearer \(key)", "Content-Type": "text/plain"],
                                             body: Array(room.utf8))
                    }
                    lock.withLock { answer = r }
                    done.signal()
                    any?.signal()
                }
            }

            /// The answer, once it came (at most 5 s from now).
            func response() -> TestHTTP.Response? {
                guard done.wait(timeout: .now() + 5) == .success else { return nil }
                done.signal() // others may ask again
                return lock.withLock { try? answer?.get() }
            }

            var answered: Bool { lock.withLock { answer != nil } }
        }

        @Test func twoParseEightWaitTheNextIs503AndALateOneChangesNothing() throws {
            let reader = GatedReader()
            let clock = ShiftableClock()
            let server = try RunningServer(configure: {
                $0.entrantListReader = reader
                $0.roomCreationBurst = 100
                $0.rateLimitBurst = 1000
            }, clock: clock)
            let rooms = (1...11).map { "parse\($0)" }
            var keys: [String: String] = [:]
            for room in rooms {
                let created = try TestHTTP.request(port: server.port, "POST", "/api/rooms", json: #"{"name":"\#(room)"}"#)
                keys[room] = try #require(created.json?["hostKey"] as? String, "\(created.status) \(created.text)")
            }
            func entrants(_ room: String) throws -> Any? {
                let r = try TestHTTP.request(port: server.port, "GET", "/api/rooms/\(room)")
                let info = (r.json?["info"] as? [String: Any]) ?? r.json
                return info?["entrants"].flatMap { $0 is NSNull ? nil : $0 }
            }

            // Two parses run.
            let first = rooms[0..<2].map { Upload(port: server.port, room: $0, key: keys[$0]!) }
            #expect(reader.waitForStarts(2))
            // Nine more arrive together: eight wait, and whichever comes last is refused at once.
            let anyAnswer = DispatchSemaphore(value: 0)
            let rest = rooms[2...].map { Upload(port: server.port, room: $0, key: keys[$0]!, any: anyAnswer) }
            #expect(anyAnswer.wait(timeout: .now() + 5) == .success, "one of the eleven was answered at once")
            let refused = rest.first { $0.answered }
            let full = try #require(refused?.response(), "one of the eleven was answered at once")
            #expect(full.status == 503)
            #expect((full.json?["error"] as? [String: Any])?["code"] as? String == "busy", "\(full.text)")
            #expect(full.headers["retry-after"] == "5")
            #expect(reader.startedRooms.count == 2, "the third waits while two parse: \(reader.startedRooms)")
            #expect(rest.filter(\.answered).count == 1, "the eight others wait")

            // The first ends in time: kept and answered; the oldest waiting one starts.
            reader.finish(rooms[0])
            let kept = try #require(first[0].response())
            #expect(kept.status == 200, "\(kept.text)")
            #expect(try entrants(rooms[0]) as? Int == 1)
            #expect(reader.waitForStarts(3))
            let third = reader.startedRooms[2]

            // Past the deadline: the two running come back late, the seven waiting never start.
            clock.advance(seconds: 21)
            reader.finish(rooms[1])
            reader.finish(third)
            let late = [first[1]] + rest.filter { $0 !== refused }
            for upload in late {
                let r = try #require(upload.response(), "\(upload.room) was answered")
                #expect(r.status == 503, "\(upload.room): \(r.status) \(r.text)")
                #expect((r.json?["error"] as? [String: Any])?["code"] as? String == "busy", "\(r.text)")
                #expect(r.headers["retry-after"] == "5")
                #expect(try entrants(upload.room) == nil, "\(upload.room)'s list is unchanged")
            }
            #expect(reader.startedRooms.count == 3, "no parse started after its deadline: \(reader.startedRooms)")
            #expect(try entrants(refused!.room) == nil)
            // A refused or late upload left its room free to change again.
            let again = Upload(port: server.port, room: rooms[1], key: keys[rooms[1]]!)
            #expect(reader.waitForStarts(4))
            reader.finish(rooms[1])
            #expect(again.response()?.status == 200)
            #expect(server.stop())
        }
    }
}
