internal import SwiftData

extension PostgreSQLModelStore {
    // MARK: - Saving

    /// Writes the changes in a transaction that stays open until the returned save commits or rolls back.
    ///
    /// An inserted model whose unique values match a stored row (or an earlier insert of the same save) takes that
    /// row's key and overwrites it: Apple's upsert. Nothing is written when this throws.
    func beginSave(_ changes: StoreChanges) throws -> any StoreSave {
        try PostgreSQLStoreSave(store: self, changes: changes)
    }

    /// Throws unless the store takes saves: a read-only store refuses every save, before any store of it writes.
    func checkAllowsSave(_ changes: StoreChanges) throws {
        guard !configuration.allowsSave else { return }
        let entityName = changes.firstEntityName
        throw SwiftDataError(
            .modelValidationFailure,
            "the store '\(configuration.name)' was opened with allowsSave: false and cannot save "
                + (entityName.map { "changes to \($0)" } ?? "changes"),
            entityName: entityName
        )
    }

    /// Deletes every row of every entity and join table, and the history, in one transaction: tokens given so far
    /// are never given again, and each counts as deleted.
    func deleteAllRows() throws {
        guard configuration.allowsSave else {
            throw SwiftDataError(
                .loadIssueModelContainer, "the store \(configuration.name) was opened with allowsSave: false")
        }
        let tables = Set(
            entities.map(\.tableName)
                + entities.flatMap { SQLTableLayout.joinTables(of: $0) })
        let sql = "TRUNCATE \(tables.sorted().map(dialect.quoted).joined(separator: ", "))"
        do {
            try inTransaction { connection in
                // The tables first, as saves lock them first: a save waits for the truncation, and not the other
                // way round while the truncation waits for the save's history lock.
                try connection.execute(sql)
                try PostgreSQLHistory.lockRecording(of: identifier, connection)
                let newest = try PostgreSQLHistory.newestToken(connection)
                try connection.execute("DELETE FROM \(dialect.quoted(PostgreSQLHistory.tableName))")
                try PostgreSQLHistory.recordDeleted(through: newest, connection)
            }
        } catch let error as PostgreSQLError {
            throw SwiftDataError(
                .loadIssueModelContainer, "deleting every row of the PostgreSQL store '\(name)' failed", sql: sql,
                underlying: error)
        }
    }
}

/// One store's part of a save: its changes written in a transaction that stays open, on a connection of its own,
/// until `commit()` or `rollBack()`.
final class PostgreSQLStoreSave: StoreSave {
    let postgreSQLStore: PostgreSQLModelStore
    private let connection: PostgreSQLConnection
    private let insertedKeys: [Int64]
    private var isOpen = true
    /// The token of the history transaction the save recorded, noted as the store's own until the save ends.
    private let recordedToken: Int64?

    /// Takes a connection, opens a transaction and writes the changes.
    ///
    /// - Throws: `SwiftDataError.modelValidationFailure` naming the store and the model that could not be
    ///   written; the transaction is rolled back.
    init(store: PostgreSQLModelStore, changes: StoreChanges) throws {
        try store.checkAllowsSave(changes)
        postgreSQLStore = store
        do {
            connection = try Self.beginTransaction(in: store.pool)
        } catch {
            throw Self.failure(error, store: store, entityName: changes.firstEntityName)
        }
        var writer = PostgreSQLSaveWriter(store: store, connection: connection)
        do {
            try writer.write(changes)
        } catch {
            try? connection.rollBackTransaction()
            store.pool.give(connection)
            throw Self.failure(error, store: store, entityName: writer.currentEntityName)
        }
        insertedKeys = writer.insertedKeys
        recordedToken = writer.recordedToken
        if let recordedToken { store.ownTransactions.note(recordedToken) }
    }

    var store: any ModelStore { postgreSQLStore }

    func identifierOfInserted(at position: Int, entity: Schema.Entity) -> PersistentIdentifier {
        PersistentIdentifier(
            scope: postgreSQLStore.identifierScope(entityName: entity.name), primaryKey: insertedKeys[position])
    }

    /// Commits the transaction. A connection lost during the commit leaves the outcome to the server: the save is
    /// then reported as failed, and PostgreSQL has either committed all of it or none.
    ///
    /// - Throws: `SwiftDataError.modelValidationFailure` naming the store when the commit fails.
    func commit() throws {
        precondition(isOpen, "a store's part of a save was ended twice")
        isOpen = false
        defer { postgreSQLStore.pool.give(connection) }
        // The transaction's number, to ask the server whether it committed if the connection is lost during the
        // commit: a save reported as failed when it committed would be written twice when the app saves again.
        let transaction = try? connection.execute("SELECT txid_current()").integer(row: 0, column: 0)
        do {
            try connection.commitTransaction()
        } catch {
            if let transaction, !connection.isUsable,
                let status = try? Self.status(of: transaction, in: postgreSQLStore.pool), status == "committed"
            {
                return
            }
            if let recordedToken { postgreSQLStore.ownTransactions.forget(recordedToken) }
            try? connection.rollBackTransaction()
            throw Self.failure(error, store: postgreSQLStore, entityName: nil)
        }
    }

    /// A connection of the pool with a transaction begun on it. An idle connection that broke while it waited (the
    /// server restarted) is replaced: nothing was written on it.
    private static func beginTransaction(in pool: PostgreSQLConnectionPool) throws -> PostgreSQLConnection {
        for _ in 0...pool.idleLimit {
            let connection = try pool.take()
            do {
                try connection.beginTransaction()
                return connection
            } catch  where !connection.isUsable && pool.shared == nil {
                continue
            }
        }
        if let shared = pool.shared {
            try shared.beginTransaction()
            return shared
        }
        let connection = try PostgreSQLConnection(url: pool.url)
        try connection.executeScript("BEGIN")
        return connection
    }

    /// What the server says became of a transaction: "committed", "aborted" or "in progress".
    private static func status(of transaction: Int64, in pool: PostgreSQLConnectionPool) throws -> String? {
        let connection = try PostgreSQLConnection(url: pool.url)
        return try connection.execute("SELECT txid_status($1::bigint)", [.integer(transaction)]).text(row: 0, column: 0)
    }

    func rollBack() {
        guard isOpen else { return }
        isOpen = false
        if let recordedToken { postgreSQLStore.ownTransactions.forget(recordedToken) }
        try? connection.rollBackTransaction()
        postgreSQLStore.pool.give(connection)
    }

    deinit {
        rollBack()
    }

    /// The error a store's failure reaches the app as: a `SwiftDataError` that names the store and, when known,
    /// the model being written.
    private static func failure(_ error: any Error, store: PostgreSQLModelStore, entityName: String?) -> SwiftDataError
    {
        let place = "the PostgreSQL store '\(store.configuration.name)'" + (entityName.map { " (saving \($0))" } ?? "")
        if let error = error as? SwiftDataError { return error.adding(place: place, entityName: entityName) }
        if let error = error as? PostgreSQLError, case .connectionLost = error.kind {
            return SwiftDataError(
                .modelValidationFailure,
                "\(place) lost its connection to \(error.server) during the save, and the context keeps its changes; "
                    + "the server commits a save whole or not at all, and when it cannot be asked whether this one "
                    + "committed, fetch before saving again",
                entityName: entityName, underlying: error)
        }
        return SwiftDataError(
            .modelValidationFailure, "\(place) refused the save; nothing was written", entityName: entityName,
            underlying: error)
    }
}
