/// Which URL strings the client may hand to curl, and how they are shown in error messages.
enum URLPolicy {
    /// Schemes a configured source may use. Kept in step with `CurlTransfer.allowedProtocols`.
    static let allowedSchemes: Set<String> = ["http", "https", "file"]

    /// True for `http://`, `https://` or `file://` URLs (any case) free of spaces and control
    /// characters.
    ///
    /// Why check before curl does: curl guesses `http` for a URL without a scheme, and we want
    /// "not an allowed URL" to be decided without the transfer thread or a socket being involved.
    static func isFetchable(_ url: String) -> Bool {
        guard !url.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7f }),
              let scheme = scheme(of: url) else { return false }
        return allowedSchemes.contains(scheme)
    }

    /// Why `url` may not be fetched as a room's list under `restriction` (its scheme or its
    /// host), in a few lowercase words; `nil` when it may. Checked at upload and again before each
    /// fetch (the operator may have changed the allowed hosts since). Addresses are checked by
    /// `SourceAddressGuard` when curl connects.
    static func roomSourceRefusal(_ url: String, _ restriction: SourceRestriction) -> String? {
        guard let origin = URLOrigin(url), ["http", "https"].contains(origin.scheme) else {
            return "a room's list URL must be http or https"
        }
        guard restriction.allows(host: origin.host) else {
            return "\(origin.host) is not a host this server fetches room lists from"
        }
        return nil
    }

    /// The lowercased scheme of `url` if it starts `scheme://`, else `nil`.
    static func scheme(of url: String) -> String? {
        guard let colon = url.firstIndex(of: ":"), url[colon...].hasPrefix("://") else { return nil }
        let scheme = url[..<colon]
        guard let first = scheme.unicodeScalars.first, first.isASCIILetter,
              scheme.unicodeScalars.allSatisfy({ $0.isASCIILetter || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0) })
        else { return nil }
        return scheme.lowercased()
    }

    /// `url` as shown to hosts and viewers when a fetch was redirected: user-info redacted, and
    /// the query and fragment left out (a redirect target's query often carries a signed token).
    static func described(_ url: String) -> String {
        let end = url.firstIndex(where: { $0 == "?" || $0 == "#" }) ?? url.endIndex
        return redacted(String(url[..<end]))
    }

    /// `url` with any user-info (`user:password@`) replaced by `***@`, so that credentials in a
    /// configured URL never reach a host's screen or a log through an error message.
    static func redacted(_ url: String) -> String {
        guard let schemeEnd = url.range(of: "://") else { return url }
        let authorityStart = schemeEnd.upperBound
        let authorityEnd = url[authorityStart...].firstIndex(where: { "/?#".contains($0) }) ?? url.endIndex
        guard let at = url[authorityStart..<authorityEnd].lastIndex(of: "@") else { return url }
        return String(url[..<authorityStart]) + "***" + String(url[at...])
    }
}

private extension Unicode.Scalar {
    var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
}
