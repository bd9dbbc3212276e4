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
    ///
    /// Memory (issue 31: an upload's merge ran at about 3x its lists): users are found by index,
    /// not copied into a dictionary of users, and every table is sized once up front, so none
    /// is doubled and copied as it fills. No more players than users or entries can come out.
    public static func merge(users: [User], entries: [LotteryEntry]) throws(DrawError) -> MergeResult {
        var warnings: [MergeWarning] = []
        var userIndexById: [Int: Int] = [:]
        userIndexById.reserveCapacity(users.count)
        var duplicateUsersSeen = Set<Int>()
        for (index, user) in users.enumerated() {
            if userIndexById[user.userId] == nil {
                userIndexById[user.userId] = index
            } else if duplicateUsersSeen.insert(user.userId).inserted {
                warnings.append(.duplicateUser(userId: user.userId))
            }
        }

        var players: [Player] = []
        players.reserveCapacity(min(users.count, entries.count))
        var entered = Set<Int>()
        entered.reserveCapacity(min(users.count, entries.count))
        var duplicateEntriesSeen = Set<Int>()
        var unknownSeen = Set<Int>()
        for entry in entries {
            guard let index = userIndexById[entry.userId] else {
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
            players.append(Player(user: users[index], entry: entry))
        }

        guard !players.isEmpty else { throw .noPlayers(warnings: warnings) }
        return MergeResult(players: players, warnings: warnings)
    }
}
