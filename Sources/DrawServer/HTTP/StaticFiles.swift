import Foundation

/// Maps request paths to files inside the public folder, and nothing else.
///
/// Defence in depth, because serving a file outside the folder would be the worst bug this
/// server could have:
/// 1. lws has already percent-decoded the path once and collapsed `/./`, `//` and `/../`; we
///    never decode again, so double encoding (`%252e`) stays a literal, non-existent name;
/// 2. every segment must be plain `[A-Za-z0-9._-]`, must not start with a dot (no `..`, no
///    dot-files) — backslashes, NUL, `%`, control bytes and non-ASCII are refused outright;
/// 3. the joined path is resolved with `realpath` (following symlinks) and must still lie
///    inside the folder's own resolved path, and be a regular file.
struct StaticFiles {
    /// The public folder, resolved (no symlinks, no trailing slash).
    let root: String

    /// `nil` when `folder` does not exist or is not a directory.
    init?(folder: String) {
        guard let resolved = StaticFiles.realPath(folder), StaticFiles.isDirectory(resolved) else { return nil }
        root = resolved
    }

    /// The file to serve for `requestPath` and its validators, from one `stat`; `nil` (then
    /// answer 404) when it is outside the folder or not a regular file.
    func resolve(_ requestPath: String) -> (path: String, validator: StaticFileValidator)? {
        guard let relative = StaticFiles.relativePath(for: requestPath) else { return nil }
        guard let resolved = StaticFiles.realPath(root + "/" + relative), resolved.hasPrefix(root + "/") else { return nil }
        var st = stat()
        guard stat(resolved, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return nil }
        return (resolved, StaticFileValidator(size: Int64(st.st_size), seconds: Int64(st.st_mtim.tv_sec),
                                              nanoseconds: Int64(st.st_mtim.tv_nsec)))
    }

    /// The sanitised path relative to the folder (`/` becomes `index.html`), or `nil`.
    static func relativePath(for requestPath: String) -> String? {
        guard requestPath.utf8.first == UInt8(ascii: "/"), requestPath.utf8.count <= 1024 else { return nil }
        var segments: [Substring] = []
        for segment in requestPath.split(separator: "/", omittingEmptySubsequences: true) {
            guard isSafeSegment(segment) else { return nil }
            segments.append(segment)
        }
        if segments.isEmpty || requestPath.hasSuffix("/") { segments.append("index.html") }
        return segments.joined(separator: "/")
    }

    static func isSafeSegment(_ s: Substring) -> Bool {
        guard let first = s.utf8.first, first != UInt8(ascii: "."), s.utf8.count <= 255 else { return false }
        return s.utf8.allSatisfy { b in
            (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z"))
                || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9"))
                || b == UInt8(ascii: ".") || b == UInt8(ascii: "_") || b == UInt8(ascii: "-")
        }
    }

    /// The Content-Type for a served file, by extension.
    static func contentType(for path: String) -> String {
        let ext = path.split(separator: ".").last.map { $0.lowercased() } ?? ""
        switch ext {
        case "html", "htm": return "text/html; charset=utf-8"
        case "js", "mjs": return "text/javascript; charset=utf-8"
        case "css": return "text/css; charset=utf-8"
        case "json": return "application/json"
        case "svg": return "image/svg+xml"
        case "png": return "image/png"
        case "jpg", "jpeg": return "image/jpeg"
        case "gif": return "image/gif"
        case "webp": return "image/webp"
        case "ico": return "image/x-icon"
        case "woff2": return "font/woff2"
        case "woff": return "font/woff"
        case "txt": return "text/plain; charset=utf-8"
        case "webmanifest": return "application/manifest+json"
        default: return "application/octet-stream"
        }
    }

    static func realPath(_ path: String) -> String? {
        guard let p = realpath(path, nil) else { return nil }
        defer { free(p) }
        return String(cString: p)
    }

    static func isDirectory(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
    }
}
