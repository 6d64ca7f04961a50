extension SQLiteStore {
    // MARK: - Saving

    /// Writes the changes in a transaction that stays open until the returned save commits or rolls back.
    ///
    /// An inserted model whose unique values match a stored row (or an earlier insert of the same save) takes that
    /// row's key and overwrites it: Apple's upsert. Nothing is written when this throws.
    func beginSave(_ changes: StoreChanges) throws -> any StoreSave {
        try SQLiteStoreSave(store: self, changes: changes)
    }

    /// Throws unless the store can take the changes at all: a read-only store refuses every save, before any
    /// store of the save writes.
    func checkAllowsSave(_ changes: StoreChanges) throws {
        guard !configuration.allowsSave else { return }
        let entityName =
            changes.inserted.first?.storage.entity.name ?? changes.updated.first?.entity.name
            ?? changes.deleted.first?.entity.name ?? changes.deletedRows.first?.entity.name
        throw SwiftDataError(
            .modelValidationFailure,
            "the store '\(configuration.name)' was opened with allowsSave: false and cannot save "
                + (entityName.map { "changes to \($0)" } ?? "changes"),
            entityName: entityName
        )
    }
}

/// One store's part of a save: its changes written in a transaction that stays open, holding the store's writer,
/// until `commit()` or `rollBack()`.
///
/// A save that spans several stores writes every store's part first and commits them only once all were written,
/// so that a store that refuses its part leaves every store as it was.
final class SQLiteStoreSave: StoreSave {
    let sqliteStore: SQLiteStore
    /// The primary key each inserted model got, in the order of the changes' inserted models.
    let insertedKeys: [Int64]
    private let connection: SQLiteConnection
    private let transaction: SQLiteConnection.Transaction
    private let files: ExternalFileChanges
    private let removesObsoleteFiles: Bool
    private var isOpen = true
    /// The token of the history transaction the save recorded: noted as the store's own until the commit, and
    /// forgotten when the save rolls back, which gives the token back.
    private let recordedToken: Int64?
    /// The scope of the last entity whose inserted model was given its identifier: a save's inserted models come
    /// grouped by entity, so one comparison mostly finds the store's scope without a lookup by name.
    private var lastScope: (entity: ObjectIdentifier, scope: IdentifierScope)?

    /// Takes the store's writer, opens a transaction and writes the changes.
    ///
    /// - Throws: `SwiftDataError.modelValidationFailure` naming the store and the model that could not be
    ///   written; the transaction is rolled back and the writer released.
    init(store: SQLiteStore, changes: StoreChanges) throws {
        try store.checkAllowsSave(changes)
        self.sqliteStore = store
        connection = store.pool.takeWriter()
        var writer = SQLiteSaveWriter(store: store, connection: connection)
        files = writer.files
        // Inside a migration's transaction, this save commits only with it: the files it replaces stay until the
        // store opens next and removes those no row refers to.
        removesObsoleteFiles = !connection.isInTransaction
        do {
            transaction = try connection.beginTransaction()
        } catch {
            store.pool.releaseWriter()
            throw Self.failure(error, store: store, entityName: nil)
        }
        do {
            try writer.write(changes)
            // The new files' directory entries are durable before the rows that name them commit.
            if !files.written.isEmpty { try store.external?.synchronize() }
        } catch {
            connection.rollBack(transaction)
            store.external?.remove(files.written)
            store.pool.releaseWriter()
            throw Self.failure(error, store: store, entityName: writer.currentEntityName)
        }
        insertedKeys = writer.insertedKeys
        recordedToken = writer.recordedToken
        if let recordedToken { store.ownTransactions.note(recordedToken) }
    }

    var store: any ModelStore { sqliteStore }

    func identifierOfInserted(at position: Int, entity: Schema.Entity) -> PersistentIdentifier {
        let scope: IdentifierScope
        if let last = lastScope, last.entity == ObjectIdentifier(entity) {
            scope = last.scope
        } else {
            scope = sqliteStore.identifierScope(entityName: entity.name)
            lastScope = (ObjectIdentifier(entity), scope)
        }
        return PersistentIdentifier(scope: scope, primaryKey: insertedKeys[position])
    }

    /// Commits the transaction, removes the external files the save made obsolete and releases the writer.
    ///
    /// - Throws: `SwiftDataError.modelValidationFailure` naming the store when the commit fails; the transaction
    ///   is then rolled back.
    func commit() throws {
        precondition(isOpen, "a store's part of a save was ended twice")
        isOpen = false
        defer { sqliteStore.pool.releaseWriter() }
        do {
            try connection.commit(transaction)
        } catch {
            if let recordedToken { sqliteStore.ownTransactions.forget(recordedToken) }
            sqliteStore.external?.remove(files.written)
            throw Self.failure(error, store: sqliteStore, entityName: nil)
        }
        if let recordedToken, let signal = sqliteStore.commitSignal {
            SQLiteHistory.signalCommit(recordedToken, at: signal)
        }
        if removesObsoleteFiles { sqliteStore.external?.remove(files.obsolete) }
    }

    /// Rolls the transaction back, removes the external files it wrote and releases the writer.
    func rollBack() {
        guard isOpen else { return }
        isOpen = false
        // Forgotten first: once rolled back, another commit may take the token at once.
        if let recordedToken { sqliteStore.ownTransactions.forget(recordedToken) }
        connection.rollBack(transaction)
        sqliteStore.external?.remove(files.written)
        sqliteStore.pool.releaseWriter()
    }

    deinit {
        rollBack()
    }

    /// The error a store's failure reaches the app as: a `SwiftDataError` that names the store and, when known,
    /// the model being written.
    private static func failure(_ error: any Error, store: SQLiteStore, entityName: String?) -> SwiftDataError {
        let place = "the store '\(store.configuration.name)'" + (entityName.map { " (saving \($0))" } ?? "")
        if let error = error as? SwiftDataError {
            return error.adding(place: place, entityName: entityName)
        }
        return SwiftDataError(
            .modelValidationFailure,
            "\(place) refused the save; nothing was written",
            entityName: entityName,
            sql: (error as? SQLiteError)?.sql,
            underlying: error
        )
    }
}

/// Writes one save's changes inside its transaction.
struct SQLiteSaveWriter {
    let store: SQLiteStore
    let connection: SQLiteConnection
    /// The primary key given to each inserted model that relationships can refer to, by `ObjectIdentifier` of its
    /// storage.
    var assignedKeys: [ObjectIdentifier: Int64] = [:]
    /// The primary keys of the inserted models, in the order they were given.
    var insertedKeys: [Int64] = []
    /// The token of the history transaction the save recorded, if it recorded one.
    var recordedToken: Int64?
    /// The inserted models' entities, as runs of consecutive positions, for history: noted as the models are
    /// written, so that recording them touches no model again.
    var insertRuns: [(entity: Schema.Entity, positions: Range<Int>)] = []
    /// Whether each inserted model, in order, took over an existing row through a unique constraint.
    var insertedIsUpsert: [Bool] = []
    /// The inserted models that overwrote a row rather than adding one, in order, for history.
    var rewrites: [InsertedRowRewrite] = []
    /// The rows this save deletes, by entity.
    var deletedRows: [(entity: Schema.Entity, keys: [Int64])] = []
    /// The rows this save deletes, made from `deletedRows` when a deletion first clears other rows' links to them.
    var deletedRowKeys: Set<RowKey>?
    /// Rows whose links to deleted rows the store cleared, with the relationships that lost them, for history.
    var unlinkedRows = StoreSideUpdates()
    /// How many models this save inserts, to size the tables of unique values once.
    var expectedInserts = 0
    /// The keys each table gave out in this save, by the table's root entity.
    var givenKeys: [ObjectIdentifier: GivenKeys] = [:]
    var statements: [String: SQLiteStatement] = [:]
    var plans: [ObjectIdentifier: EntityPlan] = [:]
    var lastPlan: (entity: ObjectIdentifier, plan: EntityPlan)?
    /// The key given to each unique value inserted so far in this save, so a later twin takes it.
    var pendingUniqueValues: [PendingUniqueKey: Int64] = [:]
    /// External-storage files this save wrote and made obsolete.
    let files = ExternalFileChanges()
    /// The entity of the row being written, to name in an error. Unretained: the store holds its entities.
    private unowned(unsafe) var currentEntity: Schema.Entity?

    /// The name of the entity whose row was being written when the save stopped.
    var currentEntityName: String? { currentEntity?.name }

    init(store: SQLiteStore, connection: SQLiteConnection) {
        self.store = store
        self.connection = connection
    }

    mutating func write(_ changes: StoreChanges) throws {
        // Deletions come first: a model inserted in place of a deleted one with the same unique values is a new
        // row, not an upsert onto the row this save then deletes. The deleted rows by entity, in the order the save
        // names the entities.
        var deletedKeys: [(entity: Schema.Entity, keys: [Int64])] = []
        var positions: [String: Int] = [:]
        func noteDeleted(_ keys: some Sequence<Int64>, of entity: Schema.Entity) {
            let position = positions[entity.name] ?? deletedKeys.count
            if position == deletedKeys.count {
                positions[entity.name] = position
                deletedKeys.append((entity, []))
            }
            deletedKeys[position].keys.append(contentsOf: keys)
        }
        for storage in changes.deleted {
            guard let key = storage.identifier.primaryKey else { continue }
            noteDeleted(CollectionOfOne(key), of: storage.entity)
        }
        for (entity, identifiers) in changes.deletedRows {
            noteDeleted(identifiers.lazy.compactMap(\.primaryKey), of: entity)
        }
        // What history keeps of the deleted rows is read before they go.
        let preserved =
            try store.isMigrationStore ? [] : deletedKeys.map { try preservedValues(of: $0.entity, keys: $0.keys) }
        deletedRows = deletedKeys
        for (entity, keys) in deletedKeys {
            currentEntity = entity
            try delete(keys, of: entity)
        }
        assignedKeys.reserveCapacity(changes.inserted.count)
        insertedKeys.reserveCapacity(changes.inserted.count)
        expectedInserts = changes.inserted.count
        // A row that refers to an inserted model needs that model's key when it is written, and a uniqueness
        // constraint can give two inserts one key: then every key is given first. Otherwise each model gets its key
        // as its row is written, in the same order, which spares a pass over every inserted model (and its cache
        // misses: a tenth of the save of 100,000 new models).
        let givesKeysFirst = !store.givesKeysAsRowsAreWritten
        if givesKeysFirst {
            for model in changes.inserted {
                let storage = model.storage
                currentEntity = storage.entity
                try assignKey(to: storage)
            }
        }
        // The rows this save writes for entities with unique constraints: a second insert with the key of a row
        // written already (two inserts with the same unique values) updates it.
        var written: Set<RowKey> = []
        for (position, model) in changes.inserted.enumerated() {
            let storage = model.storage
            let entity = storage.entity
            currentEntity = entity
            noteInsert(at: position, of: entity)
            if !givesKeysFirst { try assignKey(to: storage) }
            let plan = try plan(for: entity)
            if let upsert = plan.upsert {
                let (key, overwrote) = try upsertRow(
                    storage, key: insertedKeys[position], statement: upsert, plan: plan)
                insertedKeys[position] = key
                if overwrote { noteRewrite(at: position, key: key, plan: plan) }
                if plan.isReferenced { assignedKeys[ObjectIdentifier(storage)] = key }
                try writeRelatedRows(of: storage, key: key, plan: plan)
                continue
            }
            let key = insertedKeys[position]
            // Only an entity with unique constraints can give two inserts, or an insert and a stored row, one key.
            if !plan.uniqueLookups.isEmpty {
                if written.isEmpty { written.reserveCapacity(changes.inserted.count) }
                let isRewrite =
                    insertedIsUpsert[position] || !written.insert(RowKey(table: plan.table, key: key)).inserted
                if isRewrite {
                    noteRewrite(at: position, key: key, plan: plan)
                    try update(storage, key: key, slots: nil, plan: plan)
                    try writeRelatedRows(of: storage, key: key, plan: plan)
                    continue
                }
            }
            try insert(storage, key: key, plan: plan)
            try writeRelatedRows(of: storage, key: key, plan: plan)
        }
        for storage in changes.updated {
            guard let key = storage.identifier.primaryKey else { continue }
            currentEntity = storage.entity
            let plan = try plan(for: storage.entity)
            try update(storage, key: key, slots: storage.changedSlots, plan: plan)
            if plan.hasJoinTables { try writeJoinRows(storage, key: key, slots: storage.changedSlots) }
            if let spotlight = plan.spotlight,
                spotlight.properties.contains(where: { storage.changedSlots.contains($0.index) })
            {
                try spotlight.write(storage, key: key, connection: connection)
            }
        }
        currentEntity = nil
        try recordGivenKeys()
        try recordHistory(changes, deleted: deletedKeys, preserved: preserved)
    }

    // MARK: - Rows

    /// Writes an inserted model's join-table rows and full-text index entry, when its entity has them.
    func writeRelatedRows(of storage: ModelStorage, key: Int64, plan: EntityPlan) throws {
        if plan.hasJoinTables { try writeJoinRows(storage, key: key, slots: nil) }
        try plan.spotlight?.write(storage, key: key, connection: connection)
    }

    mutating func insert(_ storage: ModelStorage, key: Int64, plan: EntityPlan) throws {
        try execute(plan.insert, key: key, columnsOf: plan.layout.propertyIndexes, of: storage)
    }

    /// A prepared statement, cached for this save so rows reuse it without looking up the connection's cache.
    mutating func statement(_ sql: String) throws -> SQLiteStatement {
        if let cached = statements[sql] { return cached }
        let prepared = try connection.statement(sql)
        statements[sql] = prepared
        return prepared
    }

    /// Updates the columns of the given slots (all columns when `slots` is nil): one property's columns when only
    /// one changed, every column otherwise, each with a statement prepared once per save.
    mutating func update(_ storage: ModelStorage, key: Int64, slots: SlotSet?, plan: EntityPlan) throws {
        let layout = plan.layout
        try noteReplacedExternalFiles(of: storage.entity, keys: SQLiteKeySet(CollectionOfOne(key)), slots: slots)
        if let slots, slots.count == 1, let slot = slots.first {
            guard let statement = try plan.updateStatement(forProperty: slot, on: connection) else {
                return try checkRowExists(of: storage, key: key, plan: plan)
            }
            try execute(statement, key: key, columnsOf: CollectionOfOne(slot), of: storage)
            return try checkRowWasUpdated(storage)
        }
        if let slots, !slots.contains(where: { layout.columnRangeByProperty[$0] != nil }) {
            return try checkRowExists(of: storage, key: key, plan: plan)
        }
        // A model holding values it never loaded (attributes a partial fetch left out, relationships of a row a
        // batch could not read) writes only the columns it changed: the others are as stored, and unknown here.
        if let slots, storage.holdsUnloadedValues {
            for slot in slots { try update(storage, key: key, slots: [slot], plan: plan) }
            return
        }
        guard let statement = try plan.updateAll(on: connection) else {
            return try checkRowExists(of: storage, key: key, plan: plan)
        }
        try execute(statement, key: key, columnsOf: layout.propertyIndexes, of: storage)
        try checkRowWasUpdated(storage)
    }

    // MARK: - Rows Deleted Elsewhere

    /// Throws when the `UPDATE` just run found no row: another context or process deleted the model's row after
    /// this context read it. Reporting the change as saved would lose it silently.
    private func checkRowWasUpdated(_ storage: ModelStorage) throws {
        guard connection.changedRowCount == 0 else { return }
        throw SwiftDataError.rowDeletedElsewhere(storage)
    }

    /// Throws when the model's row is gone, for a change that updates no column of it (only links stored in join
    /// tables or on the other side), which would otherwise write links to a row that no longer exists.
    private func checkRowExists(of storage: ModelStorage, key: Int64, plan: EntityPlan) throws {
        let lookup = try plan.exists(on: connection)
        var parameters = lookup.parameters()
        try parameters.append(.integer(key))
        defer { lookup.reset() }
        guard try !lookup.step() else { return }
        throw SwiftDataError.rowDeletedElsewhere(storage)
    }

    /// Runs an `INSERT` or `UPDATE` whose parameters are the primary key followed by the columns of the given
    /// properties, binding each value as it is encoded.
    func execute(
        _ statement: SQLiteStatement,
        key: Int64,
        columnsOf properties: some Sequence<Int>,
        of storage: ModelStorage
    ) throws {
        var parameters = statement.parameters()
        try parameters.append(.integer(key))
        for index in properties {
            try appendColumnValues(of: storage, property: storage.entity.persistedProperties[index], to: &parameters)
        }
        try statement.run()
    }

    /// Rewrites the join-table rows of owned to-many relationships in the given slots (all when nil).
    func writeJoinRows(_ storage: ModelStorage, key: Int64, slots: SlotSet?) throws {
        for property in storage.entity.persistedProperties {
            guard slots?.contains(property.index) ?? true,
                case .joinTable(let table, let ownerColumn, let targetColumn) = property.relationshipInfo?.storage,
                !(storage.values[property.index] is ModelStorage.UnloadedRelationship)
            else { continue }
            try connection.statement("DELETE FROM \(quoted(table)) WHERE \(quoted(ownerColumn)) = ?1").execute([
                .integer(key)
            ])
            let insert = try connection.statement(
                "INSERT OR IGNORE INTO \(quoted(table)) (\(quoted(ownerColumn)), \(quoted(targetColumn))) VALUES (?1, ?2)"
            )
            for target in property.relatedModels(in: storage.values[property.index]) {
                guard let targetKey = primaryKey(of: target.storage) else { continue }
                try insert.execute([.integer(key), .integer(targetKey)])
            }
        }
    }

    /// Deletes rows of an entity, clears the foreign keys that point at them and removes their join-table rows,
    /// with one statement per table whatever the number of rows.
    ///
    /// The rows whose links this clears are read first, for history: only for relationships that refer to the
    /// entity, so deleting rows nothing refers to costs nothing more. The links the deleted rows' own join tables
    /// hold need no reading: a to-many on the other side of such a table has its own storage naming the same
    /// table, which the loop over the other entities reads and clears first.
    private mutating func delete(_ keys: [Int64], of entity: Schema.Entity) throws {
        let keySet = SQLiteKeySet(keys)
        try noteReplacedExternalFiles(of: entity, keys: keySet, slots: nil)
        try SpotlightIndex(entity: entity)?.remove(keySet, connection: connection)
        try keySet.execute(connection) {
            "DELETE FROM \(quoted(entity.tableName)) WHERE \(quoted(SQLTableLayout.primaryKey)) \($0)"
        }
        for other in store.entities {
            for property in other.persistedProperties {
                guard let info = property.relationshipInfo, info.destination.tableName == entity.tableName else {
                    continue
                }
                // `.noAction` on the deleted model's side leaves the other rows' references as they are.
                if !info.inverseSides.isEmpty,
                    info.inverseSides.allSatisfy({ $0.relationshipInfo?.declaration.deleteRule == .noAction })
                {
                    continue
                }
                switch info.storage {
                case .foreignKey(let column):
                    try noteUnlinkedRows(
                        of: other, property: property, where: keySet.condition(on: quoted(column)))
                    try keySet.execute(connection) {
                        "UPDATE \(quoted(other.tableName)) SET \(quoted(column)) = NULL WHERE \(quoted(column)) \($0)"
                    }
                case .joinTable(let table, let ownerColumn, let targetColumn):
                    let links = keySet.condition(on: quoted(targetColumn))
                    try noteUnlinkedRows(
                        of: other, property: property,
                        where: (
                            "\(quoted(SQLTableLayout.primaryKey)) IN (SELECT \(quoted(ownerColumn)) FROM "
                                + "\(quoted(table)) WHERE \(links.sql))", links.bindings
                        ))
                    try keySet.execute(connection) {
                        "DELETE FROM \(quoted(table)) WHERE \(quoted(targetColumn)) \($0)"
                    }
                case .inverseForeignKey:
                    break
                }
            }
        }
        for property in entity.persistedProperties {
            guard case .joinTable(let table, let ownerColumn, _) = property.relationshipInfo?.storage else { continue }
            try keySet.execute(connection) { "DELETE FROM \(quoted(table)) WHERE \(quoted(ownerColumn)) \($0)" }
        }
    }

    // MARK: - External Storage

    /// Records the external files that rows' external-storage columns refer to now, before an update or a delete
    /// replaces them; they are removed once the save commits. `keys` is made only for entities with external
    /// storage: an update of any other model would pay for it for nothing.
    private func noteReplacedExternalFiles(
        of entity: Schema.Entity, keys: @autoclosure () -> SQLiteKeySet,
        slots: SlotSet?
    ) throws {
        guard entity.usesExternalStorage, store.external != nil else { return }
        let condition = keys().condition(on: quoted(SQLTableLayout.primaryKey))
        for property in entity.persistedProperties where property.usesExternalStorage {
            guard slots?.contains(property.index) ?? true else { continue }
            let sql =
                "SELECT \(quoted(property.name)) FROM \(quoted(entity.tableName)) WHERE \(condition.sql)"
            for row in try connection.statement(sql).rows(condition.bindings) {
                if let name = ExternalDataStore.fileName(in: row[0]) { files.obsolete.append(name) }
            }
        }
    }

    // MARK: - Values

    /// Appends the SQL values of a property's columns in a model (see `ModelStorage.appendColumnValues`), writing
    /// a large external-storage value to a file of its own.
    func appendColumnValues(
        of storage: ModelStorage,
        property: Schema.Entity.Property,
        to values: inout some ColumnValueSink
    ) throws {
        // Most attributes encode straight from their slots. The closures the other properties need are made only
        // for those: making them copied the whole writer, retaining each of its references, on every call.
        if let encoded = storage.slotEncodedValue(of: property) { return try values.append(encoded) }
        try storage.appendColumnValues(of: property, to: &values, keyOf: primaryKey(of:)) { data in
            guard let external = store.external, data.count >= ExternalDataStore.threshold else { return nil }
            let name = try external.write(data)
            files.written.append(name)
            return .text(ExternalDataStore.prefix + name)
        }
    }

    func primaryKey(of storage: ModelStorage) -> Int64? {
        storage.identifier.primaryKey ?? assignedKeys[ObjectIdentifier(storage)]
    }
}
