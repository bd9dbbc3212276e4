/// Merges the user list and the lottery list into the players of a draw.
///
/// The rules (each one a test case in `PlayerMergerTests`):
/// - the lottery list's order is kept;
/// - an entry whose user id has no user is left out, with a warning;
/// - an entry listed twice is entered once (the first), with a warning: no silent double odds;
/// - a user listed twice is warned about, and the first one wins;
/// - users who are not in the lottery list take no part;
/// - no player left is `DrawError.noPlayers`; all-void players are a valid draw.
public enum PlayerMerger {
    /// Applies the merge rules. Throws `DrawError.noPlayers` (carrying the warnings) if none is left.
    public static func merge(users: [User], entries: [LotteryEntry]) throws(DrawError) -> MergeResult {
        var warnings: [MergeWarning] = []
        var usersById: [Int: User] = [:]
        var duplicateUsersSeen = Set<Int>()
        for user in users {
            if usersById[user.userId] == nil {
                usersById[user.userId] = user
            } else if duplicateUsersSeen.insert(user.userId).inserted {
                warnings.append(.duplicateUser(userId: user.userId))
            }
        }

        var players: [Player] = []
        var entered = Set<Int>()
        var duplicateEntriesSeen = Set<Int>()
        var unknownSeen = Set<Int>()
        for entry in entries {
            guard let user = usersById[entry.userId] else {
                if unknownSeen.insert(entry.userId).inserted {
                    warnings.append(.unknownUser(userId: entry.userId))
                }
                continue
            }
            guard entered.insert(entry.userId).inserted else {
                if duplicateEntriesSeen.insert(entry.userId).inserted {
                    warnings.append(.duplicateEntry(userId: entry.userId))
                }
                continue
            }
            players.append(Player(user: user, entry: entry))
        }

        guard !players.isEmpty else { throw .noPlayers(warnings: warnings) }
        return MergeResult(players: players, warnings: warnings)
    }
}
