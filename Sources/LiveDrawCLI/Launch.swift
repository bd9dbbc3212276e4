import ArgumentParser

/// From argv and the environment to "start with this configuration" or "print this and exit".
///
/// Kept free of printing and exiting so that tests can check every outcome, including the exact
/// error line and exit code an operator sees.
public enum Launch {
    /// Exit code for any configuration the server refuses to start with (`EX_USAGE`, as
    /// argument-parser uses for its own validation errors).
    public static let configurationExitCode: Int32 = 64

    /// What `main` should do.
    public enum Decision: Sendable {
        /// Start the server.
        case run(LaunchConfiguration)
        /// Print `text` to standard output and exit 0 (`--help`).
        case help(text: String)
        /// Print `line` to standard error and exit with `code`.
        case fail(line: String, code: Int32)
    }

    /// Parses `arguments` (without the program name) with `environment` as defaults, then
    /// validates. A failure is one line: `live-draw: error: …`.
    public static func decide(arguments: [String], environment: [String: String], paths: LaunchPaths,
                              columns: Int? = nil) -> Decision {
        let merged = EnvironmentArguments().merge(arguments: arguments, environment: environment)
        let options: LaunchOptions
        do {
            options = try LaunchOptions.parse(merged.arguments)
        } catch {
            if LaunchOptions.exitCode(for: error) == .success {
                return .help(text: LaunchOptions.fullMessage(for: error, columns: columns))
            }
            let message = ConfigurationError(LaunchOptions.message(for: error)).message
            return .fail(line: errorLine(message + source(of: message, merged.fromEnvironment)),
                         code: configurationExitCode)
        }
        do {
            return .run(try LaunchConfiguration(options: options, paths: paths))
        } catch {
            return .fail(line: errorLine(error.message + source(of: error.message, merged.fromEnvironment)),
                         code: configurationExitCode)
        }
    }

    /// The one line printed for any failure to start, configuration or server.
    public static func errorLine(_ message: String) -> String {
        "live-draw: error: \(ConfigurationError(message).message)"
    }

    /// " (from LIVE_DRAW_PORT)" when the message is about an option the environment supplied:
    /// otherwise an operator stares at a command line that has no `--port` in it.
    private static func source(of message: String, _ fromEnvironment: [String: String]) -> String {
        let culprits = fromEnvironment.keys.sorted().filter { message.contains("--\($0)") }
        guard !culprits.isEmpty else { return "" }
        return " (from " + culprits.map { fromEnvironment[$0]! }.joined(separator: ", ") + ")"
    }
}
