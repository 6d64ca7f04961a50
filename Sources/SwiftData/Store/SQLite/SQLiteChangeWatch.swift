internal import Foundation

/// Watches an SQLite store's files for saves committed by other processes (or other containers of this one), and
/// reports the newest token of their transactions (see `SQLiteStore.watchRemoteChanges(_:)`).
///
/// The process's `FileChangeMonitor` runs its check whenever the store's file or write-ahead log changes: the
/// check asks the store's history for transactions newer than the last it saw, and reports them unless this store
/// object saved them all itself.
final class SQLiteChangeWatch: StoreChangeWatch, @unchecked Sendable {
    // @unchecked: `registration` is guarded by `lock`; the store's own state has locks of its own.
    private let lock = NSLock()
    private var registration: Int?

    /// Starts watching, or returns nil when the store has no file to watch.
    init?(store: SQLiteStore, onChange: @escaping @Sendable (Int64) -> Void) {
        guard !store.configuration.isStoredInMemoryOnly else { return nil }
        let url = store.configuration.url
        let name = url.lastPathComponent
        // The newest token when the store opened: saves committed before are not reported.
        let newest = Locked(store.historyTokenAtOpen)
        // The watch reads with a connection of its own, opened at its first check: the store's readers stay free
        // for the app, and the store's statement log shows the app's statements only.
        let connection = Locked<SQLiteConnection?>(nil)
        let path = url.path
        store.isWatched.withLock { $0 = true }
        registration = FileChangeMonitor.shared.register(
            directory: url.deletingLastPathComponent().path, fileNames: [name, name + "-wal"]
        ) {
            // Checks run one at a time, on the monitor's thread.
            let tokens = connection.withLock { connection -> [Int64]? in
                if connection == nil {
                    connection = try? SQLiteConnection(path: path, readOnly: true, log: SQLiteStatementLog())
                }
                guard let reader = connection else { return nil }
                return try? SQLiteHistory.tokens(after: newest.withLock { $0 }, reader)
            }
            guard let tokens, let last = tokens.last else { return }
            newest.withLock { $0 = last }
            if store.takeOwnTransactions(tokens) { onChange(last) }
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
