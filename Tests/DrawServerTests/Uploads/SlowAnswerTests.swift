import DrawCore
@testable import DrawServer
import Foundation
import Testing

extension RealSocketTests {
    /// Issue 31, finding 3: an API answer that takes longer than lws' own round-trip timeout still
    /// arrives, and the change it answers is applied exactly then (three concurrent 16 MB uploads
    /// got no answer at 10 s while their lists were kept). lws' timeout is shortened to 1 s here,
    /// and the list takes 2.5 s to read, so without the server's own, longer wait the connection
    /// would be closed before the answer.
    @Suite struct SlowAnswerTests {
        /// A list reader that takes its time, as a large list on a busy machine does.
        struct SlowReader: EntrantListReader {
            let limits = EntrantListLimits(maxEntrants: 100, maxNameCharacters: 100, maxNameBytes: 400, maxBodyBytes: 4096)
            let delay: TimeInterval

            func read(_ body: consuming [UInt8], as format: EntrantListFormat) throws(EntrantListError) -> RoomEntrants {
                Thread.sleep(forTimeInterval: delay) // the slow parse this test is about
                return RoomEntrants(players: RunningServer.players, warnings: [], sources: EntrantsOrigin.plainText)
            }
        }

        @Test func anAnswerSlowerThanLwsTimeoutArrivesWithTheChangeApplied() throws {
            let server = try RunningServer(configure: {
                $0.transportRoundTripSeconds = 1
                $0.entrantListReader = SlowReader(delay: 2.5)
            })
            let created = try TestHTTP.request(port: server.port, "POST", "/api/rooms", json: #"{"name":"slow"}"#)
            #expect(created.status == 201)
            let key = try #require(created.json?["hostKey"] as? String)

            let started = Date()
            let put = try TestHTTP.request(port: server.port, "PUT", "/api/rooms/slow/entrants",
                                           headers: ["Authorization": "Bearer \(key)", "Content-Type": "text/plain"],
                                           body: Array("Ann\nBo\n".utf8))
            let took = Date().timeIntervalSince(started)
            #expect(put.status == 200, "the answer came after \(took) s: \(put.status) \(put.text)")
            #expect(took >= 2.5, "the reader's time is in the answer")
            let room = try TestHTTP.request(port: server.port, "GET", "/api/rooms/slow")
            let info = (room.json?["info"] as? [String: Any]) ?? room.json
            #expect(info?["entrants"] as? Int == RunningServer.players.count, "the list the answer announced is the room's: \(room.text)")
            #expect(server.stop())
        }

        /// The same for a history read on the store's thread: it waited under lws' timeout, so a
        /// read held past it (a stalled disk, a slow Redis in cluster mode) lost its answer.
        @Test func aHistoryReadSlowerThanLwsTimeoutArrives() throws {
            let dir = try TestDataDirectory()
            let slow = FaultyStore(try dir.open(), failing: [])
            let server = try RunningServer(configure: { $0.transportRoundTripSeconds = 1 }, store: slow)
            slow.readDelay = 2.5
            let started = Date()
            let page = try TestHTTP.getJSON(port: server.port, "/api/rooms/lobby/draws")
            let took = Date().timeIntervalSince(started)
            #expect(page.status == 200, "the answer came after \(took) s")
            #expect(took >= 2.5, "the read's time is in the answer")
            #expect(page.json["draws"] as? [[String: Any]] != nil)
            #expect(server.stop())
        }
    }
}
