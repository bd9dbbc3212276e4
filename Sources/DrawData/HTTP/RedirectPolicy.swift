/// Which redirects a list fetch follows.
///
/// Why not every redirect: the list URLs are the operator's, but the server a redirect points to is
/// whoever answers at that URL. Followed blindly, a redirect makes the server fetch any http(s)
/// address it can reach, internal ones included (server-side request forgery), and report on it.
/// So by default only redirects that stay on the configured URL's origin are followed.
public enum RedirectPolicy: String, Sendable, Hashable, CaseIterable {
    /// No redirect is followed; a 3xx answer is an error naming where it pointed.
    case none
    /// Only to the same scheme, host and port as the URL being fetched (the default).
    case sameOrigin = "same-origin"
    /// To any http or https URL (never `file://`), up to the redirect limit.
    case any

    /// Whether a redirect from `from` to `to` may be followed. Both must be http(s) URLs with an
    /// origin; `file://` and anything unparseable are refused by every policy.
    func allows(from: URLOrigin, to: URLOrigin) -> Bool {
        guard ["http", "https"].contains(to.scheme) else { return false }
        switch self {
        case .none: return false
        case .sameOrigin: return from == to
        case .any: return true
        }
    }
}
