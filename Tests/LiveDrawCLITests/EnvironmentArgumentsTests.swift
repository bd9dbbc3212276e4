import LiveDrawCLI
import Testing

struct EnvironmentArgumentsTests {
    @Test func variableNamesAreUpperSnakeWithPrefix() {
        #expect(EnvironmentArguments.variableName(forOption: "port") == "LIVE_DRAW_PORT")
        #expect(EnvironmentArguments.variableName(forOption: "round-interval-ms") == "LIVE_DRAW_ROUND_INTERVAL_MS")
    }

    @Test func environmentSuppliesOptionsTheCommandLineLacks() {
        let merged = EnvironmentArguments(optionNames: ["host", "port"])
            .merge(arguments: ["--port", "9000"], environment: ["LIVE_DRAW_HOST": "0.0.0.0", "LIVE_DRAW_PORT": "7000"])
        #expect(merged.arguments == ["--host=0.0.0.0", "--port", "9000"])
        #expect(merged.fromEnvironment == ["host": "LIVE_DRAW_HOST"])
    }

    @Test func commandLineWinsInEqualsFormToo() {
        let merged = EnvironmentArguments(optionNames: ["port"])
            .merge(arguments: ["--port=9000"], environment: ["LIVE_DRAW_PORT": "7000"])
        #expect(merged.arguments == ["--port=9000"])
    }

    @Test func emptyAndUnrelatedVariablesAreIgnored() {
        let merged = EnvironmentArguments(optionNames: ["tls-cert"])
            .merge(arguments: [], environment: ["LIVE_DRAW_TLS_CERT": "", "LIVE_DRAW_NOPE": "1", "PORT": "1"])
        #expect(merged.arguments.isEmpty)
    }

    @Test func aValueStartingWithADashStaysAValue() throws {
        let merged = EnvironmentArguments().merge(arguments: [], environment: ["LIVE_DRAW_PORT": "-1"])
        let options = try LaunchOptions.parse(merged.arguments)
        #expect(options.port == -1)   // parsed as the value; range checks reject it later
    }

    @Test func anOptionNamedOnlyAfterDoubleDashDoesNotCount() {
        let merged = EnvironmentArguments(optionNames: ["port"])
            .merge(arguments: ["--", "--port"], environment: ["LIVE_DRAW_PORT": "7000"])
        #expect(merged.arguments == ["--port=7000", "--", "--port"])
    }

    /// Guards the promise that every option has a variable: the list the merge uses must name
    /// exactly the options on the help screen, and each option's help must name its variable.
    @Test func everyOptionHasAnEnvironmentVariableAndSaysSo() {
        // An option's block is its "--name <value>" line plus the help lines under it (long names
        // push the help text onto the next line), up to the next line that starts with '-'.
        var blocks: [(name: String, text: String)] = []
        for raw in LaunchOptions.helpMessage(columns: 10_000).split(separator: "\n") {
            let line = raw.drop(while: { $0 == " " })
            if line.hasPrefix("--") {
                blocks.append((String(line.dropFirst(2).prefix(while: { $0 != " " })), String(line)))
            } else if line.hasPrefix("-") || line.hasSuffix(":") {
                blocks.append(("", ""))   // -h/--help, or a section heading: ends the block
            } else if !blocks.isEmpty {
                blocks[blocks.count - 1].text += " " + line
            }
        }
        let all = blocks.filter { !$0.name.isEmpty }
        let flags = all.filter { LaunchOptions.flagsWithoutEnvironment.contains($0.name) }
        #expect(flags.map(\.name) == LaunchOptions.flagsWithoutEnvironment)
        for (name, text) in flags {
            #expect(text.contains("(no env: "), "\(name) must say why no variable sets it")
        }
        let options = all.filter { !LaunchOptions.flagsWithoutEnvironment.contains($0.name) }
        #expect(options.map(\.name) == LaunchOptions.environmentBackedOptions)
        for (name, text) in options {
            #expect(text.contains("(env: \(EnvironmentArguments.variableName(forOption: name)))"), "\(name)")
        }
    }
}
