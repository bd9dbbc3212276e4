import DrawData
import Foundation

/// Checks a player-list URL at startup, so that a typo fails the launch instead of every draw.
enum SourceURL {
    static let allowedSchemes: Set<String> = ["http", "https", "file"]

    /// The given URL, validated, or else the bundled default list `bundled` as a file URL.
    static func resolve(_ given: String?, option: String, bundled: String, paths: LaunchPaths) throws(ConfigurationError) -> String {
        if let given { return try validated(given, option: option) }
        return try bundledDefault(bundled, option: option, paths: paths)
    }

    /// `value` if it is an http/https URL with a host, or a file URL naming a readable file.
    ///
    /// Error messages name the scheme or the file path but never echo an http(s) URL whole: it
    /// may carry credentials (`https://user:secret@…`) that do not belong in a terminal or a log.
    static func validated(_ value: String, option: String) throws(ConfigurationError) -> String {
        guard let url = URL(string: value), let scheme = url.scheme?.lowercased() else {
            throw ConfigurationError("--\(option) must be an http, https or file URL, like https://example.com/users.json")
        }
        guard allowedSchemes.contains(scheme) else {
            throw ConfigurationError("--\(option) must use http, https or file, not '\(scheme)'")
        }
        if scheme == "file" {
            let path = url.path
            guard FileManager.default.isReadableFile(atPath: path) else {
                throw ConfigurationError("--\(option): cannot read \(path) (missing or no permission)")
            }
        } else if (url.host ?? "").isEmpty {
            throw ConfigurationError("--\(option) has no host name after \(scheme)://")
        }
        return value
    }

    /// A `file://` URL for the first `defaults/<fileName>` found in `paths.defaultsFolders`.
    static func bundledDefault(_ fileName: String, option: String, paths: LaunchPaths) throws(ConfigurationError) -> String {
        let folders = paths.defaultsFolders
        for folder in folders {
            let path = (folder as NSString).appendingPathComponent(fileName)
            if FileManager.default.isReadableFile(atPath: path) {
                return FileURL.string(fromPath: path)
            }
        }
        throw ConfigurationError(
            "no --\(option) given and the bundled \(fileName) is not in \(folders.joined(separator: " or ")): "
                + "pass --\(option) or start from the repository root")
    }
}
