package import SwiftData

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

    /// Deletes every row of every entity and join table, in one transaction.
    func deleteAllRows() throws {
        guard configuration.allowsSave else {
            throw SwiftDataError(
                .loadIssueModelContainer, "the store \(configuration.name) was opened with allowsSave: false")
        }
        let tables = Set(
            entities.map(\.tableName)
                + entities.flatMap { PostgreSQLTables.joinTables(of: $0) })
        let sql = "TRUNCATE \(tables.sorted().map(dialect.quoted).joined(separator: ", "))"
        try read(sql, entityName: entities.first?.name ?? name) { try $0.execute(sql) }
    }
}

/// One store's part of a save: its changes written in a transaction that stays open, on a connection of its own,
/// until `commit()` or `rollBack()`.
final class PostgreSQLStoreSave: StoreSave {
    let postgreSQLStore: PostgreSQLModelStore
    private let connection: PostgreSQLConnection
    private let insertedKeys: [Int64]
    private var isOpen = true

    /// Takes a connection, opens a transaction and writes the changes.
    ///
    /// - Throws: `SwiftDataError.modelValidationFailure` naming the store and the model that could not be
    ///   written; the transaction is rolled back.
    init(store: PostgreSQLModelStore, changes: StoreChanges) throws {
        try store.checkAllowsSave(changes)
        postgreSQLStore = store
        do {
            connection = try store.pool.take()
            try connection.executeScript("BEGIN")
        } catch {
            throw Self.failure(error, store: store, entityName: changes.firstEntityName)
        }
        var writer = PostgreSQLSaveWriter(store: store, connection: connection)
        do {
            try writer.write(changes)
        } catch {
            try? connection.executeScript("ROLLBACK")
            store.pool.give(connection)
            throw Self.failure(error, store: store, entityName: writer.currentEntityName)
        }
        insertedKeys = writer.insertedKeys
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
        do {
            try connection.executeScript("COMMIT")
        } catch {
            try? connection.executeScript("ROLLBACK")
            throw Self.failure(error, store: postgreSQLStore, entityName: nil)
        }
    }

    func rollBack() {
        guard isOpen else { return }
        isOpen = false
        try? connection.executeScript("ROLLBACK")
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
                "\(place) lost its connection to \(error.server) during the save; the server committed all of it or "
                    + "none, and the context keeps its changes",
                entityName: entityName, underlying: error)
        }
        return SwiftDataError(
            .modelValidationFailure, "\(place) refused the save; nothing was written", entityName: entityName,
            underlying: error)
    }
}
