internal import SwiftData

extension PostgreSQLModelStore {
    // MARK: - Reading Through Cursors

    /// True: an enumeration reads its pages from one server-side cursor (see `PostgreSQLCursor`). False for a
    /// custom migration stage's store, whose one connection is in the migration's transaction: a cursor's own
    /// transaction would end the migration's.
    var readsThroughCursors: Bool { !isMigrationStore }

    /// Commits the cursor's read-only transaction, which closes the cursor, and gives its connection back to the
    /// pool. A connection that broke, or whose transaction did not end, is dropped by the pool instead.
    func closeCursor(_ cursor: StoreCursor) {
        cursor.isClosed = true
        guard let open = cursor.storeState as? PostgreSQLCursor else { return }
        cursor.storeState = nil
        // COMMIT of a transaction that a failed FETCH aborted rolls it back, and leaves the connection usable.
        try? open.connection.executeScript("COMMIT")
        pool.give(open.connection)
    }

    /// The next page of a cursor's rows, or nil once the cursor is closed. The first page opens the cursor for
    /// `sql` with its bindings; a page shorter than the cursor's page size is the last, and closes it at once, so
    /// the connection goes back to the pool before the context hands the page to the app.
    ///
    /// - Throws: like `readRows(_:_:)`; the cursor is then closed.
    func nextPage(
        of cursor: StoreCursor, _ sql: String, _ bindings: [SQLValue], entity: Schema.Entity, filtered: Bool
    ) throws -> PostgreSQLResult? {
        guard !cursor.isClosed else { return nil }
        let fetch = "FETCH FORWARD \(cursor.pageSize) FROM \(PostgreSQLCursor.name)"
        let page: PostgreSQLResult
        do {
            if let open = cursor.storeState as? PostgreSQLCursor {
                page = try open.connection.execute(fetch)
            } else {
                let (connection, first) = try pool.take { connection in
                    try Self.openCursor(sql, bindings, on: connection, fetching: fetch)
                }
                cursor.storeState = PostgreSQLCursor(connection: connection)
                page = first
            }
        } catch let error as PostgreSQLError {
            closeCursor(cursor)
            throw readFailure(error, sql: sql, entity: entity, filtered: filtered)
        }
        if page.rowCount < cursor.pageSize { closeCursor(cursor) }
        return page
    }

    // MARK: - Internal

    /// Begins a read-only transaction that reads one snapshot on a connection, declares the cursor for a `SELECT`
    /// in it and fetches the first page; when any of it fails, the transaction is rolled back so the connection can
    /// serve again.
    ///
    /// - Throws: `PostgreSQLError` from the server.
    private static func openCursor(
        _ sql: String, _ bindings: [SQLValue], on connection: PostgreSQLConnection, fetching fetch: String
    ) throws -> PostgreSQLResult {
        do {
            try connection.executeScript("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            // The bindings are the SELECT's parameters: DECLARE takes them as the statement it declares would.
            try connection.execute("DECLARE \(PostgreSQLCursor.name) NO SCROLL CURSOR FOR \(sql)", bindings)
            return try connection.execute(fetch)
        } catch {
            if connection.isUsable { try? connection.executeScript("ROLLBACK") }
            throw error
        }
    }
}
