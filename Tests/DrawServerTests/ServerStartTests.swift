import DrawCore
@testable import DrawServer
import Foundation
import Logging
import Testing

extension RealSocketTests {
    /// `init` fails fast, with one line an operator can act on.
    @Suite struct ServerStartTests {
        private func start(_ configure: (inout ServerConfig) -> Void) throws(ServerStartError) -> LiveDrawServer {
            var config = ServerConfig()
            config.port = 0
            config.publicDir = FileManager.default.temporaryDirectory.path
            configure(&config)
            return try LiveDrawServer(config: config, loadPlayers: { MergeResult(players: RunningServer.players, warnings: []) },
                                      random: SystemTestRandom(), clock: SystemTestClock(), logger: Logger(label: "test"))
        }

        @Test func portInUse() throws {
            let running = try RunningServer()
            defer { running.stop() }
            #expect(throws: ServerStartError.self) { _ = try start { $0.port = running.port } }
            do {
                _ = try start { $0.port = running.port }
            } catch {
                #expect(error.description == "cannot listen on 127.0.0.1:\(running.port): the port is already in use")
            }
        }

        @Test func hostsBindAsBefore() throws {
            // What lws accepted, our own listening socket accepts: names, literals, interfaces.
            for host in ["localhost", "127.0.0.1", "0.0.0.0", "::1", "lo"] {
                let server = try start { $0.host = host }
                #expect(server.port > 0, "\(host)")
            }
            do {
                _ = try start { $0.host = "no-such-interface" }
                Issue.record("bound to a host that is neither an address nor an interface")
            } catch {
                #expect(error.description == "cannot listen on no-such-interface:0: not an IP address or a network interface")
            }
        }

        @Test func missingPublicDir() {
            do {
                _ = try start { $0.publicDir = "/nonexistent/live-draw-public" }
                Issue.record("started without a public dir")
            } catch {
                #expect(error.description == "public directory '/nonexistent/live-draw-public' does not exist or is not a directory")
            }
        }

        @Test func unreadableTLSFiles() {
            do {
                _ = try start { $0.tlsCertPath = "/nonexistent/cert.pem"; $0.tlsKeyPath = "/nonexistent/key.pem" }
                Issue.record("started without readable TLS files")
            } catch {
                #expect(error.description == "cannot read TLS file '/nonexistent/cert.pem'")
            }
            do {
                _ = try start { $0.tlsCertPath = "/etc/hostname" }
                Issue.record("started with a certificate but no key")
            } catch {
                #expect(error.description == "TLS needs both a certificate and a key")
            }
        }

        @Test func boundPortAndLobbyKeyAreReadableBeforeRun() throws {
            let server = try start { _ in }
            #expect(server.port > 0)
            #expect(server.lobbyHostKey.count == 48)
            // Never run: deinit destroys the context on this thread.
        }

        /// The executable supplies the lobby key it keeps (issue 13); the server takes it as is
        /// and refuses one that could never match a host link.
        @Test func lobbyKeyFromTheConfigurationIsUsedAndChecked() throws {
            let kept = "00112233445566778899aabbccddeeff0011223344556677"
            #expect(try start { $0.lobbyHostKey = kept }.lobbyHostKey == kept)
            for bad in ["", String(kept.dropLast()), kept.uppercased(), kept + "0"] {
                do {
                    _ = try start { $0.lobbyHostKey = bad }
                    Issue.record("started with lobby key \(bad.debugDescription)")
                } catch {
                    #expect(error.description == "invalid configuration: the lobby host key must be 48 lowercase hex characters")
                }
            }
        }
    }
}
