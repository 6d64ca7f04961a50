internal import Foundation
internal import Synchronization

/// The connections of one store: each read or save takes one, and gives it back when done.
///
/// The pool opens connections as they are needed and keeps up to `idleLimit` of them open between uses. A
/// connection that broke (the server restarted) is dropped on return, and a read that found its connection broken
/// before it ran a statement runs again on a new one: the next operation after a restart reconnects.
final class PostgreSQLConnectionPool: Sendable {
    let url: URL
    /// The server's address without its password, for messages.
    let server: String
    private let idle = Mutex<[PostgreSQLConnection]>([])
    /// The connections kept open between uses.
    let idleLimit: Int
    /// The one connection a migration's pool hands out, in the migration's transaction; nil for other pools.
    let shared: PostgreSQLConnection?

    /// A pool whose first connection opens now, so that a wrong URL or an unreachable server fails at once.
    ///
    /// - Throws: `PostgreSQLError` when the server cannot be reached or refuses the login.
    init(url: URL, idleLimit: Int = 4) throws {
        self.url = url
        self.server = ServerAddress.redacted(url)
        self.idleLimit = idleLimit
        self.shared = nil
        let first = try PostgreSQLConnection(url: url)
        idle.withLock { $0.append(first) }
    }

    /// A pool that hands out only a migration's connection, whose transaction is open: everything the contexts of a
    /// custom migration stage read and write happens in it, and it is never replaced, closed or kept.
    init(sharing connection: PostgreSQLConnection, url: URL) {
        self.url = url
        self.server = connection.server
        self.idleLimit = 0
        self.shared = connection
    }

    /// Takes a connection: an idle one that still works, or a new one.
    ///
    /// - Throws: `PostgreSQLError` when no connection can be opened.
    func take() throws -> PostgreSQLConnection {
        if let shared { return shared }
        while let connection = idle.withLock({ $0.popLast() }) {
            if connection.isUsable { return connection }
        }
        return try PostgreSQLConnection(url: url)
    }

    /// Gives a connection back. One that broke, or that still has a transaction open (a save that failed to end
    /// it), is closed instead of kept.
    func give(_ connection: PostgreSQLConnection) {
        guard shared == nil, connection.isUsable, !connection.isInTransaction else { return }
        idle.withLock { connections in
            if connections.count < idleLimit { connections.append(connection) }
        }
    }

    /// Takes a connection and runs `body` with it, for work that keeps the connection past this call (a cursor):
    /// the caller gives it back with `give(_:)` when that work ends. A body that fails because the connection was
    /// lost runs once more on a new connection, as in `withConnection(_:)`; a body that fails otherwise gives the
    /// connection back.
    ///
    /// - Throws: what `body` throws, and `PostgreSQLError` when no connection can be opened.
    func take<Result>(running body: (PostgreSQLConnection) throws -> Result) throws
        -> (connection: PostgreSQLConnection, result: Result)
    {
        let connection = try take()
        do {
            return (connection, try body(connection))
        } catch let error as PostgreSQLError where !connection.isUsable && shared == nil {
            _ = error
            let fresh = try PostgreSQLConnection(url: url)
            do {
                return (fresh, try body(fresh))
            } catch {
                give(fresh)
                throw error
            }
        } catch {
            give(connection)
            throw error
        }
    }

    /// Runs `body` with a connection, then gives the connection back. A body that fails because the connection was
    /// lost runs once more on a new connection: `body` must be a read, or a write that is one transaction of its
    /// own, so that running it again is safe.
    ///
    /// - Throws: what `body` throws, and `PostgreSQLError` when no connection can be opened.
    func withConnection<Result>(_ body: (PostgreSQLConnection) throws -> Result) throws -> Result {
        let connection = try take()
        do {
            let result = try body(connection)
            give(connection)
            return result
        } catch let error as PostgreSQLError where !connection.isUsable && shared == nil {
            _ = error
            let fresh = try PostgreSQLConnection(url: url)
            defer { give(fresh) }
            return try body(fresh)
        } catch {
            give(connection)
            throw error
        }
    }
}
