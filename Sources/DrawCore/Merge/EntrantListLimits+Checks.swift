/// The checks every uploaded list shape shares, so a limit means the same in each.
extension EntrantListLimits {
    /// Throws `tooManyEntrants` when `count` is past `maxEntrants`.
    public func check(entrantCount count: Int) throws(EntrantListError) {
        guard count <= maxEntrants else { throw .tooManyEntrants(limit: maxEntrants) }
    }

    /// Throws `nameTooLong` for a name past `maxNameCharacters`, else `nameTooManyBytes` for one
    /// past `maxNameBytes`.
    public func check(name: some StringProtocol, at position: EntrantListPosition) throws(EntrantListError) {
        let bytes = name.utf8.count
        // A character is at least one byte, so a short name needs no walk over its characters.
        if bytes > maxNameCharacters, name.count > maxNameCharacters {
            throw .nameTooLong(at: position, limitCharacters: maxNameCharacters)
        }
        guard bytes <= maxNameBytes else { throw .nameTooManyBytes(at: position, limitBytes: maxNameBytes) }
    }
}
