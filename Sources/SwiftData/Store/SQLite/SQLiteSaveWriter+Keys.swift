// Primary keys for a save's inserted models: new ones, or a stored row's through a uniqueness constraint
// (Apple's upsert).

extension SQLiteSaveWriter {
    /// Gives an inserted model its primary key: the key of a row with the same unique values (stored, or inserted
    /// earlier in this save), or a new one.
    mutating func assignKey(to storage: ModelStorage) throws {
        let plan = try plan(for: storage.entity)
        // The model's values of each constraint, and the key of a row or earlier insert that has them.
        var uniqueKeys: [PendingUniqueKey] = []
        var existing: Int64?
        // Entities the upsert statement serves get a new key for now; `upsertRow` finds the stored row's key when
        // the unique value is taken.
        if plan.upsert == nil {
            for lookup in plan.uniqueLookups {
                let pending = PendingUniqueKey(
                    lookup: ObjectIdentifier(lookup.statement), values: try uniqueValues(of: storage, lookup.properties)
                )
                // `nil` equals nothing in a uniqueness constraint, as in SQL's `UNIQUE`: a model with `nil` among its
                // constrained values never takes over a row, nor gives its key to a later insert.
                guard !pending.values.containsNull else { continue }
                uniqueKeys.append(pending)
                guard existing == nil else { continue }
                // Earlier inserts of this save are not written yet: compare with them in memory first.
                if pendingUniqueValues.isEmpty { pendingUniqueValues.reserveCapacity(expectedInserts) }
                existing = try pendingUniqueValues[pending] ?? storedKey(lookup.statement, pending.values)
            }
        }
        let assigned = try existing ?? nextKey(for: storage.entity, plan: plan)
        // Only rows that relationships can refer to need their key found by model.
        if plan.isReferenced { assignedKeys[ObjectIdentifier(storage)] = assigned }
        insertedKeys.append(assigned)
        insertedIsUpsert.append(existing != nil)
        for pending in uniqueKeys { pendingUniqueValues[pending] = assigned }
    }

    /// A model's values of a constraint's properties: one value, without an array, for a constraint on one column.
    func uniqueValues(of storage: ModelStorage, _ properties: [Schema.Entity.Property]) throws -> UniqueValues {
        if properties.count == 1 {
            if let pending = unsavedTargetValue(of: storage, properties[0]) { return .one(pending) }
            var single = SingleColumnValue()
            try appendColumnValues(of: storage, property: properties[0], to: &single)
            if let value = single.value { return .one(value) }
        }
        var values: [SQLValue] = []
        for property in properties {
            if let pending = unsavedTargetValue(of: storage, property) {
                values.append(pending)
            } else {
                try appendColumnValues(of: storage, property: property, to: &values)
            }
        }
        return .many(values)
    }

    /// For a to-one relationship whose target is inserted in this save and has no key yet: a value that stands for
    /// that target, so that two inserts with the same new target match each other (and no stored row), where
    /// the target's missing key would otherwise read as `nil`, which matches nothing.
    private func unsavedTargetValue(of storage: ModelStorage, _ property: Schema.Entity.Property) -> SQLValue? {
        guard property.relationshipInfo != nil,
            let target = property.relatedModels(in: storage.values[property.index]).first,
            !target.storage.isDeleted, primaryKey(of: target.storage) == nil
        else { return nil }
        return .text("\u{0}unsaved \(ObjectIdentifier(target.storage).debugDescription)")
    }

    /// How to find the row holding an entity's values for one uniqueness constraint.
    struct UniqueLookup {
        let properties: [Schema.Entity.Property]
        /// The `SELECT` of the key of the row with given values of the constraint's columns.
        let statement: SQLiteStatement
    }

    /// The lookups of an entity's uniqueness constraints. Each compares every column of the constraint's
    /// properties, as its unique index does: a composite attribute has one per field, and a value of it binds one
    /// parameter per field.
    mutating func uniqueLookups(for entity: Schema.Entity, layout: SQLTableLayout) throws -> [UniqueLookup] {
        try entity.uniquenessConstraints.compactMap { constraint -> UniqueLookup? in
            let properties = constraint.compactMap { entity.property(named: $0) }
            guard properties.count == constraint.count else { return nil }
            let columns = layout.columns(of: constraint, in: entity)
            guard !columns.isEmpty else { return nil }
            let sql =
                "SELECT \(quoted(SQLTableLayout.primaryKey)) FROM \(quoted(entity.tableName)) WHERE "
                + columns.map { "\(quoted($0.name)) IS ?" }.joined(separator: " AND ")
            return UniqueLookup(properties: properties, statement: try statement(sql))
        }
    }

    /// The key of the stored row a lookup finds, or nil.
    func storedKey(_ lookup: SQLiteStatement, _ values: UniqueValues) throws -> Int64? {
        var parameters = lookup.parameters()
        switch values {
        case .one(let value): try parameters.append(value)
        case .many(let values): try parameters.append(contentsOf: values)
        }
        defer { lookup.reset() }
        return try lookup.step() ? lookup.int64(0) : nil
    }

    /// A new key of the entity's table. Keys are per table: the entities of a hierarchy share one counter.
    mutating func nextKey(for entity: Schema.Entity, plan: EntityPlan) throws -> Int64 {
        if let keys = plan.keys { return keys.take() }
        let keys: GivenKeys
        if let shared = givenKeys[plan.table] {
            keys = shared
        } else {
            if givenKeys.isEmpty { try SQLiteKeySequence.prepare(connection) }
            keys = GivenKeys(
                table: entity.tableName, next: try SQLiteKeySequence.highestKey(of: entity.tableName, connection) + 1)
            givenKeys[plan.table] = keys
        }
        plan.keys = keys
        return keys.take()
    }

    /// Records the highest key each table gave out in this save, so that no later save gives it again.
    func recordGivenKeys() throws {
        for keys in givenKeys.values { try SQLiteKeySequence.record(keys.next - 1, for: keys.table, connection) }
    }

    /// Inserts a row with a new key, or updates the row that holds the model's unique value, and returns the key
    /// of the row written and whether it overwrote a row. A statement that updates names the row it overwrites
    /// (see `SQLiteConnection.overwrittenRowFunction`). For one that does nothing on a conflict: an insert sets
    /// SQLite's last inserted row ID to the new key, and a conflict leaves it as it was, so it is cleared first
    /// (whatever an earlier insert left there, a row of another table or the history's last transaction, can
    /// equal the new key); a different value means the row was taken over, and its key is looked up.
    ///
    /// `mutating` although it changes nothing: `write` then passes the writer in place, where a call of a
    /// non-mutating method copied the whole writer, retaining each of its references, for every row.
    mutating func upsertRow(_ storage: ModelStorage, key: Int64, statement: SQLiteStatement, plan: EntityPlan) throws
        -> (key: Int64, overwrote: Bool)
    {
        if plan.upsertNamesOverwrittenRow {
            connection.overwrittenRowKey = nil
            try execute(statement, key: key, columnsOf: plan.layout.propertyIndexes, of: storage)
            guard let overwritten = connection.overwrittenRowKey else { return (key, false) }
            return (overwritten, true)
        }
        connection.resetLastInsertedRowID()
        try execute(statement, key: key, columnsOf: plan.layout.propertyIndexes, of: storage)
        guard connection.lastInsertedRowID != key else { return (key, false) }
        let lookup = plan.uniqueLookups[0]
        guard let existing = try storedKey(lookup.statement, try uniqueValues(of: storage, lookup.properties)) else {
            throw SwiftDataError(
                .modelValidationFailure, "saving \(storage.entity.name) found no row for its unique value",
                entityName: storage.entity.name, sql: statement.sql)
        }
        return (existing, true)
    }
}

/// The keys one table gives out in a save: a class, so the plans of a hierarchy's entities share it.
final class GivenKeys {
    let table: String
    /// The first key the table gives in this save: every row stored before has a smaller one.
    let first: Int64
    private(set) var next: Int64

    init(table: String, next: Int64) {
        self.table = table
        self.first = next
        self.next = next
    }

    func take() -> Int64 {
        defer { next += 1 }
        return next
    }
}

/// The values of one uniqueness constraint of an inserted model, told apart by the constraint's lookup statement.
struct PendingUniqueKey: Hashable {
    let lookup: ObjectIdentifier
    let values: UniqueValues
}

/// The column values of a uniqueness constraint: one value for a one-column constraint, which needs no array.
enum UniqueValues: Hashable {
    case one(SQLValue)
    case many([SQLValue])

    /// True when a value is NULL: the model's constrained value is `nil`, or a field of it is.
    var containsNull: Bool {
        switch self {
        case .one(let value): value == .null
        case .many(let values): values.contains(.null)
        }
    }
}

/// Takes the value of a property with exactly one column; `value` stays nil for a property with several.
struct SingleColumnValue: ColumnValueSink {
    private(set) var value: SQLValue?
    private var count = 0

    mutating func append(_ column: SQLValue) throws {
        count += 1
        value = count == 1 ? column : nil
    }
}
