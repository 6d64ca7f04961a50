/// The models one save writes to one store.
struct StoreChanges {
    var inserted: [ModelStorage] = []
    var updated: [ModelStorage] = []
    var deleted: [ModelStorage] = []
    /// Rows deleted without loading their models.
    var deletedRows: [(entity: Schema.Entity, keys: [Int64])] = []

    var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty && deletedRows.isEmpty }
}

extension SQLiteStore {
    // MARK: - Saving

    /// Writes the changes in one transaction and returns the primary key each inserted model got, in the order
    /// of `changes.inserted`.
    ///
    /// An inserted model whose unique values match a stored row (or an earlier insert of the same save) takes that
    /// row's key and overwrites it: Apple's upsert. Nothing is written when this throws.
    func save(_ changes: StoreChanges) throws -> [Int64] {
        guard configuration.allowsSave else {
            throw SwiftDataError(
                .modelValidationFailure, "the store \(configuration.name) was opened with allowsSave: false")
        }
        return try pool.write { connection in
            var writer = SQLiteSaveWriter(store: self, connection: connection)
            do {
                try connection.inTransaction {
                    try writer.write(changes)
                }
            } catch let error as SQLiteError {
                external?.remove(writer.files.written)
                throw SwiftDataError(
                    .modelValidationFailure,
                    "saving failed; nothing was written",
                    sql: error.sql,
                    underlying: error
                )
            } catch {
                external?.remove(writer.files.written)
                throw error
            }
            external?.remove(writer.files.obsolete)
            return writer.insertedKeys
        }
    }
}

/// Writes one save's changes inside its transaction.
struct SQLiteSaveWriter {
    let store: SQLiteStore
    let connection: SQLiteConnection
    /// The primary key given to each inserted model, by `ObjectIdentifier` of its storage.
    private(set) var assignedKeys: [ObjectIdentifier: Int64] = [:]
    /// The primary keys of the inserted models, in the order they were given.
    private(set) var insertedKeys: [Int64] = []
    /// Whether each inserted model, in order, took over an existing row through a unique constraint.
    private var insertedIsUpsert: [Bool] = []
    /// How many models this save inserts, to size the tables of unique values once.
    private var expectedInserts = 0
    /// The next primary key of each table, by its root entity.
    private var nextKeys: [ObjectIdentifier: Int64] = [:]
    private var statements: [String: SQLiteStatement] = [:]
    private var plans: [ObjectIdentifier: EntityPlan] = [:]
    /// External-storage files this save wrote and made obsolete.
    let files = ExternalFileChanges()

    init(store: SQLiteStore, connection: SQLiteConnection) {
        self.store = store
        self.connection = connection
    }

    mutating func write(_ changes: StoreChanges) throws {
        assignedKeys.reserveCapacity(changes.inserted.count)
        insertedKeys.reserveCapacity(changes.inserted.count)
        expectedInserts = changes.inserted.count
        for storage in changes.inserted { try assignKey(to: storage) }
        // The rows this save writes for entities with unique constraints: a second insert with the key of a row
        // written already (two inserts with the same unique values) updates it.
        var written: Set<RowKey> = []
        for (position, storage) in changes.inserted.enumerated() {
            let plan = try plan(for: storage.entity)
            if let upsert = plan.upsert {
                let key = try upsertRow(storage, key: insertedKeys[position], statement: upsert, plan: plan)
                insertedKeys[position] = key
                assignedKeys[ObjectIdentifier(storage)] = key
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
            let plan = try plan(for: storage.entity)
            try update(storage, key: key, slots: storage.changedSlots, plan: plan)
            if plan.hasJoinTables { try writeJoinRows(storage, key: key, slots: storage.changedSlots) }
            if let spotlight = plan.spotlight,
                spotlight.properties.contains(where: { storage.changedSlots.contains($0.index) })
            {
                try spotlight.write(storage, key: key, connection: connection)
            }
        }
        var deletedKeys: [String: (entity: Schema.Entity, keys: [Int64])] = [:]
        for storage in changes.deleted {
            guard let key = storage.identifier.primaryKey else { continue }
            deletedKeys[storage.entity.name, default: (storage.entity, [])].keys.append(key)
        }
        for (entity, keys) in changes.deletedRows {
            deletedKeys[entity.name, default: (entity, [])].keys += keys
        }
        for (entity, keys) in deletedKeys.values { try delete(keys, of: entity) }
    }

    // MARK: - Keys

    /// Writes an inserted model's join-table rows and full-text index entry, when its entity has them.
    private func writeRelatedRows(of storage: ModelStorage, key: Int64, plan: EntityPlan) throws {
        if plan.hasJoinTables { try writeJoinRows(storage, key: key, slots: nil) }
        try plan.spotlight?.write(storage, key: key, connection: connection)
    }

    // MARK: - Plans

    /// What writing an entity's rows needs, worked out once per save rather than once per row: looking up the
    /// layout, the statement and the spotlight attributes by name for every row cost more than binding it.
    private final class EntityPlan {
        let layout: SQLiteTableLayout
        /// The identity of the entity's table: its hierarchy's root entity.
        let table: ObjectIdentifier
        let insert: SQLiteStatement
        let spotlight: SpotlightIndex?
        let hasJoinTables: Bool
        let uniqueLookups: [UniqueLookup]
        /// The statement that inserts or updates a row, for entities it serves (see `SQLiteStore.upsertSQL(for:)`);
        /// their inserts need a lookup only after a conflict.
        let upsert: SQLiteStatement?
        /// `UPDATE` statements of one property's columns, by property index, prepared when first needed.
        private var updateStatements: [Int: SQLiteStatement] = [:]
        private var updateAllStatement: SQLiteStatement?

        init(
            layout: SQLiteTableLayout, table: ObjectIdentifier, insert: SQLiteStatement, spotlight: SpotlightIndex?,
            hasJoinTables: Bool, uniqueLookups: [UniqueLookup], upsert: SQLiteStatement?
        ) {
            self.layout = layout
            self.table = table
            self.insert = insert
            self.spotlight = spotlight
            self.hasJoinTables = hasJoinTables
            self.uniqueLookups = uniqueLookups
            self.upsert = upsert
        }

        /// The statement that updates one property's columns, or nil when the property has none.
        func updateStatement(forProperty index: Int, on connection: SQLiteConnection) throws -> SQLiteStatement? {
            if let cached = updateStatements[index] { return cached }
            guard let sql = layout.updateSQLByProperty[index] else { return nil }
            let statement = try connection.statement(sql)
            updateStatements[index] = statement
            return statement
        }

        /// The statement that updates every column, or nil when the table has no columns besides its key.
        func updateAll(on connection: SQLiteConnection) throws -> SQLiteStatement? {
            if let updateAllStatement { return updateAllStatement }
            guard !layout.updateAllSQL.isEmpty else { return nil }
            updateAllStatement = try connection.statement(layout.updateAllSQL)
            return updateAllStatement
        }
    }

    private mutating func plan(for entity: Schema.Entity) throws -> EntityPlan {
        if let plan = plans[ObjectIdentifier(entity)] { return plan }
        let layout = store.layouts[entity.name]!
        let hasJoinTables = entity.storedProperties.contains {
            if case .joinTable = $0.relationshipInfo?.storage { return true }
            return false
        }
        let plan = EntityPlan(
            layout: layout,
            table: ObjectIdentifier(entity.rootEntity),
            insert: try statement(layout.insertSQL),
            spotlight: SpotlightIndex(entity: entity),
            hasJoinTables: hasJoinTables,
            uniqueLookups: try uniqueLookups(for: entity),
            upsert: try store.upsertSQL(for: entity).map { try statement($0) }
        )
        plans[ObjectIdentifier(entity)] = plan
        return plan
    }

    /// Gives an inserted model its primary key: the key of a row with the same unique values (stored, or inserted
    /// earlier in this save), or a new one.
    private mutating func assignKey(to storage: ModelStorage) throws {
        let plan = try plan(for: storage.entity)
        var key: Int64?
        if plan.upsert != nil {
            // A new key for now; `upsertRow` finds the stored row's key when the unique value is taken.
            let provisional = try nextKey(for: storage.entity, table: plan.table)
            assignedKeys[ObjectIdentifier(storage)] = provisional
            insertedKeys.append(provisional)
            insertedIsUpsert.append(false)
            return
        }
        // The model's values of each constraint; the usual single constraint needs no array.
        var first: PendingUniqueKey?
        var others: [PendingUniqueKey] = []
        for lookup in plan.uniqueLookups {
            let pending = PendingUniqueKey(
                lookup: ObjectIdentifier(lookup.statement), values: try uniqueValues(of: storage, lookup.properties))
            if first == nil { first = pending } else { others.append(pending) }
            guard key == nil else { continue }
            // Earlier inserts of this save are not written yet: compare with them in memory first.
            if pendingUniqueValues.isEmpty { pendingUniqueValues.reserveCapacity(expectedInserts) }
            if let existing = try pendingUniqueValues[pending] ?? storedKey(lookup.statement, pending.values) {
                key = existing
            }
        }
        let assigned = try key ?? nextKey(for: storage.entity, table: plan.table)
        assignedKeys[ObjectIdentifier(storage)] = assigned
        insertedKeys.append(assigned)
        insertedIsUpsert.append(key != nil)
        if let first { pendingUniqueValues[first] = assigned }
        for pending in others { pendingUniqueValues[pending] = assigned }
    }

    /// A model's values of a constraint's properties: one value, without an array, for a constraint on one column.
    private func uniqueValues(of storage: ModelStorage, _ properties: [Schema.Entity.Property]) throws -> UniqueValues {
        if properties.count == 1 {
            var single = SingleColumnValue()
            try appendColumnValues(of: storage, property: properties[0], to: &single)
            if let value = single.value { return .one(value) }
        }
        var values: [SQLiteValue] = []
        for property in properties { try appendColumnValues(of: storage, property: property, to: &values) }
        return .many(values)
    }

    /// How to find the row holding an entity's values for one uniqueness constraint.
    private struct UniqueLookup {
        let properties: [Schema.Entity.Property]
        /// The `SELECT` of the key of the row with given values of the constraint's columns.
        let statement: SQLiteStatement
    }

    /// The lookups of an entity's uniqueness constraints.
    private mutating func uniqueLookups(for entity: Schema.Entity) throws -> [UniqueLookup] {
        try entity.uniquenessConstraints.compactMap { constraint -> UniqueLookup? in
            let properties = constraint.compactMap { entity.property(named: $0) }
            guard properties.count == constraint.count else { return nil }
            let sql =
                "SELECT \(quoted(SQLiteTableLayout.primaryKey)) FROM \(quoted(entity.tableName)) WHERE "
                + constraint.map { "\(quoted($0)) IS ?" }.joined(separator: " AND ")
            return UniqueLookup(properties: properties, statement: try statement(sql))
        }
    }

    /// The key of the stored row a lookup finds, or nil.
    private func storedKey(_ lookup: SQLiteStatement, _ values: UniqueValues) throws -> Int64? {
        var parameters = lookup.parameters()
        switch values {
        case .one(let value): try parameters.append(value)
        case .many(let values): try parameters.append(contentsOf: values)
        }
        defer { lookup.reset() }
        return try lookup.step() ? lookup.int64(0) : nil
    }

    private var pendingUniqueValues: [PendingUniqueKey: Int64] = [:]

    private mutating func nextKey(for entity: Schema.Entity, table: ObjectIdentifier) throws -> Int64 {
        // Keys are per table: the entities of a hierarchy share one.
        if let next = nextKeys[table] {
            nextKeys[table] = next + 1
            return next
        }
        let maxKey = try connection.statement(
            "SELECT max(\(quoted(SQLiteTableLayout.primaryKey))) FROM \(quoted(entity.tableName))"
        ).rows().first?.first
        let sequence = try connection.statement("SELECT seq FROM sqlite_sequence WHERE name = ?1")
            .rows([.text(entity.tableName)]).first?.first
        var highest: Int64 = 0
        if case .integer(let value) = maxKey { highest = max(highest, value) }
        if case .integer(let value) = sequence { highest = max(highest, value) }
        nextKeys[table] = highest + 2
        return highest + 1
    }

    // MARK: - Rows

    /// Inserts a row with a new key, or updates the row that holds the model's unique value, and returns the key
    /// of the row written. An insert sets SQLite's last inserted row ID to the new key; an update leaves it as it
    /// was, which is an earlier key, so a different value means the row was taken over and its key is looked up.
    private func upsertRow(_ storage: ModelStorage, key: Int64, statement: SQLiteStatement, plan: EntityPlan) throws
        -> Int64
    {
        try execute(statement, key: key, columnsOf: plan.layout.propertyIndexes, of: storage)
        guard connection.lastInsertedRowID != key else { return key }
        let lookup = plan.uniqueLookups[0]
        guard let existing = try storedKey(lookup.statement, try uniqueValues(of: storage, lookup.properties)) else {
            throw SwiftDataError(
                .modelValidationFailure, "saving \(storage.entity.name) found no row for its unique value",
                entityName: storage.entity.name, sql: statement.sql)
        }
        return existing
    }

    private mutating func insert(_ storage: ModelStorage, key: Int64, plan: EntityPlan) throws {
        try execute(plan.insert, key: key, columnsOf: plan.layout.propertyIndexes, of: storage)
    }

    /// A prepared statement, cached for this save so rows reuse it without looking up the connection's cache.
    private mutating func statement(_ sql: String) throws -> SQLiteStatement {
        if let cached = statements[sql] { return cached }
        let prepared = try connection.statement(sql)
        statements[sql] = prepared
        return prepared
    }

    /// Updates the columns of the given slots (all columns when `slots` is nil): one property's columns when only
    /// one changed, every column otherwise, each with a statement prepared once per save.
    private mutating func update(_ storage: ModelStorage, key: Int64, slots: SlotSet?, plan: EntityPlan) throws {
        let layout = plan.layout
        try noteReplacedExternalFiles(of: storage.entity, keys: [key], slots: slots)
        if let slots, slots.count == 1, let slot = slots.first {
            guard let statement = try plan.updateStatement(forProperty: slot, on: connection) else { return }
            try execute(statement, key: key, columnsOf: CollectionOfOne(slot), of: storage)
            return
        }
        if let slots, !slots.contains(where: { layout.columnRangeByProperty[$0] != nil }) { return }
        guard let statement = try plan.updateAll(on: connection) else { return }
        try execute(statement, key: key, columnsOf: layout.propertyIndexes, of: storage)
    }

    /// Runs an `INSERT` or `UPDATE` whose parameters are the primary key followed by the columns of the given
    /// properties, binding each value as it is encoded.
    private func execute(
        _ statement: SQLiteStatement,
        key: Int64,
        columnsOf properties: some Sequence<Int>,
        of storage: ModelStorage
    ) throws {
        var parameters = statement.parameters()
        try parameters.append(.integer(key))
        for index in properties {
            try appendColumnValues(of: storage, property: storage.entity.storedProperties[index], to: &parameters)
        }
        try statement.run()
    }

    /// Rewrites the join-table rows of owned to-many relationships in the given slots (all when nil).
    private func writeJoinRows(_ storage: ModelStorage, key: Int64, slots: SlotSet?) throws {
        for property in storage.entity.storedProperties {
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
    private func delete(_ keys: [Int64], of entity: Schema.Entity) throws {
        try noteReplacedExternalFiles(of: entity, keys: keys, slots: nil)
        try SpotlightIndex(entity: entity)?.remove(keys, connection: connection)
        let keyList = ModelContext.keyList(keys)
        let inKeys = "IN (SELECT value FROM json_each(?1))"
        try connection.statement(
            "DELETE FROM \(quoted(entity.tableName)) WHERE \(quoted(SQLiteTableLayout.primaryKey)) \(inKeys)"
        ).execute([keyList])
        for other in store.entities {
            for property in other.storedProperties {
                guard let info = property.relationshipInfo, info.destination.tableName == entity.tableName else {
                    continue
                }
                // `.noAction` on the deleted model's side leaves the other rows' references as they are.
                if info.inverse?.relationshipInfo?.declaration.deleteRule == .noAction { continue }
                switch info.storage {
                case .foreignKey(let column):
                    try connection.statement(
                        "UPDATE \(quoted(other.tableName)) SET \(quoted(column)) = NULL WHERE \(quoted(column)) \(inKeys)"
                    ).execute([keyList])
                case .joinTable(let table, _, let targetColumn):
                    try connection.statement("DELETE FROM \(quoted(table)) WHERE \(quoted(targetColumn)) \(inKeys)")
                        .execute([keyList])
                case .inverseForeignKey:
                    break
                }
            }
        }
        for property in entity.storedProperties {
            guard case .joinTable(let table, let ownerColumn, _) = property.relationshipInfo?.storage else { continue }
            try connection.statement("DELETE FROM \(quoted(table)) WHERE \(quoted(ownerColumn)) \(inKeys)")
                .execute([keyList])
        }
    }

    // MARK: - External Storage

    /// Records the external files that rows' external-storage columns refer to now, before an update or a delete
    /// replaces them; they are removed once the save commits.
    private func noteReplacedExternalFiles(of entity: Schema.Entity, keys: [Int64], slots: SlotSet?) throws {
        guard store.external != nil else { return }
        for property in entity.storedProperties where property.usesExternalStorage {
            guard slots?.contains(property.index) ?? true else { continue }
            let sql =
                "SELECT \(quoted(property.name)) FROM \(quoted(entity.tableName)) WHERE "
                + "\(quoted(SQLiteTableLayout.primaryKey)) IN (SELECT value FROM json_each(?1))"
            for row in try connection.statement(sql).rows([ModelContext.keyList(keys)]) {
                if let name = ExternalDataStore.fileName(in: row[0]) { files.obsolete.append(name) }
            }
        }
    }

    // MARK: - Values

    /// Appends the SQLite values of a property's columns: an attribute's (several for a composite), or the primary
    /// key of a to-one relationship's target.
    private func appendColumnValues(
        of storage: ModelStorage,
        property: Schema.Entity.Property,
        to values: inout some ColumnValueSink
    ) throws {
        let value = storage.values[property.index]
        if property.relationshipInfo != nil {
            switch value {
            case let fault as ModelStorage.ToOneFault:
                try values.append(fault.target?.primaryKey.map { .integer($0) } ?? .null)
            case is ModelStorage.Unset:
                try values.append(.null)
            default:
                guard let target = property.relatedModels(in: value).first, !target.storage.isDeleted,
                    let key = primaryKey(of: target.storage)
                else {
                    try values.append(.null)
                    return
                }
                try values.append(.integer(key))
            }
            return
        }
        let codec = property.codec!
        if type(of: value) == ModelStorage.Unset.self {
            if property.isOptional {
                try values.append(contentsOf: repeatElement(.null, count: codec.columnShapes.count))
                return
            }
            throw SwiftDataError(
                .modelValidationFailure,
                "\(storage.entity.name).\(property.name) has no value",
                entityName: storage.entity.name
            )
        }
        do {
            if property.isComposite {
                try values.append(contentsOf: try codec.encodeColumns(value))
            } else if property.usesExternalStorage, let external = store.external,
                let data = unwrappedValue(value) as? Data, data.count >= ExternalDataStore.threshold
            {
                let name = try external.write(data)
                files.written.append(name)
                try values.append(.text(ExternalDataStore.prefix + name))
            } else {
                try values.append(try codec.encode(value))
            }
        } catch let error as SwiftDataError {
            throw error
        } catch {
            throw SwiftDataError(
                .modelValidationFailure,
                "\(storage.entity.name).\(property.name) could not be encoded",
                entityName: storage.entity.name,
                underlying: error
            )
        }
    }

    private func primaryKey(of storage: ModelStorage) -> Int64? {
        storage.identifier.primaryKey ?? assignedKeys[ObjectIdentifier(storage)]
    }
}

/// A row of a table, by the table's root entity and the row's key.
private struct RowKey: Hashable {
    let table: ObjectIdentifier
    let key: Int64
}

/// The values of one uniqueness constraint of an inserted model, told apart by the constraint's lookup statement.
private struct PendingUniqueKey: Hashable {
    let lookup: ObjectIdentifier
    let values: UniqueValues
}

/// The column values of a uniqueness constraint: one value for a one-column constraint, which needs no array.
private enum UniqueValues: Hashable {
    case one(SQLiteValue)
    case many([SQLiteValue])
}

/// Takes the value of a property with exactly one column; `value` stays nil for a property with several.
private struct SingleColumnValue: ColumnValueSink {
    private(set) var value: SQLiteValue?
    private var count = 0

    mutating func append(_ column: SQLiteValue) throws {
        count += 1
        value = count == 1 ? column : nil
    }
}
