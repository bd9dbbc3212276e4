import DrawCore
import DrawPresentation
@testable import DrawServer
import Foundation
import Testing

/// The API's resources (`RoomsAPI`, `RoomEntrantsAPI`, `DrawsAPI`, `ScheduleAPI`, `RoomQRAPI`)
/// answering requests without a socket: each request is an exchange and a closure that keeps
/// the answer, on the room owners of an `OwnersFixture`.
@Suite struct APIResourceTests {
    /// What a request was answered: at once (returned) or later (through its `later`).
    final class Answer {
        var later: HTTPResponse?
        var laterCalls = 0
    }

    static func request(_ route: HTTPRoute, key: String? = nil, body: String = "", _ answer: Answer) -> APIRequest {
        let exchange = HTTPExchange(route: route, bearer: key, maxBody: 1 << 20)
        _ = exchange.setBody(Array(body.utf8))
        return APIRequest(exchange: exchange, later: {
            answer.laterCalls += 1
            return { answer.later = $0 }
        })
    }

    /// The answer, whether it came at once or later (the fixture's owners answer at once).
    static func answer(_ route: HTTPRoute, key: String? = nil, body: String = "",
                       _ handle: (APIRequest) -> HTTPResponse?) -> HTTPResponse? {
        let answer = Answer()
        let now = handle(request(route, key: key, body: body, answer))
        #expect(now == nil || answer.laterCalls == 0, "answered at once and later too")
        return now ?? answer.later
    }

    static func json(_ response: HTTPResponse?) -> [String: Any] {
        guard let body = response?.body,
              let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] else { return [:] }
        return object
    }

    static func rooms(_ owners: OwnersFixture) -> RoomsAPI {
        RoomsAPI(config: owners.config, clock: owners.clock, logger: .init(label: "test"), metrics: ServerMetrics(),
                 directory: owners.directory, broadcaster: owners.broadcaster, changes: owners.changes)
    }

    @Test func aRoomIsCreatedReadRekeyedAndDeletedByItsHost() throws {
        let owners = OwnersFixture()
        let rooms = Self.rooms(owners)
        let created = Self.answer(.rooms, body: #"{"name":"quiz"}"#) { rooms.create($0) }
        #expect(created?.status == 201)
        let key = try #require(Self.json(created)["hostKey"] as? String)
        #expect(Self.answer(.room("quiz")) { rooms.snapshot("quiz", $0) }?.status == 200)

        #expect(Self.answer(.roomKey("quiz"), key: "wrong") { rooms.rotateKey("quiz", $0) }?.status == 403)
        let rotated = Self.answer(.roomKey("quiz"), key: key) { rooms.rotateKey("quiz", $0) }
        #expect(rotated?.status == 200)
        let newKey = try #require(Self.json(rotated)["hostKey"] as? String)
        #expect(newKey != key)

        #expect(Self.answer(.room("quiz"), key: key) { rooms.delete("quiz", $0) }?.status == 403, "the old key is gone")
        let deleted = Self.answer(.room("quiz"), key: newKey) { rooms.delete("quiz", $0) }
        #expect(deleted?.status == 204 && deleted?.body.isEmpty == true)
        #expect(owners.directory["quiz"] == nil)
        #expect(Self.answer(.room("quiz")) { rooms.snapshot("quiz", $0) }?.status == 404)
    }

    @Test func aBadNameOrBodyIsAnsweredAtOnceWithoutWaiting() {
        let owners = OwnersFixture()
        let rooms = Self.rooms(owners), answer = Answer()
        #expect(rooms.snapshot("Not A Room!", Self.request(.room("Not A Room!"), answer))?.status == 404)
        #expect(rooms.create(Self.request(.rooms, body: "{", answer))?.status == 400)
        #expect(answer.laterCalls == 0, "nothing waits for an answer known at once")
    }

    @Test func roomCreationsAreLimitedPerAddress() {
        let owners = OwnersFixture { $0.roomCreationBurst = 1 }
        let rooms = Self.rooms(owners)
        #expect(rooms.refuseCreation(from: "192.0.2.1") == nil)
        let refused = rooms.refuseCreation(from: "192.0.2.1")
        #expect(refused?.status == 429 && refused?.closeAfter == true)
        #expect(refused?.extraHeader?.name == "Retry-After")
        #expect(rooms.refuseCreation(from: "192.0.2.2") == nil, "another address has its own budget")
    }

    @Test func aDrawIsStartedAndItsWinnersAskedForByTheHost() throws {
        let owners = OwnersFixture()
        let key = try #require(owners.createRoom("quiz"))
        let draws = DrawsAPI(directory: owners.directory, draws: owners.draws)
        #expect(Self.answer(.nextWinner("quiz"), key: key) { draws.nextWinner("quiz", $0) }?.status == 409,
                "no draw waits for the host")
        #expect(Self.answer(.redraws("quiz"), key: key, body: "[]") { draws.redraw("quiz", $0) }?.status == 400)
        #expect(Self.answer(.draws("quiz"), key: "wrong", body: "{}") { draws.start("quiz", $0) }?.status == 403)
        let room = try #require(owners.directory["quiz"])
        RoomOwnersTests.giveList(to: room)
        let started = Self.answer(.draws("quiz"), key: key, body: "{}") { draws.start("quiz", $0) }
        #expect(started?.status == 202 && Self.json(started)["room"] as? String == "quiz")
        RoomOwnersTests.runDraw(in: room, owners)
    }

    @Test func aRoomsOwnListIsReadAndRemovedWithItsKey() throws {
        let owners = OwnersFixture()
        let key = try #require(owners.createRoom("quiz"))
        let entrants = RoomEntrantsAPI(config: owners.config, directory: owners.directory, changes: owners.changes,
                                       storage: owners.storage)
        #expect(Self.answer(.roomEntrants("quiz"), key: "wrong") { entrants.read("quiz", $0) }?.status == 403)
        let none = Self.answer(.roomEntrants("quiz"), key: key) { entrants.read("quiz", $0) }
        #expect(none?.status == 200 && Self.json(none)["entrants"] is NSNull, "the operator's lists: null")
        RoomOwnersTests.giveList(to: try #require(owners.directory["quiz"]))
        let own = Self.answer(.roomEntrants("quiz"), key: key) { entrants.read("quiz", $0) }
        #expect(own?.status == 200 && !(Self.json(own)["entrants"] is NSNull))
        #expect(Self.answer(.roomEntrants("quiz"), key: key) { entrants.remove("quiz", $0) }?.status == 204)
    }

    @Test func anEntrantListsTypeIsTextOrJSON() {
        #expect(RoomEntrantsAPI.listFormat("text/plain; charset=utf-8") == .plainText)
        #expect(RoomEntrantsAPI.listFormat("application/json") == .jsonLists)
        #expect(RoomEntrantsAPI.listFormat("text/csv") == nil && RoomEntrantsAPI.listFormat(nil) == nil)
        let busy = RoomEntrantsAPI.refusedUpload(HostRefusal(.busy, nil))
        #expect(busy.status == 503 && busy.extraHeader?.name == "Retry-After")
    }

    @Test func nothingScheduledIsNothingToCancel() throws {
        let owners = OwnersFixture()
        let key = try #require(owners.createRoom("quiz"))
        let schedule = ScheduleAPI(directory: owners.directory, scheduler: owners.owners.scheduler)
        #expect(schedule.waiting(drawId: "0123456789abcdef0123456789abcdef") == nil, "the history answers")
        #expect(Self.answer(.roomSchedule("quiz"), key: key, body: "{}") { schedule.schedule("quiz", $0) }?.status == 400)
        let cancelled = Self.answer(.roomSchedule("quiz"), key: key) { schedule.cancel("quiz", $0) }
        #expect(cancelled.map { (400..<500).contains($0.status) } == true)
    }

    @Test func aRoomsQRCodeLinksToItsPageOnTheHostAsked() throws {
        let owners = OwnersFixture()
        _ = try #require(owners.createRoom("quiz"))
        let qr = RoomQRAPI(tls: true, directory: owners.directory)
        #expect(Self.answer(.roomQR("quiz")) { qr.svg("quiz", host: nil, $0) }?.status == 400)
        #expect(Self.answer(.roomQR("quiz")) { qr.svg("quiz", host: "a b", $0) }?.status == 400)
        #expect(Self.answer(.roomQR("nope")) { qr.svg("nope", host: "draw.example", $0) }?.status == 404)
        let svg = Self.answer(.roomQR("quiz")) { qr.svg("quiz", host: "draw.example", $0) }
        #expect(svg?.status == 200 && svg?.contentType == "image/svg+xml")
    }
}
