import LiveDrawCLI
import Testing

/// The outcomes an operator sees: help, one-line failures with exit 64, or a configuration.
struct LaunchTests {
    private func decide(_ arguments: [String], env: [String: String] = [:], in tree: TempTree) -> Launch.Decision {
        Launch.decide(arguments: arguments, environment: env, paths: tree.paths, columns: 100)
    }

    private func failure(_ d: Launch.Decision) -> (line: String, code: Int32)? {
        if case .fail(let line, let code) = d { return (line, code) }
        return nil
    }

    @Test func helpListsEveryOptionAndExitsCleanly() throws {
        guard case .help(let text) = decide(["--help"], in: try TempTree()) else {
            Issue.record("expected help"); return
        }
        #expect(text.contains("USAGE: live-draw"))
        for name in LaunchOptions.environmentBackedOptions { #expect(text.contains("--\(name)")) }
    }

    @Test func environmentConfiguresAndTheCommandLineWins() throws {
        let tree = try TempTree()
        guard case .run(let c) = decide(["--rounds", "3"], env: ["LIVE_DRAW_PORT": "0", "LIVE_DRAW_ROUNDS": "7"], in: tree) else {
            Issue.record("expected run"); return
        }
        #expect(c.server.port == 0)
        #expect(c.server.schedule.rounds == 3)
    }

    @Test func parseErrorsAreOneLineWithUsageExitCode() throws {
        let f = failure(decide(["--port", "abc"], in: try TempTree()))
        #expect(f?.code == 64)
        #expect(f?.line.hasPrefix("live-draw: error: ") == true)
        #expect(f?.line.contains("'abc'") == true)
        #expect(f?.line.contains("\n") == false)
        #expect(failure(decide(["--no-such-option"], in: try TempTree()))?.code == 64)
    }

    @Test func validationErrorsAreOneLine() throws {
        #expect(failure(decide(["--port", "70000"], in: try TempTree()))?.line
            == "live-draw: error: --port must be between 0 and 65535, not 70000")
    }

    @Test func errorsFromTheEnvironmentNameTheVariable() throws {
        let tree = try TempTree()
        #expect(failure(decide([], env: ["LIVE_DRAW_PORT": "70000"], in: tree))?.line
            == "live-draw: error: --port must be between 0 and 65535, not 70000 (from LIVE_DRAW_PORT)")
        #expect(failure(decide([], env: ["LIVE_DRAW_ROUNDS": "many"], in: tree))?.line.hasSuffix("(from LIVE_DRAW_ROUNDS)") == true)
    }

    @Test func theErrorLineIsAlwaysOneLine() {
        #expect(Launch.errorLine("first\nsecond") == "live-draw: error: first second")
    }

    @Test func allowedValuesBecomeACommaList() throws {
        #expect(failure(decide(["--log-level", "loud"], in: try TempTree()))?.line
            == "live-draw: error: The value 'loud' is invalid for '--log-level <log-level>'. "
            + "Please provide one of the following: trace, debug, info, notice, warning, error, critical")
    }
}
