import DrawCore
import DrawData
import Foundation
import Testing

/// Repositories and `LoadPlayers` end to end over the test server and `file://`.
struct RepositoryTests {
    private func defaultsServer(extra: [String: TestHTTPServer.Reply] = [:]) throws -> TestHTTPServer {
        var routes = extra
        routes["/users.json"] = .status(200, body: try Fixtures.contents(Fixtures.usersPath))
        routes["/usersInLottery.json"] = .status(200, body: try Fixtures.contents(Fixtures.lotteryPath))
        return try TestHTTPServer(routes: routes)
    }

    @Test func usersListParsesIntoUsers() async throws {
        let server = try defaultsServer()
        let repository = HTTPUserRepository(url: server.url("/users.json"), client: Fixtures.client())
        #expect(try await repository.fetchUsers() == Fixtures.users)
    }

    @Test func lotteryListParsesIntoEntriesInOrder() async throws {
        let server = try defaultsServer()
        let repository = HTTPLotteryRepository(url: server.url("/usersInLottery.json"), client: Fixtures.client())
        #expect(try await repository.fetchEntries() == Fixtures.entries)
    }

    @Test func defaultsLoadOverFileURLs() async throws {
        let client = Fixtures.client(maxResponseBytes: CurlHTTPClient.Configuration.defaultMaxResponseBytes)
        let users = HTTPUserRepository(url: FileURL.string(fromPath: Fixtures.usersPath), client: client)
        let lottery = HTTPLotteryRepository(url: FileURL.string(fromPath: Fixtures.lotteryPath), client: client)
        #expect(try await users.fetchUsers() == Fixtures.users)
        #expect(try await lottery.fetchEntries() == Fixtures.entries)
    }

    @Test func bodyThatIsNotJSONIsMalformedJSONWithAPosition() async throws {
        let server = try TestHTTPServer(routes: ["/users.json": .json("{\"items\": [ {\"userId\": 1,, } ]}")])
        let url = server.url("/users.json")
        let error = await failure { try await HTTPUserRepository(url: url, client: Fixtures.client()).fetchUsers() }
        guard case .malformedJSON(let source, let detail)? = error else {
            Issue.record("expected malformedJSON, got \(String(describing: error))")
            return
        }
        #expect(source == url)
        #expect(detail == "Invalid value around character 25")
    }

    @Test func missingFieldIsInvalidDataNamingFieldAndIndex() async throws {
        let body = """
            {"items":[
              {"userId":1,"name":"A","username":"a","regDate":"2020-01-01"},
              {"userId":2,"name":"B","username":"b","regDate":"2020-01-02"},
              {"userId":3,"name":"C","regDate":"2020-01-03"}
            ]}
            """
        let server = try TestHTTPServer(routes: ["/users.json": .json(body)])
        let url = server.url("/users.json")
        let error = await failure { try await HTTPUserRepository(url: url, client: Fixtures.client()).fetchUsers() }
        #expect(error == .invalidData(source: url, detail: "items[2].username is missing"))
    }

    @Test func loadPlayersMergesBothListsFromTheServer() async throws {
        let server = try defaultsServer()
        let client = Fixtures.client()
        let loadPlayers = LoadPlayers(
            users: HTTPUserRepository(url: server.url("/users.json"), client: client),
            lottery: HTTPLotteryRepository(url: server.url("/usersInLottery.json"), client: client))
        let result = try await loadPlayers.execute()
        #expect(result.players.map(\.userId) == [10, 22, 4, 182])
        #expect(result.players.map(\.isVoid) == [false, false, false, true])
        #expect(result.players.first?.name == "Jack Alexy")
        #expect(result.warnings.isEmpty)
    }

    @Test func loadPlayersReportsAFailingSource() async throws {
        let server = try defaultsServer(extra: ["/broken.json": .status(500, body: [])])
        let client = Fixtures.client()
        let loadPlayers = LoadPlayers(
            users: HTTPUserRepository(url: server.url("/users.json"), client: client),
            lottery: HTTPLotteryRepository(url: server.url("/broken.json"), client: client))
        do {
            _ = try await loadPlayers.execute()
            Issue.record("expected a failure")
        } catch {
            #expect(error == .source(.badStatus(source: server.url("/broken.json"), status: 500)))
        }
    }
}
