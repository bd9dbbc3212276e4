/// Environment variables as command-line defaults, because argument-parser reads only argv.
///
/// Before parsing, each variable `LIVE_DRAW_<NAME>` whose option `--<name>` is not on the command
/// line becomes an argument `--<name>=<value>`. The command line therefore wins, and a value from
/// the environment goes through exactly the same parsing and validation as a typed one (the `=`
/// form keeps a value that starts with `-` from being read as an option).
///
/// Options that take a value, and the flags in `flagNames`: for those `1`/`true`/`yes` becomes
/// `--flag`, `0`/`false`/`no` nothing, and any other value `--flag=value`, which the parser refuses.
public struct EnvironmentArguments: Sendable {
    /// Prefix of every variable.
    public static let prefix = "LIVE_DRAW_"

    /// Long option names (without `--`) that may come from the environment.
    public let optionNames: [String]
    /// Those of `optionNames` that are flags (no value).
    public let flagNames: Set<String>

    public init(optionNames: [String] = LaunchOptions.environmentBackedOptions,
                flagNames: Set<String> = LaunchOptions.environmentBackedFlags) {
        self.optionNames = optionNames
        self.flagNames = flagNames
    }

    /// `LIVE_DRAW_` + the name in upper case with `_` for `-`: `round-interval-ms` →
    /// `LIVE_DRAW_ROUND_INTERVAL_MS`.
    public static func variableName(forOption name: String) -> String {
        prefix + String(name.uppercased().map { $0 == "-" ? "_" : $0 })
    }

    /// The result of merging: the arguments to parse, and which options came from which variable
    /// (for error messages).
    public struct Merged: Sendable, Equatable {
        public var arguments: [String]
        /// Option name → variable name, for every option the environment supplied.
        public var fromEnvironment: [String: String]
    }

    /// Prepends `--name=value` for each set, non-empty variable whose option the command line
    /// does not already give (as `--name value` or `--name=value`).
    public func merge(arguments: [String], environment: [String: String]) -> Merged {
        var injected: [String] = []
        var fromEnvironment: [String: String] = [:]
        for name in optionNames {
            let variable = Self.variableName(forOption: name)
            // Empty counts as unset: `LIVE_DRAW_TLS_CERT=` in a compose file means "no TLS",
            // not "a certificate at the path ''".
            guard let value = environment[variable], !value.isEmpty,
                  !Self.commandLine(arguments, gives: name) else { continue }
            fromEnvironment[name] = variable
            if flagNames.contains(name) {
                switch value.lowercased() {
                case "1", "true", "yes": injected.append("--\(name)")
                case "0", "false", "no": continue
                default: injected.append("--\(name)=\(value)")
                }
                continue
            }
            injected.append("--\(name)=\(value)")
        }
        return Merged(arguments: injected + arguments, fromEnvironment: fromEnvironment)
    }

    private static func commandLine(_ arguments: [String], gives name: String) -> Bool {
        let option = "--" + name
        for argument in arguments {
            if argument == "--" { return false }   // everything after is positional
            if argument == option || argument.hasPrefix(option + "=") { return true }
        }
        return false
    }
}
