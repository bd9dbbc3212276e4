import Foundation
import LiveDrawCLI

// Entry point: decide from argv and the environment, then either print and exit or run.
// Every way out before the server runs is one line and a non-zero code (no stack trace): the
// operator needs the reason, not where in our code it was noticed.
ShutdownSignals.blockBeforeAnyThreadStarts()
switch Launch.decide(arguments: Array(CommandLine.arguments.dropFirst()),
                     environment: ProcessInfo.processInfo.environment,
                     paths: .ofCurrentProcess()) {
case .help(let text):
    print(text)
    exit(0)
case .fail(let line, let code):
    FileHandle.standardError.write(Data((line + "\n").utf8))
    exit(code)
case .run(let configuration):
    exit(LiveDrawApp(configuration: configuration).run())
}
