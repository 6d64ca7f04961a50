internal import Foundation

#if canImport(Glibc)
    internal import Glibc
#endif

/// The history an SQLite store records: one row per save in `_swiftdata_history`, written in the save's own
/// transaction, so that a save and its record commit or roll back together.
///
/// A row holds the save's author, time, program and process, and its changes in `RecordedChanges`' compact form.
/// Tokens are the rows' keys, declared `AUTOINCREMENT` so that a deleted transaction's token is never given again.
/// The greatest token ever deleted is kept in the metadata table: a fetch that names an older token learns that
/// part of the history after it is gone (`SwiftDataError.historyTokenExpired`).
enum SQLiteHistory {
    static let tableName = "_swiftdata_history"
    /// The metadata key of the greatest token whose transaction was deleted.
    static let deletedThroughKey = "historyDeletedThrough"

    /// Creates the history table in a store that does not have it yet.
    static func prepare(_ connection: SQLiteConnection) throws {
        try connection.execute(
            "CREATE TABLE IF NOT EXISTS \(quoted(tableName)) (\"token\" INTEGER PRIMARY KEY AUTOINCREMENT, "
                + "\"author\" TEXT, \"timestamp\" REAL NOT NULL, \"bundle\" TEXT NOT NULL, "
                + "\"process\" TEXT NOT NULL, \"changes\" BLOB NOT NULL)")
    }

    /// True when the store has the history table.
    static func exists(_ connection: SQLiteConnection) throws -> Bool {
        try !connection.statement("SELECT 1 FROM sqlite_schema WHERE \"name\" = ?1").rows([.text(tableName)]).isEmpty
    }

    /// The newest transaction's token, or 0 (also when the store has no history table).
    static func newestToken(_ connection: SQLiteConnection) throws -> Int64 {
        guard try exists(connection) else { return 0 }
        let rows = try connection.statement("SELECT max(\"token\") FROM \(quoted(tableName))").rows()
        if case .integer(let token) = rows.first?.first { return token }
        return 0
    }

    /// The tokens of the transactions after `token`, in order.
    static func tokens(after token: Int64, _ connection: SQLiteConnection) throws -> [Int64] {
        guard try exists(connection) else { return [] }
        return try connection.statement(
            "SELECT \"token\" FROM \(quoted(tableName)) WHERE \"token\" > ?1 ORDER BY \"token\""
        ).rows([.integer(token)]).compactMap { if case .integer(let token) = $0.first { token } else { nil } }
    }

    /// The file a save writes once it has committed a history transaction: watches of the store in other processes
    /// and containers learn of the commit from it (see `SQLiteChangeWatch`). Beside the store file, as SQLite's
    /// own `-wal` and `-shm` files are.
    static func signalURL(of storeURL: URL) -> URL {
        // The directory is resolved, not the store file, which may not exist yet when a store opens: every process
        // that opens the store by any path then names the same signal.
        let directory = FileChangeMonitor.resolved(storeURL.deletingLastPathComponent().path)
        return URL(fileURLWithPath: directory).appendingPathComponent(storeURL.lastPathComponent + "-commits")
    }

    /// Writes the commit signal: the token of the committed transaction, replacing what the file held. Watches
    /// learn of it when the file is closed, with the token written. Best-effort: a signal that cannot be written
    /// delays other processes' notifications, never the save.
    static func signalCommit(_ token: Int64, at url: URL) {
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return }
        var value = token
        _ = withUnsafeBytes(of: &value) { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
    }

    /// The token the commit signal holds, or nil when it cannot be read.
    static func signalledToken(at url: URL) -> Int64? {
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var value: Int64 = 0
        let count = withUnsafeMutableBytes(of: &value) { read(descriptor, $0.baseAddress, $0.count) }
        return count == MemoryLayout<Int64>.size ? value : nil
    }
}

extension SQLiteSaveWriter {
    /// The stored columns of the preserved attributes of rows about to be deleted, by key: read in the save's
    /// transaction, before the rows go. Empty when the entity preserves nothing.
    mutating func preservedValues(of entity: Schema.Entity, keys: [Int64]) throws -> [Int64: [(String, [SQLValue])]] {
        let preserved = entity.attributesPreservedOnDeletion
        guard !preserved.isEmpty, let layout = store.layouts[entity.name] else { return [:] }
        let ranges = preserved.map { layout.columnRangeByProperty[$0.index] ?? 0..<0 }
        let columns = ranges.flatMap { $0.map { quoted(layout.columns[$0].name) } }
        guard !columns.isEmpty else { return [:] }
        let condition = SQLiteKeySet(keys).condition(on: quoted(SQLTableLayout.primaryKey))
        let sql =
            "SELECT \(quoted(SQLTableLayout.primaryKey)), \(columns.joined(separator: ", ")) "
            + "FROM \(quoted(layout.tableName)) WHERE \(condition.sql)"
        var values: [Int64: [(String, [SQLValue])]] = [:]
        for row in try statement(sql).rows(condition.bindings) {
            guard case .integer(let key) = row[0] else { continue }
            var position = 1
            values[key] = zip(preserved, ranges).map { property, range in
                defer { position += range.count }
                return (property.name, Array(row[position..<position + range.count]))
            }
        }
        return values
    }

    /// Notes that the inserted model at `position` is of `entity`, extending the last run when it is of the same.
    mutating func noteInsert(at position: Int, of entity: Schema.Entity) {
        if let last = insertRuns.indices.last, insertRuns[last].entity === entity,
            insertRuns[last].positions.upperBound == position
        {
            insertRuns[last].positions = insertRuns[last].positions.lowerBound..<position + 1
        } else {
            insertRuns.append((entity, position..<position + 1))
        }
    }

    /// Records the save's changes as one transaction of the store's history, unless the save changed no row or
    /// is a migration's (whose changes are no user's).
    ///
    /// An inserted model that overwrote a stored row through a uniqueness constraint is recorded as an update of
    /// that row naming every persisted property, since the store wrote them all; one that overwrote a row an
    /// earlier insert of the save added is part of that insert. A row whose links to deleted rows the store cleared
    /// (see `noteUnlinkedRows`) is recorded as an update of the relationships that lost them. Each row is recorded
    /// once: a row the context also lists as updated has one update naming the properties of both.
    mutating func recordHistory(
        _ changes: StoreChanges, deleted: [(entity: Schema.Entity, keys: [Int64])],
        preserved: [[Int64: [(String, [SQLValue])]]]
    ) throws {
        guard !store.isMigrationStore else { return }
        let recorded = RecordedChanges(
            insertRuns: insertRuns, insertedKeys: insertedKeys, rewrites: rewrites, updated: changes.updated,
            storeSideUpdates: unlinkedRows, deleted: deleted, preserved: preserved)
        guard !recorded.isEmpty else { return }
        let program = RecordedTransaction.currentProgram
        try statement(
            "INSERT INTO \(quoted(SQLiteHistory.tableName)) (\"author\", \"timestamp\", \"bundle\", \"process\", "
                + "\"changes\") VALUES (?1, ?2, ?3, ?4, ?5)"
        ).execute([
            changes.editingState?.author.map { .text($0) } ?? .null,
            .real(Date().timeIntervalSinceReferenceDate),
            .text(program.bundleIdentifier), .text(program.processIdentifier), .blob(recorded.encoded()),
        ])
        recordedToken = connection.lastInsertedRowID
    }
}

extension SQLiteStore: StoreHistory {
    var recordedHistory: (any StoreHistory)? { self }

    func transactions(after token: Int64?) throws -> (transactions: [RecordedTransaction], deletedThrough: Int64) {
        let sql =
            "SELECT \"token\", \"author\", \"timestamp\", \"bundle\", \"process\", \"changes\" FROM "
            + "\(quoted(SQLiteHistory.tableName)) WHERE \"token\" > ?1 ORDER BY \"token\""
        return try historyAccess("reading") {
            try pool.read { connection in
                // A store opened read-only that never recorded history has no table.
                guard try SQLiteHistory.exists(connection) else { return ([], 0) }
                let transactions = try connection.statement(sql).rows([.integer(token ?? 0)]).map { row in
                    guard case .integer(let token) = row[0], case .real(let timestamp) = row[2],
                        case .text(let bundle) = row[3], case .text(let process) = row[4],
                        case .blob(let bytes) = row[5]
                    else { throw RecordedChanges.Malformed() }
                    let author: String? = if case .text(let author) = row[1] { author } else { nil }
                    return RecordedTransaction(
                        token: token, author: author, timestamp: Date(timeIntervalSinceReferenceDate: timestamp),
                        bundleIdentifier: bundle, processIdentifier: process,
                        changes: try RecordedChanges(decoding: bytes))
                }
                return (transactions, try deletedThrough(connection))
            }
        }
    }

    func isOwnTransaction(_ token: Int64) -> Bool {
        ownTransactions.madeHere(token)
    }

    func newestToken() throws -> Int64 {
        // Tokens are never given twice, so one of a deleted transaction is a place in history too.
        try historyAccess("reading") {
            try pool.read { try max(SQLiteHistory.newestToken($0), deletedThrough($0)) }
        }
    }

    func deleteTransactions(_ tokens: [Int64]) throws {
        guard let highest = tokens.max() else { return }
        try historyAccess("deleting") {
            try pool.write { connection in
                try connection.inTransaction {
                    guard try SQLiteHistory.exists(connection) else { return }
                    let condition = SQLiteKeySet(tokens).condition(on: "\"token\"")
                    try connection.statement(
                        "DELETE FROM \(quoted(SQLiteHistory.tableName)) WHERE \(condition.sql)"
                    ).execute(condition.bindings)
                    try recordDeleted(through: highest, connection)
                }
            }
        }
    }

    /// Deletes every transaction, in a transaction the caller opened: tokens given so far are never given again, and
    /// each counts as deleted.
    func clearHistory(_ connection: SQLiteConnection) throws {
        guard try SQLiteHistory.exists(connection) else { return }
        let highest = try connection.statement("SELECT max(\"token\") FROM \(quoted(SQLiteHistory.tableName))").rows()
        try connection.execute("DELETE FROM \(quoted(SQLiteHistory.tableName))")
        guard case .integer(let token) = highest.first?.first else { return }
        try recordDeleted(through: token, connection)
    }

    /// Records that the transactions up to `token` may be gone, unless a later one was recorded already.
    private func recordDeleted(through token: Int64, _ connection: SQLiteConnection) throws {
        try connection.statement(
            "INSERT OR REPLACE INTO \(quoted(Self.metadataTable)) (key, value) VALUES (?1, ?2)"
        ).execute([.text(SQLiteHistory.deletedThroughKey), .text(String(max(token, try deletedThrough(connection))))])
    }

    func watchRemoteChanges(_ onChange: @escaping @Sendable (Int64) -> Void) -> (any StoreChangeWatch)? {
        SQLiteChangeWatch(store: self, onChange: onChange)
    }

    /// The greatest token whose transaction was deleted, or 0.
    private func deletedThrough(_ connection: SQLiteConnection) throws -> Int64 {
        let rows = try connection.statement("SELECT value FROM \(quoted(Self.metadataTable)) WHERE key = ?1")
            .rows([.text(SQLiteHistory.deletedThroughKey)])
        guard case .text(let text) = rows.first?.first else { return 0 }
        return Int64(text) ?? 0
    }
}
