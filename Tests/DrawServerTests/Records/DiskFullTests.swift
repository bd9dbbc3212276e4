import DrawCore
import DrawData
@testable import DrawServer
import Foundation
import Testing

extension RealSocketTests {
    /// Issue 11, finding 7: the disk fills up mid-draw. Viewers get `aborted storage_failure` with
    /// the seed; the history must agree with them at once, and the record must say so on disk as
    /// soon as the store takes writes again.
    @Suite struct DiskFullTests {
        @Test func theHistorySaysAbortedWhileTheDiskIsFullAndOnDiskOnceItIsNot() throws {
            let dir = try TestDataDirectory()
            let real = try dir.open()
            let faulty = FaultyStore(real, failing: [])
            let server = try RunningServer(configure: { $0.schedule = RoundSchedule(rounds: 10, pace: .fixed(intervalMs: 50))! },
                                           store: faulty)
            let lobby = try TestWebSocket.joined(port: server.port, room: "lobby")
            #expect(try TestHTTP.startDraw(port: server.port, room: "lobby", key: server.lobbyKey) == 202)
            let t = try DrawTranscript.read(from: lobby) { type, m in
                // From round 2 on, every write fails: the next stamp, then the abort's own record.
                if type == "round", m["round"] as? Int == 2 { faulty.isFull = true }
            }
            #expect(t.endType == "aborted")
            #expect(t.end["reason"] as? String == "storage_failure")
            let seed = try #require(t.end["seed"] as? String)

            // The disk is still full: the file still says running...
            #expect(try real.record(id: t.drawId)?.status == .running)
            // ...but the history, asked after viewers were told, never does.
            for _ in 0..<3 {
                let record = try TestHTTP.getJSON(port: server.port, "/api/draws/\(t.drawId)")
                #expect(record.status == 200)
                #expect(record.json["status"] as? String == "aborted")
                #expect(record.json["seed"] as? String == seed)
                #expect(record.json["abortReason"] as? String == "storage_failure")
                #expect(record.json["verified"] as? Bool == true)
                let page = try TestHTTP.getJSON(port: server.port, "/api/rooms/lobby/draws")
                let first = (page.json["draws"] as? [[String: Any]])?.first
                #expect(first?["drawId"] as? String == t.drawId)
                #expect(first?["status"] as? String == "aborted")
            }
            let servedWhileFull = try TestHTTP.getJSON(port: server.port, "/api/draws/\(t.drawId)").json

            // Space again: the next write that gets through (the next draw's start) is followed by
            // the kept abort, without a restart. (An idle server retries on its own: see below.)
            faulty.isFull = false
            #expect(try TestHTTP.startDraw(port: server.port, room: "lobby", key: server.lobbyKey) == 202)
            let next = try DrawTranscript.read(from: lobby)
            #expect(next.endType == "finished")
            let onDisk = try #require(try real.record(id: t.drawId))
            #expect(onDisk.status == .aborted)
            #expect(onDisk.seed?.hex == seed)
            #expect(onDisk.abortReason == "storage_failure")
            // And the file now says exactly what was served from memory meanwhile.
            let served = try TestHTTP.getJSON(port: server.port, "/api/draws/\(t.drawId)").json
            for key in Set(served.keys).union(servedWhileFull.keys) {
                let now = try Self.canonical(served[key]), before = try Self.canonical(servedWhileFull[key])
                #expect(now == before, "\(key): \(now) on disk, \(before) while full")
            }
            #expect(server.stop())
        }

        /// With nothing else to write, the storage thread tries the kept abort again on its own.
        @Test func anIdleStorageThreadWritesTheKeptAbortOnceThereIsRoom() throws {
            let dir = try TestDataDirectory()
            let real = try dir.open()
            let faulty = FaultyStore(real, failing: [])
            let store = RecoveringDrawStore(faulty)
            let thread = StorageThread(name: "test storage", store: store, retryInterval: 0.02)
            defer { thread.finish() }
            let plan = GroupCommitTests.plan(1)
            let results = GroupCommitTests.Results(expecting: 2)
            thread.submit(GroupCommitTests.started(plan), done: results.done(0))
            let full = DispatchSemaphore(value: 0)
            thread.submit { faulty.isFull = true; full.signal() }
            thread.submit(.finish(drawId: plan.drawId, ending: .aborted(reason: "storage_failure"), finishedAt: 9,
                                  seed: plan.seed), done: results.done(1))
            #expect(results.wait())
            #expect(results.errors[0] == nil && results.errors[1] != nil, "the abort failed: the disk is full")
            #expect(full.wait(timeout: .now() + 10) == .success)
            #expect(Self.status(of: plan.drawId, in: store, on: thread) == .aborted, "served from memory meanwhile")
            #expect(try real.record(id: plan.drawId)?.status == .running)

            faulty.isFull = false
            let deadline = Date().addingTimeInterval(20)
            // Both, not just the row: the storage thread forgets the kept abort right after the
            // write commits, so the row can be visible a moment before `pendingAborts` is empty.
            while try real.record(id: plan.drawId)?.status == .running || !store.pendingAborts.isEmpty,
                  Date() < deadline {
                Thread.sleep(forTimeInterval: 0.01)
            }
            let record = try #require(try real.record(id: plan.drawId))
            #expect(record.status == .aborted && record.finishedAt == 9 && record.seed == plan.seed)
            #expect(store.pendingAborts.isEmpty)
        }

        /// A record's status as `store` serves it, read on the storage thread: the only thread that
        /// may call it (debug builds trap on any other).
        private static func status(of drawId: String, in store: RecoveringDrawStore,
                                   on thread: StorageThread) -> DrawStatus? {
            final class Answer: @unchecked Sendable { var status: DrawStatus? } // written before `done`
            let answer = Answer(), done = DispatchSemaphore(value: 0)
            #expect(thread.submit { answer.status = try? store.record(id: drawId)?.status; done.signal() })
            #expect(done.wait(timeout: .now() + 10) == .success)
            return answer.status
        }

        /// A JSON value as text with sorted keys, so two decodings compare by content.
        private static func canonical(_ value: Any?) throws -> String {
            guard let value else { return "-" }
            let data = try JSONSerialization.data(withJSONObject: [value], options: [.sortedKeys, .fragmentsAllowed])
            return String(decoding: data, as: UTF8.self)
        }
    }
}
