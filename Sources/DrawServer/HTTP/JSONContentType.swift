/// Whether a request's `Content-Type` says JSON: `application/json`, in any letter case,
/// optionally followed by parameters (`; charset=utf-8`).
///
/// Why the API insists: a browser sends a cross-site POST without asking the server first only
/// when it is a "simple request", whose Content-Type can only be `text/plain`,
/// `application/x-www-form-urlencoded` or `multipart/form-data` (or none at all). Requiring
/// `application/json` makes any other site's page ask first (a CORS preflight, which this server
/// never grants), so no page can create rooms or start draws in its visitors' names.
enum JSONContentType {
    static func matches(_ header: String?) -> Bool {
        guard let header else { return false }
        let mediaType = header.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)[0]
        return String(mediaType).trimmingBlanks().lowercased() == "application/json"
    }
}
