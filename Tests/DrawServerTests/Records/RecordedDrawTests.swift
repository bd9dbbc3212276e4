import DrawCore
import DrawData
@testable import DrawServer
import Foundation
import Testing

extension RealSocketTests {
    /// A real server recording into a real `SQLiteDrawStore`: what is on disk at each moment a
    /// viewer sees something, and what the record API serves.
    @Suite struct RecordedDrawTests {
        @Test func aDrawIsOnDiskBeforeItIsPublishedAndFinishedBeforeItIsAnnounced() throws {
            let f = try RecordingFixture()
            let store = f.store
            var atStart: DrawRecord?
            var atEnd: DrawRecord?
            let t = try f.drawInLobby { type, m in
                let id = m["drawId"] as? String ?? ""
                if type == "started" { atStart = try store.record(id: id) }
                if type == "finished" { atEnd = try store.record(id: id) }
            }
            #expect(t.endType == "finished")

            // When `started` reached a viewer, the plan was on disk: running, seed kept back.
            let start = try #require(atStart)
            #expect(start.status == .running)
            #expect(start.seed == nil)
            #expect(start.room == "lobby")
            #expect(start.commitment == t.commitment)
            #expect(start.entrantsHash == t.started?["entrantsHash"] as? String)
            #expect(start.entrants == RunningServer.players)
            #expect(start.sources == RunningServer.sources)
            // Its startedAt is still when the draw was planned: `started` is stamped when it
            // actually goes out, after this write, and that stamp is recorded right behind it.
            let wireStartedAt = try #require(t.started?["startedAt"] as? Double)
            #expect(try #require(start.startedAt) <= wireStartedAt + 0.001)
            #expect(sameTime(start.createdAt, t.loading?["at"]))

            // When `finished` reached a viewer, the result was on disk, with every round as sent.
            let end = try #require(atEnd)
            #expect(end.status == .finished)
            #expect(sameTime(end.startedAt, t.started?["startedAt"]), "the wire's startedAt, recorded")
            #expect(end.seed?.hex == t.end["seed"] as? String)
            #expect(sameTime(end.finishedAt, t.end["finishedAt"]))
            #expect(end.rounds.map(\.pickIndex) == t.end["picks"] as? [Int])
            #expect(end.rounds.count == 10)
            for (recorded, sent) in zip(end.rounds, t.rounds) {
                #expect(recorded.round == sent["round"] as? Int)
                #expect(recorded.pickIndex == sent["index"] as? Int)
                #expect(sameTime(recorded.sentAt, sent["sentAt"]))
            }
            let drawn = try #require(t.end["drawn"] as? [String: Any])
            #expect(end.outcome?.drawn.userId == drawn["userId"] as? Int)
            #expect(end.verify()?.isValid == true)
            #expect(f.server.stop())
        }

        @Test func theRecordAPIServesTheFinishedDrawForVerification() throws {
            let f = try RecordingFixture()
            let t = try f.drawInLobby()
            let (status, record) = try TestHTTP.getJSON(port: f.port, "/api/draws/\(t.drawId)")
            #expect(status == 200)
            #expect(record["drawId"] as? String == t.drawId)
            #expect(record["room"] as? String == "lobby")
            #expect(record["status"] as? String == "finished")
            #expect(record["verified"] as? Bool == true)
            #expect(record["seed"] as? String == t.end["seed"] as? String)
            #expect(record["commitment"] as? String == t.commitment)
            #expect(record["entrantsHash"] as? String == t.end["entrantsHash"] as? String)
            #expect(record["picks"] as? [Int] == t.end["picks"] as? [Int])
            #expect(record["outcome"] as? String == t.end["outcome"] as? String)
            #expect(record["roundsShown"] as? Int == 10)
            #expect((record["schedule"] as? [String: Any])?["rounds"] as? Int == 10)
            let sources = record["sources"] as? [String: Any]
            #expect(sources?["usersUrl"] as? String == RunningServer.sources.usersURL)
            #expect(sources?["lotteryUrl"] as? String == RunningServer.sources.lotteryURL)
            let rounds = try #require(record["rounds"] as? [[String: Any]])
            #expect(rounds.map { $0["sentAt"] as? Double } == t.sentAts.map { Optional($0) })
            #expect(rounds.map { $0["index"] as? Int } == t.rounds.map { $0["index"] as? Int })
            #expect(f.server.stop())
        }

        @Test func aRunningDrawNeverShowsItsSeed() throws {
            let f = try RecordingFixture(intervalMs: 60)
            var whileRunning: [String] = []
            let t = try f.drawInLobby { type, m in
                guard type == "round", m["round"] as? Int == 2, let id = m["drawId"] as? String else { return }
                let record = try TestHTTP.request(port: f.port, "GET", "/api/draws/\(id)")
                let history = try TestHTTP.request(port: f.port, "GET", "/api/rooms/lobby/draws")
                let snapshot = try TestHTTP.request(port: f.port, "GET", "/api/rooms/lobby")
                whileRunning = [record.text, history.text, snapshot.text]

                let json = try #require(record.json)
                #expect(json["status"] as? String == "running")
                #expect(json["seed"] is NSNull)
                #expect(json["verified"] is NSNull)
                #expect(json["outcome"] is NSNull)
                #expect(json["finishedAt"] is NSNull)
                // Only rounds already shown, each with its sentAt; round 2 was stamped before this
                // read, which queued behind it on the storage thread.
                let rounds = try #require(json["rounds"] as? [[String: Any]])
                #expect(rounds.count >= 2)
                #expect(rounds.allSatisfy { $0["sentAt"] is Double })
                let summary = (history.json?["draws"] as? [[String: Any]])?.first
                #expect(summary?["status"] as? String == "running")
                #expect(summary?["outcome"] is NSNull)
            }
            #expect(t.endType == "finished")
            let seed = try #require(t.end["seed"] as? String)
            #expect(whileRunning.count == 3)
            for body in whileRunning + t.before {
                #expect(!body.contains(seed), "seed out before finished: \(body.prefix(200))")
            }
            #expect(f.server.stop())
        }

        @Test func shutdownRecordsTheAbortAndClosesTheStore() throws {
            let f = try RecordingFixture(intervalMs: 300)
            try TestHTTP.startDraw(port: f.port, room: "lobby", key: f.server.lobbyKey)
            let started = try f.lobby.receive(type: "started")
            _ = try f.lobby.receive(type: "round")
            f.server.server.stop()
            let aborted = try f.lobby.receive(type: "aborted")
            #expect(aborted["reason"] as? String == "server_shutdown")
            #expect(try f.lobby.receiveClose().code == 1001)
            #expect(f.server.waitForRunToReturn(timeout: 10))

            // Opening again works only because the server closed the store (its lock is free).
            let store = try f.dir.open()
            defer { store.close() }
            let record = try #require(try store.record(id: started["drawId"] as? String ?? ""))
            #expect(record.status == .aborted)
            #expect(record.abortReason == "server_shutdown")
            #expect(record.seed?.hex == aborted["seed"] as? String)
            #expect(record.roundsShown == aborted["roundsShown"] as? Int)
            #expect(record.verify()?.isValid == true)
        }

        @Test func aFailedLoadIsRecordedAsFailed() throws {
            let dir = try TestDataDirectory()
            let store = try dir.open()
            let running = try RunningServer(store: store, loadPlayers: { () async throws(DrawError) -> MergeResult in
                throw DrawError.noPlayers(warnings: [.unknownUser(userId: 999)])
            })
            let ws = try TestWebSocket.joined(port: running.port, room: "lobby")
            try TestHTTP.startDraw(port: running.port, room: "lobby", key: running.lobbyKey)
            let t = try DrawTranscript.read(from: ws)
            #expect(t.endType == "failed")
            // The failed record is written after the broadcast; a read queues behind it.
            let (status, page) = try TestHTTP.getJSON(port: running.port, "/api/rooms/lobby/draws")
            #expect(status == 200)
            let summary = try #require((page["draws"] as? [[String: Any]])?.first)
            #expect(summary["status"] as? String == "failed")
            #expect(summary["failureCode"] as? String == "no_players")
            #expect(summary["commitment"] is NSNull)
            let (_, record) = try TestHTTP.getJSON(port: running.port, "/api/draws/\(summary["drawId"] as? String ?? "")")
            #expect((record["failure"] as? [String: Any])?["code"] as? String == "no_players")
            #expect((record["warnings"] as? [[String: Any]])?.first?["userId"] as? Int == 999)
            #expect(record["verified"] is NSNull)
            #expect(running.stop())
        }
    }
}

/// A recorded time equals a wire time, which carries three decimals.
func sameTime(_ recorded: Double?, _ wire: Any?) -> Bool {
    guard let recorded, let wire = wire as? Double else { return false }
    return abs(recorded - wire) < 0.001
}
