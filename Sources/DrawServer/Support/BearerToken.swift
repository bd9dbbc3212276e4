/// Reads the token of an `Authorization: Bearer TOKEN` header (RFC 6750).
enum BearerToken {
    /// The token, or `nil` when the header is absent, uses another scheme or carries no token.
    /// The scheme is case-insensitive; surrounding blanks are ignored; a token with inner blanks
    /// is refused rather than guessed at.
    static func parse(_ header: String?) -> String? {
        guard let header else { return nil }
        let trimmed = header.trimmingBlanks()
        let scheme = "bearer"
        guard trimmed.utf8.count > scheme.utf8.count,
              trimmed.prefix(scheme.count).lowercased() == scheme else { return nil }
        let rest = trimmed.dropFirst(scheme.count)
        guard let first = rest.first, first == " " || first == "\t" else { return nil }
        let token = String(rest).trimmingBlanks()
        guard !token.isEmpty, !token.contains(where: { $0 == " " || $0 == "\t" }) else { return nil }
        return token
    }
}

extension String {
    /// Drops leading and trailing spaces and tabs (no Foundation needed).
    func trimmingBlanks() -> String {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let start = firstIndex(where: { !isBlank($0) }),
              let end = lastIndex(where: { !isBlank($0) }) else { return "" }
        return String(self[start...end])
    }
}
