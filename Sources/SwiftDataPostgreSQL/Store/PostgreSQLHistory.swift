internal import Foundation
internal import SwiftData

/// The history a PostgreSQL store records: one row per save in `"_swiftdata_history"`, written in the save's own
/// transaction, so that a save and its record commit or roll back together.
///
/// Tokens come from an identity column, which never gives one twice. A save takes a lock before it records its
/// transaction and keeps it until it commits, so tokens are given in commit order: a reader that has seen a token
/// has seen every smaller one that will ever commit. The greatest token ever deleted is kept in the metadata table,
/// as the SQLite store keeps it.
enum PostgreSQLHistory {
    static let tableName = "_swiftdata_history"
    /// The metadata key of the greatest token whose transaction was deleted.
    static let deletedThroughKey = "historyDeletedThrough"
    /// Takes, for the rest of the transaction, the lock a save of a store holds from recording its history
    /// transaction until it commits. Advisory locks belong to the whole database, so the lock is the store's own:
    /// a save that spans two stores of one database (in two schemas) takes two locks, not one twice.
    static func lockRecording(of storeIdentifier: String, _ connection: PostgreSQLConnection) throws {
        try connection.execute(
            "SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [.text("swiftdata-history:" + storeIdentifier)])
    }

    /// The statement that creates the history table.
    static var createSQL: String {
        "CREATE TABLE \(PostgreSQLDialect().quoted(tableName)) (\"token\" bigint GENERATED ALWAYS AS IDENTITY "
            + "PRIMARY KEY, \"author\" text, \"timestamp\" double precision NOT NULL, \"bundle\" text NOT NULL, "
            + "\"process\" text NOT NULL, \"changes\" bytea NOT NULL)"
    }

    /// The channel a store's saves announce their tokens on (`NOTIFY`), one per store.
    static func channel(of storeIdentifier: String) -> String {
        "swiftdata_" + storeIdentifier.lowercased().replacingOccurrences(of: "-", with: "")
    }

    /// The newest token recorded, or 0.
    static func newestToken(_ connection: PostgreSQLConnection) throws -> Int64 {
        let result = try connection.execute("SELECT coalesce(max(\"token\"), 0) FROM \"\(tableName)\"")
        return result.integer(row: 0, column: 0) ?? 0
    }

    /// The greatest token whose transaction was deleted, or 0.
    static func deletedThrough(_ connection: PostgreSQLConnection) throws -> Int64 {
        let result = try connection.execute(
            "SELECT \"value\" FROM \"\(PostgreSQLModelStore.metadataTable)\" WHERE \"key\" = $1",
            [.text(deletedThroughKey)])
        return result.rowCount > 0 ? Int64(result.text(row: 0, column: 0) ?? "") ?? 0 : 0
    }

    /// Records that the transactions up to `token` may be gone, unless a later one was recorded already.
    static func recordDeleted(through token: Int64, _ connection: PostgreSQLConnection) throws {
        try connection.execute(
            "INSERT INTO \"\(PostgreSQLModelStore.metadataTable)\" (\"key\", \"value\") VALUES ($1, $2) "
                + "ON CONFLICT (\"key\") DO UPDATE SET \"value\" = "
                + "greatest(\"\(PostgreSQLModelStore.metadataTable)\".\"value\"::bigint, EXCLUDED.\"value\"::bigint)::text",
            [.text(deletedThroughKey), .text(String(token))])
    }
}

extension PostgreSQLModelStore: StoreHistory {
    var recordedHistory: (any StoreHistory)? { self }

    /// Reads the transactions and the deleted tokens in one snapshot of the database, so that a deletion between
    /// the two reads cannot make the history look cut short.
    func transactions(after token: Int64?) throws -> (transactions: [RecordedTransaction], deletedThrough: Int64) {
        let sql =
            "SELECT \"token\", \"author\", \"timestamp\", \"bundle\", \"process\", \"changes\" FROM "
            + "\"\(PostgreSQLHistory.tableName)\" WHERE \"token\" > $1 ORDER BY \"token\""
        return try historyAccess("reading") {
            try inTransaction(isolation: "REPEATABLE READ READ ONLY") { connection in
                let result = try connection.execute(sql, [.integer(token ?? 0)])
                let transactions = try (0..<result.rowCount).map { row in
                    guard let token = result.integer(row: row, column: 0),
                        case .real(let timestamp) = result.value(row: row, column: 2),
                        let bundle = result.text(row: row, column: 3), let process = result.text(row: row, column: 4),
                        case .blob(let bytes) = result.value(row: row, column: 5)
                    else { throw RecordedChanges.Malformed() }
                    return RecordedTransaction(
                        token: token, author: result.text(row: row, column: 1),
                        timestamp: Date(timeIntervalSinceReferenceDate: timestamp), bundleIdentifier: bundle,
                        processIdentifier: process, changes: try RecordedChanges(decoding: bytes))
                }
                return (transactions, try PostgreSQLHistory.deletedThrough(connection))
            }
        }
    }

    func newestToken() throws -> Int64 {
        // Tokens are never given twice, so one of a deleted transaction is a place in history too.
        try historyAccess("reading") {
            try pool.withConnection {
                max(try PostgreSQLHistory.newestToken($0), try PostgreSQLHistory.deletedThrough($0))
            }
        }
    }

    func isOwnTransaction(_ token: Int64) -> Bool {
        ownTransactions.madeHere(token)
    }

    func deleteTransactions(_ tokens: [Int64]) throws {
        guard let highest = tokens.max() else { return }
        try historyAccess("deleting") {
            try inTransaction { connection in
                let keys = PostgreSQLKeyList(tokens)
                try connection.execute(
                    "DELETE FROM \"\(PostgreSQLHistory.tableName)\" WHERE \(keys.condition(on: "\"token\"", parameter: 1))",
                    [keys.parameter])
                try PostgreSQLHistory.recordDeleted(through: highest, connection)
            }
        }
    }

    func watchRemoteChanges(_ onChange: @escaping @Sendable (Int64) -> Void) -> (any StoreChangeWatch)? {
        PostgreSQLChangeWatch(store: self, onChange: onChange)
    }

    // MARK: - Internal

    /// Runs `body` in a transaction of its own on a connection of the pool, at an isolation level (PostgreSQL's
    /// default, READ COMMITTED, when nil).
    func inTransaction<Result>(isolation: String? = nil, _ body: (PostgreSQLConnection) throws -> Result) throws
        -> Result
    {
        let connection = try pool.take()
        defer { pool.give(connection) }
        try connection.beginTransaction(isolation: isolation)
        do {
            let result = try body(connection)
            try connection.commitTransaction()
            return result
        } catch {
            try? connection.rollBackTransaction()
            throw error
        }
    }
}
