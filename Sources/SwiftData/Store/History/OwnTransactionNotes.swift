/// The history tokens of the saves a store object made itself, kept for its remote-change watch (see
/// `SQLiteChangeWatch`) so that it announces only the saves of others.
///
/// A save notes its token before it commits (once committed, the watch may see it at any moment) and forgets it if
/// it rolls back (SQLite then gives the token again). Nothing is noted while no watch reads the notes.
package final class OwnTransactionNotes: Sendable {
    private let state = Locked((isWatched: false, tokens: Set<Int64>()))
    /// The tokens of this store object's saves, which the watch does not consume: what live queries and history
    /// observers reading the history after a remote change skip, having heard of these saves already.
    private let made = Locked(TokenRanges())

    /// Notes of no save yet.
    package init() {}

    /// The tokens noted and not yet seen by the watch.
    package var tokens: Set<Int64> { state.withLock { $0.tokens } }

    /// Starts keeping notes: a watch reads them from now on.
    package func startWatching() {
        state.withLock { $0.isWatched = true }
    }

    /// Notes a save's token, before it commits.
    package func note(_ token: Int64) {
        state.withLock { state in
            if state.isWatched { state.tokens.insert(token) }
        }
        made.withLock { $0.insert(token) }
    }

    /// Forgets a token: its save rolled back.
    package func forget(_ token: Int64) {
        state.withLock { _ = $0.tokens.remove(token) }
        made.withLock { $0.remove(token) }
    }

    /// True when the transaction with this token is one of this store object's saves.
    package func madeHere(_ token: Int64) -> Bool {
        made.withLock { $0.contains(token) }
    }

    /// True, forgetting their notes, when every transaction after `seen` through `last` was noted: tokens are
    /// given in order and never skipped, so no one else committed in between.
    package func ownsEveryTransaction(after seen: Int64, through last: Int64) -> Bool {
        state.withLock { state in
            guard last - seen <= Int64(state.tokens.count), (seen + 1...last).allSatisfy(state.tokens.contains)
            else { return false }
            state.tokens = state.tokens.filter { $0 > last }
            return true
        }
    }

    /// True when some of the tokens were not noted; forgets the notes of every token up to `newest`, the newest
    /// the watch has seen (notes of deleted history included).
    package func containsForeign(_ tokens: [Int64], through newest: Int64) -> Bool {
        state.withLock { state in
            let foreign = tokens.contains { !state.tokens.contains($0) }
            if !state.tokens.isEmpty { state.tokens = state.tokens.filter { $0 > newest } }
            return foreign
        }
    }
}
