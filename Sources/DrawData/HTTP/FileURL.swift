import Foundation

/// Builds `file://` URLs for local JSON files, such as the bundled `defaults/`.
public enum FileURL {
    /// `file://` URL of `path`: made absolute against the current directory, `.` and `..`
    /// resolved, and every byte outside `A-Z a-z 0-9 - . _ ~ /` percent-encoded, so spaces, `#`,
    /// `?`, `%` and non-ASCII names survive curl's URL parsing.
    public static func string(fromPath path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        return "file://" + percentEncoded(normalized(absolute))
    }

    /// Drops empty and `.` components and applies `..`, without touching the file system (so a
    /// file that does not exist yet still gets a URL, and links are not resolved).
    private static func normalized(_ absolutePath: String) -> String {
        var parts: [Substring] = []
        for part in absolutePath.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..": _ = parts.popLast()
            default: parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }

    private static func percentEncoded(_ path: String) -> String {
        var out = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                 UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                out += "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 0x0f, radix: 16, uppercase: true)
            }
        }
        return out
    }
}
