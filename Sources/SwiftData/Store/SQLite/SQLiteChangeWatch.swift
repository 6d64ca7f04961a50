internal import Foundation

/// Watches an SQLite store for saves committed by other processes (or other containers of this one), and reports
/// the newest token of their transactions (see `SQLiteStore.watchRemoteChanges(_:)`).
///
/// Every save that records a history transaction writes the store's commit signal (see
/// `SQLiteHistory.signalURL(of:)`) once it has committed; the process's `FileChangeMonitor` runs this watch's check
/// when the signal has been written. When every transaction since the last check is one this store object saved, the check
/// reads nothing more; otherwise it asks the history for the transactions newer than the last it saw and reports
/// them. Watching the signal rather than SQLite's log keeps the watch silent while a save writes, and the commit is
/// visible by the time the signal changes.
final class SQLiteChangeWatch: StoreChangeWatch, @unchecked Sendable {
    // @unchecked: `registration` is guarded by `lock`; the store's own state has locks of its own.
    private let lock = NSLock()
    private var registration: Int?

    /// Starts watching, or returns nil when the store has no file to watch.
    init?(store: SQLiteStore, onChange: @escaping @Sendable (Int64) -> Void) {
        guard !store.configuration.isStoredInMemoryOnly else { return nil }
        let signal = store.commitSignal ?? SQLiteHistory.signalURL(of: store.configuration.url)
        // The newest token when the store opened: saves committed before are not reported.
        let newest = Locked(store.historyTokenAtOpen)
        let path = store.configuration.url.path
        store.ownTransactions.startWatching()
        // The check holds no reference to the store, only to its notes: a container that goes closes its store at
        // once, whatever the monitor's thread is doing (a store closed late, on that thread, checkpoints its log into
        // the file after its owner is gone).
        let own = store.ownTransactions
        registration = FileChangeMonitor.shared.register(
            directory: signal.deletingLastPathComponent().path, fileNames: [signal.lastPathComponent]
        ) {
            // Checks run one at a time, on the monitor's thread. The signal holds the newest committed token: when
            // every token since the last check is one this store saved, nothing else is read.
            let seen = newest.withLock { $0 }
            if let signalled = SQLiteHistory.signalledToken(at: signal) {
                guard signalled > seen else { return }
                if own.ownsEveryTransaction(after: seen, through: signalled) {
                    newest.withLock { $0 = signalled }
                    return
                }
            }
            // Someone else committed: the history says what. The connection is the watch's own (the store's
            // readers and statement log stay the app's), and is closed at once, so the watch never holds the file
            // open.
            guard let reader = try? SQLiteConnection(path: path, readOnly: true, log: SQLiteStatementLog()),
                let tokens = try? SQLiteHistory.tokens(after: seen, reader)
            else { return }
            if let last = tokens.last { newest.withLock { $0 = last } }
            if own.containsForeign(tokens, through: newest.withLock { $0 }), let last = tokens.last {
                onChange(last)
            }
        }
    }

    func stop() {
        lock.withLock {
            registration.map(FileChangeMonitor.shared.unregister)
            registration = nil
        }
    }

    deinit { stop() }
}

/// A watch of a store for changes made elsewhere (see `ModelStore.watchRemoteChanges(_:)`).
package protocol StoreChangeWatch: Sendable {
    /// Stops watching; nothing is reported afterwards.
    func stop()
}
