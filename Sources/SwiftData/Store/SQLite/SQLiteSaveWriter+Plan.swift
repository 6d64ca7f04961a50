extension SQLiteSaveWriter {
    /// What writing an entity's rows needs, worked out once per save rather than once per row: looking up the
    /// layout, the statement and the spotlight attributes by name for every row cost more than binding it.
    final class EntityPlan {
        let layout: SQLTableLayout
        /// The identity of the entity's table: its hierarchy's root entity.
        let table: ObjectIdentifier
        let insert: SQLiteStatement
        let spotlight: SpotlightIndex?
        let hasJoinTables: Bool
        let uniqueLookups: [UniqueLookup]
        /// The statement that inserts or updates a row, for entities it serves (see `SQLiteStore.upsertSQL(for:)`);
        /// their inserts need a lookup only after a conflict.
        let upsert: SQLiteStatement?
        /// True when `upsert` names the row it overwrites (see `SQLiteConnection.overwrittenRowFunction`);
        /// otherwise the row is looked up after a conflict.
        let upsertNamesOverwrittenRow: Bool
        /// True when relationships can refer to the entity's rows, so the writer must find an inserted model's key
        /// by model.
        let isReferenced: Bool
        /// The keys of the entity's table in this save, once it gave out one.
        var keys: GivenKeys?
        /// `UPDATE` statements of one property's columns, by property index, prepared when first needed.
        private var updateStatements: [SQLiteStatement?] = []
        private var updateAllStatement: SQLiteStatement?
        private var existsStatement: SQLiteStatement?

        init(
            layout: SQLTableLayout, table: ObjectIdentifier, insert: SQLiteStatement, spotlight: SpotlightIndex?,
            hasJoinTables: Bool, uniqueLookups: [UniqueLookup], upsert: SQLiteStatement?, isReferenced: Bool
        ) {
            self.upsertNamesOverwrittenRow = upsert?.sql.contains(SQLiteConnection.overwrittenRowFunction) ?? false
            self.layout = layout
            self.table = table
            self.insert = insert
            self.spotlight = spotlight
            self.hasJoinTables = hasJoinTables
            self.uniqueLookups = uniqueLookups
            self.upsert = upsert
            self.isReferenced = isReferenced
        }

        /// The statement that updates one property's columns, or nil when the property has none.
        func updateStatement(forProperty index: Int, on connection: SQLiteConnection) throws -> SQLiteStatement? {
            if index < updateStatements.count, let cached = updateStatements[index] { return cached }
            guard let sql = layout.updateSQLByProperty[index] else { return nil }
            let statement = try connection.statement(sql)
            if index >= updateStatements.count {
                updateStatements += repeatElement(nil, count: index + 1 - updateStatements.count)
            }
            updateStatements[index] = statement
            return statement
        }

        /// The statement that selects a row by its key: whether it still exists, for changes that update no column.
        func exists(on connection: SQLiteConnection) throws -> SQLiteStatement {
            if let existsStatement { return existsStatement }
            let statement = try connection.statement(
                "SELECT 1 FROM \(quoted(layout.tableName)) WHERE \(quoted(SQLTableLayout.primaryKey)) = ?1")
            existsStatement = statement
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

    mutating func plan(for entity: Schema.Entity) throws -> EntityPlan {
        // Saves write runs of one entity: the last plan is checked before hashing.
        if let lastPlan, lastPlan.entity == ObjectIdentifier(entity) { return lastPlan.plan }
        if let plan = plans[ObjectIdentifier(entity)] {
            lastPlan = (ObjectIdentifier(entity), plan)
            return plan
        }
        // A context with one store hands it every insert without looking up each model's store (see `save()`).
        guard let layout = store.layouts[entity.name] else { throw SwiftDataError.notInContainerSchema(entity) }
        let hasJoinTables = entity.persistedProperties.contains {
            if case .joinTable = $0.relationshipInfo?.storage { return true }
            return false
        }
        let plan = EntityPlan(
            layout: layout,
            table: ObjectIdentifier(entity.rootEntity),
            insert: try statement(layout.insertSQL),
            spotlight: SpotlightIndex(entity: entity),
            hasJoinTables: hasJoinTables,
            uniqueLookups: try uniqueLookups(for: entity, layout: layout),
            upsert: try store.upsertSQL(for: entity).map { try statement($0) },
            isReferenced: store.isReferenced(entity)
        )
        plans[ObjectIdentifier(entity)] = plan
        lastPlan = (ObjectIdentifier(entity), plan)
        return plan
    }
}
