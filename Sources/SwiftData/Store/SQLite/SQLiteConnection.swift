internal import CSQLite

/// One connection to a SQLite database, with a prepared-statement cache and a log of executed SQL.
///
/// Related SQLite documentation: https://www.sqlite.org/c3ref/open.html
package final class SQLiteConnection {
    let handle: OpaquePointer
    let path: String
    /// Prepared statements by their SQL, the least recently used forgotten past `statementLimit`.
    private var statements = LeastRecentlyUsedCache<String, SQLiteStatement>(limit: statementLimit)
    private let log: SQLiteStatementLog
    /// The key of the row the last upsert statement overwrote, set by `overwrittenRowFunction` while the statement
    /// runs; whoever runs one sets it to nil first.
    var overwrittenRowKey: Int64?

    /// Opens a connection. `path` is a file path or `:memory:`.
    package init(path: String, readOnly: Bool, log: SQLiteStatementLog) throws {
        self.log = log
        var db: OpaquePointer?
        let flags = (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &db, flags, nil)
        guard code == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            if let db { sqlite3_close_v2(db) }
            throw SQLiteError(resultCode: code, extendedResultCode: code, message: message, sql: nil)
        }
        self.handle = db
        self.path = path
        sqlite3_extended_result_codes(db, 1)
        SQLiteFunctions.register(on: db)
        registerOverwrittenRowFunction()
        // Another connection or process holding the write lock makes this one wait, up to a minute, rather than
        // fail with SQLITE_BUSY.
        sqlite3_busy_timeout(db, Self.busyTimeout)
    }

    deinit {
        statements.removeAll()
        sqlite3_close_v2(handle)
    }

    // MARK: - Executing SQL

    /// Runs one or more statements that return no rows and take no values.
    package func execute(_ sql: String) throws {
        log.record(sql)
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw error(code, sql: sql) }
    }

    /// A cached prepared statement for the SQL.
    package func statement(_ sql: String) throws -> SQLiteStatement {
        log.record(sql)
        if let cached = statements.value(for: sql) { return cached }
        let statement = try SQLiteStatement(connection: self, sql: sql)
        // A statement pushed out is finalized once no caller holds it any longer.
        statements.insert(statement, for: sql)
        return statement
    }

    /// The most prepared statements a connection keeps.
    static let statementLimit = 256

    /// How many prepared statements the connection keeps.
    var cachedStatementCount: Int { statements.count }

    /// The rowid of the last inserted row.
    var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Sets `lastInsertedRowID` to 0, so that after a statement that may or may not insert, a value other than 0
    /// is the row it inserted rather than one an earlier statement, of any table, left behind.
    func resetLastInsertedRowID() { sqlite3_set_last_insert_rowid(handle, 0) }

    /// True inside a transaction, when a statement's changes are not committed until an outer `COMMIT`.
    var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// Runs `body` in a `BEGIN IMMEDIATE` transaction: committed when it returns, rolled back when it throws.
    ///
    /// Inside a transaction already (a migration running contexts over its tables), it uses a savepoint instead,
    /// so the work joins the outer transaction and still rolls back alone on failure.
    package func inTransaction<T>(_ body: () throws -> T) throws -> T {
        let transaction = try beginTransaction()
        do {
            let result = try body()
            try commit(transaction)
            return result
        } catch {
            rollBack(transaction)
            throw error
        }
    }

    /// Runs `body` in a read transaction (`BEGIN DEFERRED`), so that every statement it runs sees the same state of
    /// the database; inside a transaction already, in that one.
    func inReadTransaction<T>(_ body: () throws -> T) throws -> T {
        guard !isInTransaction else { return try body() }
        try execute("BEGIN DEFERRED")
        // A transaction that wrote nothing ends the same whether committed or rolled back, and cannot fail to.
        defer { try? execute("COMMIT") }
        return try body()
    }

    /// A transaction `beginTransaction()` opened: the connection's own, or a savepoint inside one already open.
    struct Transaction {
        fileprivate let savepoint: String?
    }

    /// Opens a `BEGIN IMMEDIATE` transaction, or a savepoint when one is open already; `commit(_:)` or
    /// `rollBack(_:)` ends it. A save that spans several stores keeps one open on each until every store wrote its
    /// part.
    func beginTransaction() throws -> Transaction {
        guard sqlite3_get_autocommit(handle) == 0 else {
            try execute("BEGIN IMMEDIATE")
            return Transaction(savepoint: nil)
        }
        savepointDepth += 1
        let name = "swiftdata_\(savepointDepth)"
        do {
            try execute("SAVEPOINT \(name)")
        } catch {
            savepointDepth -= 1
            throw error
        }
        return Transaction(savepoint: name)
    }

    /// Commits a transaction (or releases a savepoint into the transaction around it). A commit that fails is
    /// rolled back, so the transaction is over either way.
    func commit(_ transaction: Transaction) throws {
        do {
            if let savepoint = transaction.savepoint {
                try execute("RELEASE \(savepoint)")
                savepointDepth -= 1
            } else {
                try execute("COMMIT")
            }
        } catch {
            rollBack(transaction)
            throw error
        }
    }

    /// Rolls a transaction back (or a savepoint, leaving the transaction around it open).
    func rollBack(_ transaction: Transaction) {
        if let savepoint = transaction.savepoint {
            try? execute("ROLLBACK TO \(savepoint)")
            try? execute("RELEASE \(savepoint)")
            savepointDepth -= 1
        } else if sqlite3_get_autocommit(handle) == 0 {
            try? execute("ROLLBACK")
        }
    }

    private var savepointDepth = 0

    /// Runs `body` with SQLite failing at once with `SQLITE_BUSY` instead of waiting for another connection's lock,
    /// for work that is skipped rather than waited for.
    func withoutWaitingForLocks<Result>(_ body: () throws -> Result) rethrows -> Result {
        sqlite3_busy_timeout(handle, 0)
        defer { sqlite3_busy_timeout(handle, Self.busyTimeout) }
        return try body()
    }

    /// How long a connection waits for another connection's lock, in milliseconds.
    static let busyTimeout: Int32 = 60_000

    /// How many rows the last `INSERT`, `UPDATE` or `DELETE` changed.
    var changedRowCount: Int { Int(sqlite3_changes64(handle)) }

    func error(_ code: Int32, sql: String?) -> SQLiteError {
        SQLiteError(
            resultCode: code & 0xFF,
            extendedResultCode: sqlite3_extended_errcode(handle),
            message: String(cString: sqlite3_errmsg(handle)),
            sql: sql
        )
    }
}

/// Quotes an SQL identifier: `name` → `"name"`, doubling any quote inside.
func quoted(_ identifier: String) -> String {
    // Saves build SQL for every row: skip Foundation's search when there is no quote to double, as is usual.
    guard identifier.utf8.contains(UInt8(ascii: "\"")) else { return "\"" + identifier + "\"" }
    return "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
}

/// A string as an SQL string literal, in single quotes, for SQL text that names a value it cannot bind (a table's
/// name given to a pragma, a class name in a `CHECK`).
package func sqlStringLiteral(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
}
