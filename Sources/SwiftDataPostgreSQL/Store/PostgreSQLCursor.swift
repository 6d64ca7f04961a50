/// What the PostgreSQL store keeps open for a `StoreCursor` between its pages: a connection taken from the pool for
/// the cursor alone, in the read-only transaction that declared the cursor.
///
/// The transaction is `REPEATABLE READ`, so every page reads the snapshot the first one did; the cursor is
/// `NO SCROLL`, read forward only, so the server keeps nothing of the pages already sent. A connection serves one
/// cursor at a time, so each cursor has the same name on its own connection.
///
/// Related PostgreSQL documentation: <https://www.postgresql.org/docs/current/sql-declare.html>
final class PostgreSQLCursor {
    /// The cursor's name on its connection.
    static let name = "_swiftdata_cursor"

    /// The connection the cursor lives on, given back to the pool when the cursor is closed.
    let connection: PostgreSQLConnection

    init(connection: PostgreSQLConnection) {
        self.connection = connection
    }
}
