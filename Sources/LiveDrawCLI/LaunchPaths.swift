import Foundation

/// Where relative paths are resolved from, and where the bundled default lists are looked for.
///
/// Injected rather than read from the process, so that tests can point it at a temporary folder.
public struct LaunchPaths: Sendable, Hashable {
    /// Absolute folder that relative `--public-dir`, `--tls-cert` and `--tls-key` are taken from.
    public var currentDirectory: String
    /// Absolute path of the running binary, if known: the defaults may sit next to it.
    public var executablePath: String?

    public init(currentDirectory: String, executablePath: String?) {
        self.currentDirectory = currentDirectory
        self.executablePath = executablePath
    }

    /// The process's own: its working directory and `/proc/self/exe` (the real binary, even when
    /// started through a symlink or from PATH, which `argv[0]` would not tell).
    public static func ofCurrentProcess() -> LaunchPaths {
        let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        return LaunchPaths(currentDirectory: FileManager.default.currentDirectoryPath,
                           executablePath: exe == "/proc/self/exe" ? nil : exe)
    }

    /// Folders searched, in order, for `defaults/<file>`: the working directory (a checkout,
    /// `make run`, the container's /app), then beside the binary, then an installed layout
    /// (`PREFIX/bin/live-draw` with `PREFIX/share/live-draw/defaults`).
    public var defaultsFolders: [String] { bundledFolders("defaults") }

    /// Folders searched, in the same order, for the page (`public/`) when `--public-dir` is not
    /// given, so a packaged server started from any directory finds its page (issue 28, item 9).
    public var publicFolders: [String] { bundledFolders("public") }

    /// `name` in the working directory, beside the binary, and in `PREFIX/share/live-draw`.
    private func bundledFolders(_ name: String) -> [String] {
        var folders = [absolute(name)]
        if let executablePath {
            let bin = (executablePath as NSString).deletingLastPathComponent
            folders.append((bin as NSString).appendingPathComponent(name))
            folders.append(((bin as NSString).deletingLastPathComponent as NSString)
                .appendingPathComponent("share/live-draw/\(name)"))
        }
        return folders
    }

    /// `path` made absolute against `currentDirectory`, with `.` and `..` folded.
    public func absolute(_ path: String) -> String {
        let joined = path.hasPrefix("/") ? path : (currentDirectory as NSString).appendingPathComponent(path)
        return (joined as NSString).standardizingPath
    }
}
