internal import Foundation
internal import SwiftData
internal import Synchronization

/// Watches a PostgreSQL store for saves committed by other processes, machines or containers, and reports the
/// newest token of their transactions (see `PostgreSQLModelStore.watchRemoteChanges(_:)`).
///
/// Every save that records a history transaction announces its token on the store's channel (`pg_notify` in the
/// save's transaction, so it is delivered when the save commits and never for one that rolls back). The watch
/// listens on a connection of its own, on a thread of its own, and reports tokens this store object did not save.
/// When it has no connection (the server restarted, or could not be reached when the watch started), it tries again
/// every half second and, once listening, reports the newest token, since announcements made meanwhile were lost
/// (readers of the history skip the store's own transactions). libpq's TCP keepalives (see `PostgreSQLConnection`)
/// tell a connection a network dropped silently from one that is only quiet.
final class PostgreSQLChangeWatch: StoreChangeWatch, Sendable {
    /// Set once the watch stops; its thread ends at its next wake-up.
    private final class StopFlag: Sendable {
        let isSet = Atomic<Bool>(false)
    }

    private let stopped = StopFlag()

    /// Starts watching.
    init(store: PostgreSQLModelStore, onChange: @escaping @Sendable (Int64) -> Void) {
        let url = store.configuration.url
        let channel = PostgreSQLHistory.channel(of: store.identifier)
        let own = store.ownTransactions
        let first = try? Self.listen(url: url, channel: channel)
        let stopped = stopped
        let thread = Thread {
            // The connection is this thread's alone.
            var listener: PostgreSQLConnection? = first
            while !stopped.isSet.load(ordering: .acquiring) {
                guard let connection = listener else {
                    // Connecting again after a break: announcements made meanwhile are gone, so the newest token
                    // stands for them.
                    Thread.sleep(forTimeInterval: 0.5)
                    guard let fresh = try? Self.listen(url: url, channel: channel) else { continue }
                    listener = fresh
                    if let newest = try? PostgreSQLHistory.newestToken(fresh), newest > 0 { onChange(newest) }
                    continue
                }
                do {
                    let tokens = try connection.notifications(waitingUpTo: 0.25).compactMap { Int64($0) }
                    if let newest = tokens.filter({ !own.madeHere($0) }).max() { onChange(newest) }
                } catch {
                    listener = nil
                }
            }
        }
        thread.name = "SwiftData PostgreSQL change watch"
        thread.start()
    }

    func stop() {
        stopped.isSet.store(true, ordering: .releasing)
    }

    deinit { stop() }

    /// A connection listening on the store's channel.
    private static func listen(url: URL, channel: String) throws -> PostgreSQLConnection {
        let connection = try PostgreSQLConnection(url: url)
        try connection.executeScript("LISTEN \(PostgreSQLDialect().quoted(channel))")
        return connection
    }
}
