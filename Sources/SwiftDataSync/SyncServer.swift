public import Foundation

/// The server that keeps every account's records and change log, which replicas sync through: the part CloudKit's
/// servers play on Apple platforms.
///
/// ```swift
/// let server = SyncServer.postgreSQL(url: URL(string: "postgresql://sync.example.com/notes")!)
/// let engine = try SyncEngine(container: container, server: server, account: "alice")
/// ```
public struct SyncServer: Sendable {
    /// Makes the transport of one account's engine.
    let connect: @Sendable (_ account: String) async throws -> any SyncTransport

    /// A server reached through transports that `connect` makes for each account.
    ///
    /// - Parameter connect: Makes the transport of an account's engine; called when the engine first syncs, and
    ///   again after a transport failed.
    public init(connect: @escaping @Sendable (_ account: String) async throws -> any SyncTransport) {
        self.connect = connect
    }

    /// Makes the transport of an account's engine, as the engine does when it first syncs.
    ///
    /// - Throws: What the server throws when the account cannot connect.
    public func makeTransport(account: String) async throws -> any SyncTransport {
        try await connect(account)
    }

    /// A PostgreSQL database that holds every account's records and change log.
    ///
    /// Each account's engine connects as the database role named as the account (the URL's user, or the account
    /// when the URL names none), and row-level security lets that role read and write its own records only. The
    /// engine creates the tables it needs when the role may; otherwise run ``preparePostgreSQL(url:)`` once, as
    /// the database's owner.
    ///
    /// - Parameter url: A libpq connection URI, `postgresql://[user@]host[:port]/database[?...]`.
    public static func postgreSQL(url: URL) -> SyncServer {
        SyncServer { account in try PostgreSQLSyncTransport(url: url, account: account) }
    }

    /// Creates the tables, row-level security policies and grants that sync needs in a PostgreSQL database; does
    /// nothing when they exist. Connect as the role that is to own them, which no account's engine should use:
    /// the owner of a table can turn its policies off.
    ///
    /// - Throws: `PostgreSQLError` when the server cannot be reached or the role may not create them.
    public static func preparePostgreSQL(url: URL) throws {
        try PostgreSQLSyncTransport.prepare(url: url)
    }
}
