package import SwiftData

/// Writes one save's changes inside its transaction: deletions first (with the links they clear), then the
/// inserted models' keys (found by their unique values, or new from the key sequence), their rows, and the updates.
struct PostgreSQLSaveWriter {
    let store: PostgreSQLModelStore
    let connection: PostgreSQLConnection
    /// The key of each inserted model, in the order of the changes' inserted models.
    private(set) var insertedKeys: [Int64] = []
    /// The key given to each inserted model, by `ObjectIdentifier` of its storage.
    private var assignedKeys: [ObjectIdentifier: Int64] = [:]
    /// The entity whose row is being written, to name in an error.
    private(set) var currentEntityName: String?

    private var dialect: PostgreSQLDialect { store.dialect }

    init(store: PostgreSQLModelStore, connection: PostgreSQLConnection) {
        self.store = store
        self.connection = connection
    }

    mutating func write(_ changes: StoreChanges) throws {
        // Deletions come first: a model inserted in place of a deleted one with the same unique values is a new
        // row, not an upsert onto the row this save deletes.
        var deleted: [(entity: Schema.Entity, keys: [Int64])] = []
        for storage in changes.deleted {
            guard let key = storage.identifier.primaryKey else { continue }
            if let index = deleted.firstIndex(where: { $0.entity === storage.entity }) {
                deleted[index].keys.append(key)
            } else {
                deleted.append((storage.entity, [key]))
            }
        }
        for (entity, identifiers) in changes.deletedRows {
            deleted.append((entity, identifiers.compactMap(\.primaryKey)))
        }
        for (entity, keys) in deleted where !keys.isEmpty {
            currentEntityName = entity.name
            try delete(keys, of: entity)
        }
        try assignKeys(to: changes.inserted)
        var written: Set<Int64> = []
        for (position, model) in changes.inserted.enumerated() {
            let storage = model.storage
            currentEntityName = storage.entity.name
            let key = insertedKeys[position]
            let layout = try store.layout(of: storage.entity)
            // A key this save wrote already, or a stored row's (an upsert), is updated, not inserted.
            if !storage.entity.uniquenessConstraints.isEmpty,
                try !written.insert(key).inserted || rowExists(key, layout)
            {
                try update(storage, key: key, slots: nil, layout: layout)
            } else {
                try execute(layout.insertSQL, key: key, columnsOf: layout.propertyIndexes, of: storage)
            }
            try writeJoinRows(storage, key: key, slots: nil)
        }
        for storage in changes.updated {
            guard let key = storage.identifier.primaryKey else { continue }
            currentEntityName = storage.entity.name
            let layout = try store.layout(of: storage.entity)
            try update(storage, key: key, slots: storage.changedSlots, layout: layout)
            try writeJoinRows(storage, key: key, slots: storage.changedSlots)
        }
        currentEntityName = nil
    }

    // MARK: - Keys

    /// Gives each inserted model its key: a stored row's or an earlier insert's when its unique values match
    /// theirs, a new one from the key sequence otherwise. Saves that insert models with unique values take a lock
    /// per table first, so that two processes inserting the same values end with one row.
    private mutating func assignKeys(to inserted: [any PersistentModel]) throws {
        guard !inserted.isEmpty else { return }
        let constrainedTables = Set(
            inserted.lazy.map(\.storage.entity).filter { !$0.uniquenessConstraints.isEmpty }.map(\.tableName))
        for table in constrainedTables.sorted() {
            try connection.execute("SELECT pg_advisory_xact_lock(hashtext($1))", [.text("swiftdata:" + table)])
        }
        let fresh = try connection.execute(
            "SELECT nextval('\(dialect.quoted(PostgreSQLModelStore.keySequence))') FROM generate_series(1, $1)",
            [.integer(Int64(inserted.count))])
        var nextFresh = 0
        var pending: [PendingUniqueValues: Int64] = [:]
        insertedKeys.reserveCapacity(inserted.count)
        for model in inserted {
            let storage = model.storage
            currentEntityName = storage.entity.name
            var key: Int64?
            var uniqueValues: [PendingUniqueValues] = []
            if !storage.entity.uniquenessConstraints.isEmpty {
                let layout = try store.layout(of: storage.entity)
                for constraint in storage.entity.uniquenessConstraints {
                    guard let values = try self.values(of: constraint, in: storage, layout: layout) else { continue }
                    let pendingValues = PendingUniqueValues(
                        table: layout.tableName, constraint: constraint, values: values)
                    uniqueValues.append(pendingValues)
                    if key == nil {
                        key = try pending[pendingValues] ?? storedKey(matching: values, of: constraint, layout)
                    }
                }
            }
            let given = key ?? fresh.integer(row: nextFresh, column: 0)!
            if key == nil { nextFresh += 1 }
            for values in uniqueValues { pending[values] = given }
            insertedKeys.append(given)
            assignedKeys[ObjectIdentifier(storage)] = given
        }
    }

    /// The values of a uniqueness constraint's columns in a model, or nil when one is NULL (which matches nothing).
    private func values(of constraint: [String], in storage: ModelStorage, layout: SQLTableLayout) throws -> [SQLValue]?
    {
        var values: [SQLValue] = []
        for name in constraint {
            guard let property = storage.entity.property(named: name) else { return nil }
            try storage.appendColumnValues(of: property, to: &values, keyOf: primaryKey(of:)) { _ in nil }
        }
        return values.contains(.null) ? nil : values
    }

    /// The key of the stored row whose constraint columns hold these values, if any.
    private func storedKey(matching values: [SQLValue], of constraint: [String], _ layout: SQLTableLayout) throws
        -> Int64?
    {
        let columns = constraint.flatMap { name -> [String] in
            guard
                let index = layout.columns.firstIndex(where: { $0.name == name })
                    ?? layout.columns.firstIndex(where: {
                        $0.name.hasPrefix(name + ".")
                    })
            else { return [name] }
            let range = layout.columnRangeByProperty[layout.columns[index].propertyIndex] ?? index..<(index + 1)
            return layout.columns[range].map(\.name)
        }
        let conditions = columns.enumerated().map { "\(dialect.quoted($1)) = $\($0 + 1)" }
        let sql =
            "SELECT \(dialect.quoted(SQLTableLayout.primaryKey)) FROM \(dialect.quoted(layout.tableName)) WHERE "
            + conditions.joined(separator: " AND ") + " LIMIT 1"
        let result = try connection.execute(sql, values)
        return result.rowCount > 0 ? result.integer(row: 0, column: 0) : nil
    }

    /// True when the table holds a row with the key: an inserted model that takes over a stored row.
    private func rowExists(_ key: Int64, _ layout: SQLTableLayout) throws -> Bool {
        let sql =
            "SELECT 1 FROM \(dialect.quoted(layout.tableName)) WHERE \(dialect.quoted(SQLTableLayout.primaryKey)) = $1"
        return try connection.execute(sql, [.integer(key)]).rowCount > 0
    }

    private func primaryKey(of storage: ModelStorage) -> Int64? {
        storage.identifier.primaryKey ?? assignedKeys[ObjectIdentifier(storage)]
    }

    // MARK: - Rows

    /// Runs an `INSERT` or `UPDATE` whose parameters are the key followed by the columns of the given properties.
    private func execute(
        _ sql: String, key: Int64, columnsOf properties: some Sequence<Int>, of storage: ModelStorage
    ) throws -> Int {
        var parameters: [SQLValue] = [.integer(key)]
        for index in properties {
            try storage.appendColumnValues(
                of: storage.entity.persistedProperties[index], to: &parameters, keyOf: primaryKey(of:)
            ) { _ in nil }
        }
        return try connection.execute(sql, parameters).changedRowCount
    }

    /// Updates the columns of the given slots (all when nil). A model holding values it never loaded writes only
    /// the columns it changed.
    private func update(_ storage: ModelStorage, key: Int64, slots: SlotSet?, layout: SQLTableLayout) throws {
        let properties: [Int]
        if let slots {
            properties = layout.propertyIndexes.filter { slots.contains($0) }
        } else {
            properties = layout.propertyIndexes
        }
        guard !properties.isEmpty else {
            guard try rowExists(key, layout) else { throw Self.rowDeletedElsewhere(storage) }
            return
        }
        let changed: Int
        if properties.count == 1, let sql = layout.updateSQLByProperty[properties[0]] {
            changed = try execute(sql, key: key, columnsOf: properties, of: storage)
        } else if properties.count == layout.propertyIndexes.count {
            changed = try execute(layout.updateAllSQL, key: key, columnsOf: properties, of: storage)
        } else {
            changed = try properties.reduce(0) { total, property in
                total
                    + (try execute(layout.updateSQLByProperty[property]!, key: key, columnsOf: [property], of: storage))
            }
        }
        guard changed > 0 else { throw Self.rowDeletedElsewhere(storage) }
    }

    /// Rewrites the join-table rows of owned to-many relationships in the given slots (all when nil).
    private func writeJoinRows(_ storage: ModelStorage, key: Int64, slots: SlotSet?) throws {
        for property in storage.entity.persistedProperties {
            guard slots?.contains(property.index) ?? true,
                case .joinTable(let table, let ownerColumn, let targetColumn) = property.relationshipInfo?.storage,
                !(storage.values[property.index] is ModelStorage.UnloadedRelationship)
            else { continue }
            let (owner, target) = (dialect.quoted(ownerColumn), dialect.quoted(targetColumn))
            try connection.execute("DELETE FROM \(dialect.quoted(table)) WHERE \(owner) = $1", [.integer(key)])
            let targets = property.relatedModels(in: storage.values[property.index]).compactMap {
                primaryKey(of: $0.storage)
            }
            guard !targets.isEmpty else { continue }
            try connection.execute(
                "INSERT INTO \(dialect.quoted(table)) (\(owner), \(target)) SELECT $1, unnest($2::bigint[]) "
                    + "ON CONFLICT DO NOTHING",
                [.integer(key), PostgreSQLKeyList(targets).parameter])
        }
    }

    /// Deletes rows of an entity, clears the foreign keys that point at them and removes their join-table rows.
    private func delete(_ keys: [Int64], of entity: Schema.Entity) throws {
        let list = PostgreSQLKeyList(keys)
        let parameters = [list.parameter]
        let key = dialect.quoted(SQLTableLayout.primaryKey)
        try connection.execute(
            "DELETE FROM \(dialect.quoted(entity.tableName)) WHERE \(list.condition(on: key, parameter: 1))", parameters
        )
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
                    let column = dialect.quoted(column)
                    try connection.execute(
                        "UPDATE \(dialect.quoted(other.tableName)) SET \(column) = NULL WHERE "
                            + list.condition(on: column, parameter: 1), parameters)
                case .joinTable(let table, _, let targetColumn):
                    try connection.execute(
                        "DELETE FROM \(dialect.quoted(table)) WHERE "
                            + list.condition(on: dialect.quoted(targetColumn), parameter: 1), parameters)
                case .inverseForeignKey:
                    break
                }
            }
        }
        for property in entity.persistedProperties {
            guard case .joinTable(let table, let ownerColumn, _) = property.relationshipInfo?.storage else { continue }
            try connection.execute(
                "DELETE FROM \(dialect.quoted(table)) WHERE "
                    + list.condition(on: dialect.quoted(ownerColumn), parameter: 1),
                parameters)
        }
    }

    private static func rowDeletedElsewhere(_ storage: ModelStorage) -> SwiftDataError {
        SwiftDataError(
            .modelValidationFailure,
            "\(storage.entity.name) \(storage.identifier) has changes, but another context or process deleted its "
                + "row since this context read it; nothing was written. Delete the model or roll back the context "
                + "to resolve the conflict",
            entityName: storage.entity.name
        )
    }
}

/// The values of one uniqueness constraint of an inserted model, to find an earlier insert of the same save with
/// the same values.
private struct PendingUniqueValues: Hashable {
    let table: String
    let constraint: [String]
    let values: [SQLValue]
}
