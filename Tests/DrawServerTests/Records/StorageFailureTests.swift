import CSQLite
import DrawCore
@testable import DrawData
@testable import DrawServer
import Foundation
import Testing

extension RealSocketTests {
    /// A draw whose record cannot be kept is never carried on: it fails before it is published,
    /// or it is aborted cleanly — and the server goes on serving.
    @Suite struct StorageFailureTests {
        @Test func aPlanThatCannotBeRecordedIsNeverPublished() throws {
            let f = try RecordingFixture(failing: [.start])
            let failed = try f.drawInLobby()
            #expect(failed.endType == "failed")
            #expect(failed.started == nil, "no commitment without its seed on disk")
            #expect(failed.end["code"] as? String == "storage_failure")
            #expect((failed.end["message"] as? String)?.contains("sqlite") == false, "no file paths for viewers")

            // The room is idle again and the next draw is recorded.
            #expect(try f.drawInLobby().endType == "finished")
            let page = try TestHTTP.getJSON(port: f.port, "/api/rooms/lobby/draws")
            let statuses = (page.json["draws"] as? [[String: Any]])?.map { $0["status"] as? String }
            #expect(statuses == ["finished", "failed"])
            let codes = (page.json["draws"] as? [[String: Any]])?.map { $0["failureCode"] as? String }
            #expect(codes == [nil, "storage_failure"])
            #expect(f.server.stop())
        }

        @Test func aRoundThatCannotBeRecordedAbortsTheDraw() throws {
            let f = try RecordingFixture(failing: [.round(3)])
            let t = try f.drawInLobby()
            #expect(t.endType == "aborted")
            #expect(t.end["reason"] as? String == "storage_failure")
            let seed = try #require(t.end["seed"] as? String)
            #expect(Seed(hex: seed)?.commitment == t.commitment)
            #expect((t.end["roundsShown"] as? Int ?? 0) >= 3)

            // The server goes on: a draw in another room runs to its end and is recorded.
            try expectAnotherRoomDraws(f.server)
            // The abort's record was queued before that draw's start, so it is on disk by now.
            let record = try #require(try f.store.record(id: t.drawId))
            #expect(record.status == .aborted)
            #expect(record.abortReason == "storage_failure")
            let firstTwoShown = record.rounds.prefix(2).allSatisfy(\.wasShown)
            #expect(firstTwoShown)
            #expect(record.rounds[2].sentAt == nil, "the failed stamp left nothing behind")
            #expect(record.verify()?.isValid == true)
            #expect(f.server.stop())
        }

        @Test func aResultThatCannotBeRecordedIsNotAnnounced() throws {
            let f = try RecordingFixture(failing: [.finish])
            let t = try f.drawInLobby()
            #expect(t.endType == "aborted")
            #expect(t.end["reason"] as? String == "storage_failure")
            #expect(t.end["roundsShown"] as? Int == 10)
            try expectAnotherRoomDraws(f.server)
            let record = try #require(try f.store.record(id: t.drawId))
            #expect(record.status == .aborted)
            #expect(record.outcome == nil)
            #expect(f.server.stop())
        }

        /// The real thing: another connection holds the database's write lock past the busy timeout.
        @Test func aLockedDatabaseAbortsTheDrawAndTheServerRecovers() throws {
            let f = try RecordingFixture(intervalMs: 50, busyTimeoutMs: 100)
            // It waits for a write in progress to end, then holds the lock.
            let other = try SQLiteConnection(path: f.dir.databasePath, flags: SQLITE_OPEN_READWRITE, busyTimeoutMs: 5000)
            var locked = false
            let t = try f.drawInLobby { type, m in
                // From round 2 on, every write waits 100 ms and fails: the next round's stamp or,
                // on a very slow machine, the result's. Either way the draw must end aborted.
                if type == "round", m["round"] as? Int == 2 {
                    try other.execute("BEGIN EXCLUSIVE")
                    locked = true
                }
            }
            #expect(locked)
            #expect(t.endType == "aborted")
            #expect(t.end["reason"] as? String == "storage_failure")
            #expect(Seed(hex: t.end["seed"] as? String ?? "")?.commitment == t.commitment)
            try other.execute("ROLLBACK")

            try expectAnotherRoomDraws(f.server)
            // Its abort may or may not have got through before the lock was released; it was
            // never recorded as finished.
            let record = try #require(try f.store.record(id: t.drawId))
            #expect(record.status != .finished)
            #expect(f.server.stop())
        }

        /// A new room's draw runs to `finished` and is recorded as finished.
        private func expectAnotherRoomDraws(_ running: RunningServer,
                                            sourceLocation: SourceLocation = #_sourceLocation) throws {
            let name = "room-\(UUID().uuidString.prefix(8).lowercased())"
            let key = try TestHTTP.createRoom(port: running.port, name: name)
            let ws = try TestWebSocket.joined(port: running.port, room: name)
            #expect(try TestHTTP.startDraw(port: running.port, room: name, key: key) == 202, sourceLocation: sourceLocation)
            let t = try DrawTranscript.read(from: ws)
            #expect(t.endType == "finished", sourceLocation: sourceLocation)
            let record = try TestHTTP.getJSON(port: running.port, "/api/draws/\(t.drawId)")
            #expect(record.json["status"] as? String == "finished", sourceLocation: sourceLocation)
            #expect(record.json["room"] as? String == name, sourceLocation: sourceLocation)
        }
    }
}
