import DrawCore
import DrawData
import Foundation

/// A server recording into a real `SQLiteDrawStore` in a fresh data directory, with one viewer in
/// the lobby: the setup most storage tests share.
struct RecordingFixture {
    let dir: TestDataDirectory
    /// The store the server was given (wrapped in a `FaultyStore` when faults were asked for).
    let store: any DrawRecordStore
    let server: RunningServer
    let lobby: TestWebSocket

    init(intervalMs: Int = 20, busyTimeoutMs: Int = SQLiteDrawStore.Configuration.defaultBusyTimeoutMs,
         failing faults: Set<FaultyStore.Fault> = []) throws {
        dir = try TestDataDirectory()
        let real = try dir.open(busyTimeoutMs: busyTimeoutMs)
        store = faults.isEmpty ? real : FaultyStore(real, failing: faults)
        server = try RunningServer(configure: { $0.schedule = RoundSchedule(rounds: 10, pace: .fixed(intervalMs: intervalMs))! },
                                   store: store)
        lobby = try TestWebSocket.joined(port: server.port, room: "lobby")
    }

    var port: Int { server.port }

    /// Starts a lobby draw with the lobby key and reads it to its end (see `DrawTranscript.read`).
    func drawInLobby(onMessage: (_ type: String, _ message: [String: Any]) throws -> Void = { _, _ in }) throws -> DrawTranscript {
        let status = try TestHTTP.startDraw(port: port, room: "lobby", key: server.lobbyKey)
        guard status == 202 else { throw TestHTTP.Refused(status: status) }
        return try DrawTranscript.read(from: lobby, onMessage: onMessage)
    }
}
