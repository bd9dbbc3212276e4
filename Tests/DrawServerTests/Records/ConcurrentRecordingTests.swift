import DrawCore
import DrawData
@testable import DrawServer
import Foundation
import Testing

extension RealSocketTests {
    /// Many rooms drawing at once share the one storage thread: every draw must come out whole,
    /// in its own record, with its own rounds.
    @Suite struct ConcurrentRecordingTests {
        @Test func twentyRoomsDrawingAtOnceAreAllRecordedCompletely() throws {
            let dir = try TestDataDirectory()
            let store = try dir.open()
            let running = try RunningServer(store: store)
            let names = (1...20).map { String(format: "room-%02d", $0) }
            var viewers: [(name: String, key: String, ws: TestWebSocket)] = []
            for name in names {
                let key = try TestHTTP.createRoom(port: running.port, name: name)
                viewers.append((name, key, try TestWebSocket.joined(port: running.port, room: name)))
            }
            // Start them all before reading anything, so their writes interleave.
            for v in viewers {
                #expect(try TestHTTP.startDraw(port: running.port, room: v.name, key: v.key) == 202)
            }
            // Each socket buffers its own room's messages meanwhile; read them one room at a time.
            let transcripts = try viewers.map { try DrawTranscript.read(from: $0.ws) }

            #expect(Set(transcripts.map(\.drawId)).count == names.count, "every room has its own draw")
            for (name, t) in zip(names, transcripts) {
                #expect(t.endType == "finished", "\(name)")
                let record = try #require(try store.record(id: t.drawId), "\(name) was not recorded")
                #expect(record.room == name)
                #expect(record.status == .finished, "\(name)")
                #expect(record.commitment == t.commitment, "\(name)")
                #expect(record.seed?.hex == t.end["seed"] as? String, "\(name)")
                #expect(record.rounds.count == 10, "\(name)")
                #expect(record.rounds.map(\.pickIndex) == t.rounds.map { $0["index"] as? Int ?? -1 }, "\(name)")
                #expect(zip(record.rounds, t.rounds).allSatisfy { sameTime($0.sentAt, $1["sentAt"]) },
                        "\(name): recorded sentAt differs from the wire")
                #expect(sameTime(record.finishedAt, t.end["finishedAt"]), "\(name)")
                #expect(record.verify()?.isValid == true, "\(name)")
                let page = try store.list(room: name, page: DrawPageRequest())
                #expect(page.draws.map(\.drawId) == [t.drawId], "\(name) holds exactly its own draw")
            }
            #expect(running.stop())
        }
    }
}
