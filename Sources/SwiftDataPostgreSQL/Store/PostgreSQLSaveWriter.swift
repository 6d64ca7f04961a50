internal import SwiftData

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
    /// Where each inserted model's key came from, by position.
    private var keySources: [KeySource] = []
    /// The token of the history transaction the save recorded, if it recorded one.
    private(set) var recordedToken: Int64?

    // What history records beyond the changes' own lists.
    private var insertRuns: [(entity: Schema.Entity, positions: Range<Int>)] = []
    private var rewrites: [InsertedRowRewrite] = []
    private var unlinkedRows = StoreSideUpdates()
    private var deletedRowKeys: Set<RowKey> = []
    private var preserved: [[Int64: [(String, [SQLValue])]]] = []

    /// Where an inserted model's key came from.
    private enum KeySource {
        /// The key sequence: the model is a new row.
        case fresh
        /// A stored row with the same unique values, which the model overwrites.
        case storedRow
        /// An earlier insert of the save with the same unique values, whose row the model overwrites.
        case earlierInsert
    }

    private var dialect: PostgreSQLDialect { store.dialect }

    init(store: PostgreSQLModelStore, connection: PostgreSQLConnection) {
        self.store = store
        self.connection = connection
    }

    mutating func write(_ changes: StoreChanges) throws {
        try lockUniqueValues(of: changes.inserted)
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
        deletedRowKeys = Set(
            deleted.flatMap { deleted in
                deleted.keys.map { RowKey(table: ObjectIdentifier(deleted.entity.rootEntity), key: $0) }
            })
        for (entity, keys) in deleted {
            currentEntityName = entity.name
            preserved.append(keys.isEmpty ? [:] : try delete(keys, of: entity))
        }
        try assignKeys(to: changes.inserted)
        // New rows go in multi-row INSERTs of one entity each: one round trip per batch rather than per row.
        var batch = RowBatch()
        for (position, model) in changes.inserted.enumerated() {
            let storage = model.storage
            // The waiting rows go first when this one cannot join them; an upsert's row an earlier insert adds must
            // be written before it is overwritten.
            if keySources[position] != .fresh || batch.entity !== storage.entity || batch.isFull {
                try flush(&batch)
            }
            currentEntityName = storage.entity.name
            noteInsert(at: position, of: storage.entity)
            let key = insertedKeys[position]
            let layout = try store.layout(of: storage.entity)
            // An insert with the unique values of a stored row or an earlier insert overwrites that row: an upsert.
            switch keySources[position] {
            case .fresh:
                if batch.isEmpty { batch = RowBatch(entity: storage.entity, layout: layout) }
                batch.parameters.append(.integer(key))
                for index in layout.propertyIndexes {
                    let property = storage.entity.persistedProperties[index]
                    try storage.appendColumnValues(of: property, to: &batch.parameters, keyOf: primaryKey(of:)) { _ in
                        nil
                    }
                    try checkIsBytes(batch.parameters.last, of: property, in: storage)
                }
                batch.rowCount += 1
            case .storedRow, .earlierInsert:
                rewrites.append(InsertedRowRewrite(position: position, ofStoredRow: keySources[position] == .storedRow))
                try update(storage, key: key, slots: nil, layout: layout)
            }
            try writeJoinRows(storage, key: key, slots: nil)
        }
        try flush(&batch)
        for storage in changes.updated {
            guard let key = storage.identifier.primaryKey else { continue }
            currentEntityName = storage.entity.name
            let layout = try store.layout(of: storage.entity)
            try update(storage, key: key, slots: storage.changedSlots, layout: layout)
            try writeJoinRows(storage, key: key, slots: storage.changedSlots)
        }
        currentEntityName = nil
        try recordHistory(changes, deleted: deleted)
    }

    // MARK: - Batches

    /// Rows of one entity waiting to be inserted together, with their parameters in `SQLTableLayout.insertSQL`'s
    /// order, row after row.
    private struct RowBatch {
        /// PostgreSQL takes at most 65,535 parameters in a statement.
        static let parameterLimit = 60_000
        static let rowLimit = 1_000

        private(set) var entity: Schema.Entity?
        private(set) var layout: SQLTableLayout?
        var parameters: [SQLValue] = []
        var rowCount = 0

        init() {}

        init(entity: Schema.Entity, layout: SQLTableLayout) {
            self.entity = entity
            self.layout = layout
        }

        var isEmpty: Bool { rowCount == 0 }

        /// True when another row might not fit.
        var isFull: Bool {
            rowCount >= Self.rowLimit || parameters.count + (parameters.count / max(rowCount, 1)) > Self.parameterLimit
        }
    }

    /// Inserts a batch's rows in one statement, and empties it.
    private mutating func flush(_ batch: inout RowBatch) throws {
        defer { batch = RowBatch() }
        guard let entity = batch.entity, let layout = batch.layout, batch.rowCount > 0 else { return }
        currentEntityName = entity.name
        let width = batch.parameters.count / batch.rowCount
        let columns =
            ([SQLTableLayout.primaryKey]
            + layout.propertyIndexes.compactMap { layout.columnRangeByProperty[$0] }.flatMap {
                layout.columns[$0].map(\.name)
            })
            .map(dialect.quoted)
        let typed = layout.typeColumnPosition != nil
        let names = columns + (typed ? [dialect.quoted(SQLTableLayout.typeColumn)] : [])
        let rows = (0..<batch.rowCount).map { row in
            let placeholders =
                (1...width).map { "$\(row * width + $0)" }
                + (typed ? [dialect.stringLiteral(entity.name)] : [])
            return "(" + placeholders.joined(separator: ", ") + ")"
        }
        try connection.execute(
            "INSERT INTO \(dialect.quoted(layout.tableName)) (\(names.joined(separator: ", "))) VALUES "
                + rows.joined(separator: ", "), batch.parameters)
    }

    // MARK: - History

    /// Notes that the inserted model at `position` is of `entity`, extending the last run when it is of the same.
    private mutating func noteInsert(at position: Int, of entity: Schema.Entity) {
        if let last = insertRuns.indices.last, insertRuns[last].entity === entity,
            insertRuns[last].positions.upperBound == position
        {
            insertRuns[last].positions = insertRuns[last].positions.lowerBound..<position + 1
        } else {
            insertRuns.append((entity, position..<position + 1))
        }
    }

    /// Records the save as one transaction of the store's history, unless it changed no row, and announces its
    /// token on the store's channel when it commits. The recording lock, held until the save ends, gives tokens in
    /// commit order.
    private mutating func recordHistory(_ changes: StoreChanges, deleted: [(entity: Schema.Entity, keys: [Int64])])
        throws
    {
        // A migration's saves are part of changing the schema, not changes of the app's data.
        guard !store.isMigrationStore else { return }
        let recorded = RecordedChanges(
            insertRuns: insertRuns, insertedKeys: insertedKeys, rewrites: rewrites, updated: changes.updated,
            storeSideUpdates: unlinkedRows, deleted: deleted, preserved: preserved)
        guard !recorded.isEmpty else { return }
        try PostgreSQLHistory.lockRecording(of: store.identifier, connection)
        let program = RecordedTransaction.currentProgram
        let result = try connection.execute(
            "INSERT INTO \(dialect.quoted(PostgreSQLHistory.tableName)) (\"author\", \"timestamp\", \"bundle\", "
                + "\"process\", \"changes\") VALUES ($1, $2, $3, $4, $5) RETURNING \"token\"",
            [
                changes.editingState?.author.map { .text($0) } ?? .null,
                .real(Date().timeIntervalSinceReferenceDate),
                .text(program.bundleIdentifier), .text(program.processIdentifier), .blob(recorded.encoded()),
            ])
        guard let token = result.integer(row: 0, column: 0) else { return }
        try connection.execute(
            "SELECT pg_notify($1, $2)", [.text(PostgreSQLHistory.channel(of: store.identifier)), .text(String(token))])
        recordedToken = token
    }

    /// Notes, for history, rows of `entity` whose `property` lost its links to rows this save deletes; rows this
    /// save deletes are left out, since history records them as deleted. In a hierarchy's table each row is noted
    /// as its own class.
    private mutating func noteUnlinked(_ keys: [Int64], of entity: Schema.Entity, property: Schema.Entity.Property)
        throws
    {
        let table = ObjectIdentifier(entity.rootEntity)
        let kept = Array(Set(keys.filter { !deletedRowKeys.contains(RowKey(table: table, key: $0)) })).sorted()
        guard !kept.isEmpty else { return }
        let layout = try store.layout(of: entity)
        guard layout.typeColumnPosition != nil else {
            for key in kept { unlinkedRows.note(key, of: entity, slots: [property.index]) }
            return
        }
        let list = PostgreSQLKeyList(kept)
        let rows = try connection.execute(
            "SELECT \(dialect.quoted(SQLTableLayout.primaryKey)), \(dialect.quoted(SQLTableLayout.typeColumn)) FROM "
                + "\(dialect.quoted(layout.tableName)) WHERE "
                + list.condition(on: dialect.quoted(SQLTableLayout.primaryKey), parameter: 1), [list.parameter])
        for row in 0..<rows.rowCount {
            guard let key = rows.integer(row: row, column: 0) else { continue }
            let name = rows.text(row: row, column: 1) ?? entity.name
            let own = store.entities.first { $0.name == name } ?? entity
            guard let slot = own.property(named: property.name)?.index else { continue }
            unlinkedRows.note(key, of: own, slots: [slot])
        }
    }

    // MARK: - Keys

    /// Takes, for the rest of the transaction, a lock per table whose inserted models have unique values, in one
    /// order and before the save locks any row: two saves inserting the same values then run one after the other,
    /// and the second finds the first's row. The locks are the store's own (advisory locks belong to the database).
    private func lockUniqueValues(of inserted: [any PersistentModel]) throws {
        let constrainedTables = Set(
            inserted.lazy.map(\.storage.entity).filter { !$0.uniquenessConstraints.isEmpty }.map(\.tableName))
        for table in constrainedTables.sorted() {
            try connection.execute(
                "SELECT pg_advisory_xact_lock(hashtextextended($1, 0))",
                [.text("swiftdata-unique:\(store.identifier):\(table)")])
        }
    }

    /// Gives each inserted model its key: a stored row's or an earlier insert's when its unique values match
    /// theirs, a new one from the key sequence otherwise. Saves that insert models with unique values take a lock
    /// per table first, so that two processes inserting the same values end with one row.
    private mutating func assignKeys(to inserted: [any PersistentModel]) throws {
        guard !inserted.isEmpty else { return }
        let fresh = try connection.execute(
            "SELECT nextval('\(dialect.quoted(PostgreSQLModelStore.keySequence))') FROM generate_series(1, $1)",
            [.integer(Int64(inserted.count))])
        var nextFresh = 0
        func freshKey(for storage: ModelStorage) throws -> Int64 {
            guard let key = fresh.integer(row: nextFresh, column: 0) else {
                throw SwiftDataError(
                    .modelValidationFailure, "the key sequence gave too few keys", entityName: storage.entity.name)
            }
            nextFresh += 1
            return key
        }
        insertedKeys = Array(repeating: 0, count: inserted.count)
        keySources = Array(repeating: .fresh, count: inserted.count)
        // Models of entities without unique values are new rows: they get their keys first, so that the unique
        // values of the others (a unique to-one relationship) can name them.
        var constrained: [Int] = []
        for (position, model) in inserted.enumerated() {
            let storage = model.storage
            if storage.entity.uniquenessConstraints.isEmpty {
                insertedKeys[position] = try freshKey(for: storage)
                assignedKeys[ObjectIdentifier(storage)] = insertedKeys[position]
            } else {
                constrained.append(position)
            }
        }
        var pending: [PendingUniqueValues: Int64] = [:]
        for position in constrained {
            let storage = inserted[position].storage
            currentEntityName = storage.entity.name
            let layout = try store.layout(of: storage.entity)
            var found: (key: Int64, source: KeySource)?
            var uniqueValues: [PendingUniqueValues] = []
            for constraint in storage.entity.uniquenessConstraints {
                guard let values = try self.values(of: constraint, in: storage, layout: layout) else { continue }
                let pendingValues = PendingUniqueValues(table: layout.tableName, constraint: constraint, values: values)
                uniqueValues.append(pendingValues)
                guard found == nil else { continue }
                if let key = pending[pendingValues] {
                    found = (key, .earlierInsert)
                } else if let key = try storedKey(matching: values, of: constraint, entity: storage.entity, layout) {
                    found = (key, .storedRow)
                }
            }
            let given = try found?.key ?? freshKey(for: storage)
            keySources[position] = found?.source ?? .fresh
            for values in uniqueValues { pending[values] = given }
            insertedKeys[position] = given
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
    private func storedKey(
        matching values: [SQLValue], of constraint: [String], entity: Schema.Entity, _ layout: SQLTableLayout
    ) throws
        -> Int64?
    {
        // As the unique index compares them: strings in their NFC form, each column of a composite attribute.
        let columns = layout.columns(of: constraint, in: entity)
        guard columns.count == values.count else { return nil }
        let conditions = columns.enumerated().map { position, column in
            column.sqlType.hasPrefix("text")
                ? "\(dialect.comparedForm(of: dialect.quoted(column.name))) = \(dialect.comparedForm(of: "$\(position + 1)"))"
                : "\(dialect.quoted(column.name)) = $\(position + 1)"
        }
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
            let property = storage.entity.persistedProperties[index]
            try storage.appendColumnValues(of: property, to: &parameters, keyOf: primaryKey(of:)) { _ in nil }
            try checkIsBytes(parameters.last, of: property, in: storage)
        }
        return try connection.execute(sql, parameters).changedRowCount
    }

    /// Refuses the text a value transformer gave for an attribute: its `bytea` column holds bytes, and read back
    /// they would be handed to the transformer as `Data`.
    private func checkIsBytes(_ value: SQLValue?, of property: Schema.Entity.Property, in storage: ModelStorage) throws
    {
        guard case .transformed? = property.codec?.unwrappedCodec, case .text? = value else { return }
        throw SwiftDataError(
            .modelValidationFailure,
            "\(storage.entity.name).\(property.name)'s value transformer gives a String; the PostgreSQL store keeps "
                + "transformed values as bytes, so the transformer must give Data",
            entityName: storage.entity.name)
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
            guard try rowExists(key, layout) else { throw SwiftDataError.rowDeletedElsewhere(storage) }
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
        guard changed > 0 else { throw SwiftDataError.rowDeletedElsewhere(storage) }
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

    /// Deletes rows of an entity, clears the foreign keys that point at them and removes their join-table rows,
    /// noting for history the rows whose links it cleared. Returns the values of the preserved attributes (see
    /// `Schema.Entity.attributesPreservedOnDeletion`) of the deleted rows, by key.
    private mutating func delete(_ keys: [Int64], of entity: Schema.Entity) throws -> [Int64: [(String, [SQLValue])]] {
        let list = PostgreSQLKeyList(keys)
        let parameters = [list.parameter]
        let key = dialect.quoted(SQLTableLayout.primaryKey)
        let layout = try store.layout(of: entity)
        let preservedAttributes = entity.attributesPreservedOnDeletion
        let ranges = preservedAttributes.map { layout.columnRangeByProperty[$0.index] ?? 0..<0 }
        let preservedColumns = ranges.flatMap { $0.map { dialect.quoted(layout.columns[$0].name) } }
        let deletedRows = try connection.execute(
            "DELETE FROM \(dialect.quoted(entity.tableName)) WHERE \(list.condition(on: key, parameter: 1)) "
                + "RETURNING \(([key] + preservedColumns).joined(separator: ", "))", parameters)
        var preserved: [Int64: [(String, [SQLValue])]] = [:]
        if !preservedColumns.isEmpty {
            for row in 0..<deletedRows.rowCount {
                guard let deletedKey = deletedRows.integer(row: row, column: 0) else { continue }
                var column = 1
                preserved[deletedKey] = zip(preservedAttributes, ranges).map { property, range in
                    defer { column += range.count }
                    return (
                        property.name, (column..<column + range.count).map { deletedRows.value(row: row, column: $0) }
                    )
                }
            }
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
                let unlinked: PostgreSQLResult
                switch info.storage {
                case .foreignKey(let column):
                    let column = dialect.quoted(column)
                    unlinked = try connection.execute(
                        "UPDATE \(dialect.quoted(other.tableName)) SET \(column) = NULL WHERE "
                            + list.condition(on: column, parameter: 1) + " RETURNING \(key)", parameters)
                case .joinTable(let table, let ownerColumn, let targetColumn):
                    unlinked = try connection.execute(
                        "DELETE FROM \(dialect.quoted(table)) WHERE "
                            + list.condition(on: dialect.quoted(targetColumn), parameter: 1)
                            + " RETURNING \(dialect.quoted(ownerColumn))", parameters)
                case .inverseForeignKey:
                    continue
                }
                let owners = (0..<unlinked.rowCount).compactMap { unlinked.integer(row: $0, column: 0) }
                if !owners.isEmpty { try noteUnlinked(owners, of: other, property: property) }
            }
        }
        for property in entity.persistedProperties {
            guard case .joinTable(let table, let ownerColumn, _) = property.relationshipInfo?.storage else { continue }
            try connection.execute(
                "DELETE FROM \(dialect.quoted(table)) WHERE "
                    + list.condition(on: dialect.quoted(ownerColumn), parameter: 1),
                parameters)
        }
        return preserved
    }
}

/// The values of one uniqueness constraint of an inserted model, to find an earlier insert of the same save with
/// the same values.
private struct PendingUniqueValues: Hashable {
    let table: String
    let constraint: [String]
    let values: [SQLValue]
}
