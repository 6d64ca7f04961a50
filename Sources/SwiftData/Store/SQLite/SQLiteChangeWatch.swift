internal import Foundation

/// Watches an SQLite store for saves committed by other processes (or other containers of this one), and reports
/// the newest token of their transactions (see `SQLiteStore.watchRemoteChanges(_:)`).
///
/// Every save that records a history transaction writes the store's commit signal (see
/// `SQLiteHistory.signalURL(of:)`) once it has committed; the process's `FileChangeMonitor` runs this watch's check
/// when the signal changes. The check asks the history for transactions newer than the last it saw, and reports
/// them unless this store object saved them all itself. Watching the signal rather than SQLite's log keeps the
/// watch silent while a save writes, and the commit is visible by the time the signal changes.
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
        // The watch reads with a connection of its own, opened at its first check: the store's readers stay free
        // for the app, and the store's statement log shows the app's statements only.
        let connection = Locked<SQLiteConnection?>(nil)
        let path = store.configuration.url.path
        store.isWatched.withLock { $0 = true }
        registration = FileChangeMonitor.shared.register(
            directory: signal.deletingLastPathComponent().path, fileNames: [signal.lastPathComponent]
        ) {
            // Checks run one at a time, on the monitor's thread.
            let tokens = connection.withLock { connection -> [Int64]? in
                if connection == nil {
                    connection = try? SQLiteConnection(path: path, readOnly: true, log: SQLiteStatementLog())
                }
                guard let reader = connection else { return nil }
                return try? SQLiteHistory.tokens(after: newest.withLock { $0 }, reader)
            }
            guard let tokens else { return }
            if let last = tokens.last { newest.withLock { $0 = last } }
            if store.takeOwnTransactions(tokens, through: newest.withLock { $0 }), let last = tokens.last {
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
protocol StoreChangeWatch: Sendable {
    /// Stops watching; nothing is reported afterwards.
    func stop()
}
