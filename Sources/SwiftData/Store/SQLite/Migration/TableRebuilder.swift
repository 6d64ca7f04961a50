/// Rewrites a store's tables from the schema they were written with to another one, inside the caller's
/// transaction: the inferred (lightweight) part of every migration.
///
/// Each entity's table is rebuilt: a new table with the target columns is filled from the old one (same column,
/// or the column of the property's `originalName`), the old one dropped and the new one renamed. New optional
/// columns are NULL, new columns with a declared default take it, and removed properties and entities are dropped.
/// Changes that would invent or lose data are refused with a `MigrationRefusal` that says what and why.
struct TableRebuilder {
    let connection: SQLiteConnection
    let old: StoredSchema
    let entities: [Schema.Entity]
    let layouts: [String: SQLTableLayout]
    /// In a custom stage, new required columns may stay empty until `didMigrate` fills them.
    let leavesRequiredColumnsOpen: Bool
    /// True in a plan's stages, where a version without an entity says to drop it; false when the change is
    /// inferred, where dropping an entity's rows is refused.
    var dropsRemovedEntities = true

    /// Rebuilds every table. Throws `MigrationRefusal` when a change cannot be inferred.
    func rebuild() throws {
        let pairs = old.sources(for: entities, layouts: layouts)
        try old.checkHierarchyMoves(of: entities)
        try old.checkRelationshipStorage(of: entities, sources: pairs)
        // One table per hierarchy: its root's layout holds every member's columns.
        for entity in entities where entity.tableName == entity.name {
            guard let layout = layouts[entity.name] else { continue }
            if let source = pairs[entity.name] {
                try rebuild(entity, layout: layout, from: source)
            } else {
                for statement in layout.createStatements(entity: entity) { try connection.execute(statement) }
            }
        }
        let kept = Set(pairs.values.map(\.name))
        for stored in old.entities
        where !kept.contains(stored.name) && !entities.contains(where: { $0.name == stored.name }) {
            let rows = try count("SELECT count(*) FROM \(quoted(stored.name))")
            if rows > 0 && !dropsRemovedEntities {
                throw MigrationRefusal(
                    "the store holds \(rows) \(stored.name) row(s) and the code has no \(stored.name) model; "
                        + "remove it in a migration plan's stage to drop them"
                )
            }
            try connection.execute("DROP TABLE IF EXISTS \(quoted(stored.name))")
        }
        try rebuildJoinTables(pairs: pairs)
    }

    // MARK: - Internal

    private func rebuild(_ entity: Schema.Entity, layout: SQLTableLayout, from source: StoredSchema.Entity) throws {
        let table = quoted(source.name)
        let rowCount = try count("SELECT count(*) FROM \(table)")
        let columnSources = try source.columnSources(for: layout, entity: entity, among: entities)
        var definitions = [SQLiteKeySequence.primaryKeyDefinition]
        var targets = [quoted(SQLTableLayout.primaryKey)]
        var sources = [quoted(SQLTableLayout.primaryKey)]
        var bindings: [SQLValue] = []

        for column in layout.columns {
            if column.propertyIndex == SQLTableLayout.typeIndex {
                // The class of each row: kept, or the root's for a table that becomes a hierarchy's.
                let literal = sqlStringLiteral(entity.name)
                let hadType = source.columns.contains { $0.name == SQLTableLayout.typeColumn }
                definitions.append("\(quoted(column.name)) TEXT NOT NULL")
                targets.append(quoted(column.name))
                sources.append(hadType ? quoted(column.name) : literal)
                continue
            }
            guard let property = SQLTableLayout.owningProperty(of: column, in: entity, among: entities) else {
                continue
            }
            let previous = columnSources.columns[column.name]
            var nullable = column.isNullable
            let expression: String
            if let previous {
                if previous.sqlType != column.sqlType || previous.isForeignKey != column.isForeignKey {
                    throw MigrationRefusal.typeChanged(
                        "\(entity.name).\(property.name)", from: previous.sqlType, to: column.sqlType)
                }
                if !column.isNullable && previous.isNullable {
                    if let value = try SQLTableLayout.defaultValue(of: property, column: column) {
                        bindings.append(value)
                        expression = "COALESCE(\(quoted(previous.name)), ?\(bindings.count))"
                    } else {
                        let missing = try count("SELECT count(*) FROM \(table) WHERE \(quoted(previous.name)) IS NULL")
                        if missing > 0 && !leavesRequiredColumnsOpen {
                            throw MigrationRefusal.becomesRequired(
                                "\(entity.name).\(property.name)", missing: missing)
                        }
                        nullable = nullable || leavesRequiredColumnsOpen
                        expression = quoted(previous.name)
                    }
                } else {
                    expression = quoted(previous.name)
                }
            } else if columnSources.presentValues.contains(column.name) {
                expression = "1"
            } else if column.isNullable {
                expression = "NULL"
            } else if let value = try SQLTableLayout.defaultValue(of: property, column: column) {
                bindings.append(value)
                expression = "?\(bindings.count)"
            } else if leavesRequiredColumnsOpen || rowCount == 0 {
                nullable = true
                expression = "NULL"
            } else {
                throw MigrationRefusal.newAndRequired("\(entity.name).\(property.name)", rows: rowCount)
            }
            definitions.append("\(quoted(column.name)) \(column.sqlType)\(nullable ? "" : " NOT NULL")")
            targets.append(quoted(column.name))
            sources.append(expression)
        }

        let staging = quoted(entity.tableName + "__migrating")
        // The highest key the table gave out, read before the old table (and its `sqlite_sequence` entry) goes.
        try SQLiteKeySequence.prepare(connection)
        let highestKey = try SQLiteKeySequence.highestKey(of: source.name, connection)
        try connection.execute("CREATE TABLE \(staging) (\(definitions.joined(separator: ", ")))")
        try connection.statement(
            "INSERT INTO \(staging) (\(targets.joined(separator: ", "))) SELECT \(sources.joined(separator: ", ")) FROM \(table)"
        ).execute(bindings)
        try connection.execute("DROP TABLE \(table)")
        try connection.execute("ALTER TABLE \(staging) RENAME TO \(quoted(entity.tableName))")
        if highestKey > 0 { try SQLiteKeySequence.record(highestKey, for: entity.tableName, connection) }
        for statement in layout.createStatements(entity: entity).dropFirst() {
            do {
                try connection.execute(statement)
            } catch {
                throw MigrationRefusal(
                    "\(entity.name): \(statement) failed (\(error)); remove duplicates in a custom stage's willMigrate"
                )
            }
        }
    }

    /// Keeps join tables that still exist (renaming them after a relationship's `originalName`), creates new ones
    /// (with the links a relationship kept in its inverse's foreign key before) and drops the rest.
    private func rebuildJoinTables(pairs: [String: StoredSchema.Entity]) throws {
        let changes = old.joinTableChanges(for: entities, sources: pairs)
        for (from, to) in changes.renamed {
            try connection.execute("ALTER TABLE \(quoted(from)) RENAME TO \(quoted(to))")
        }
        for table in changes.created {
            try connection.execute(
                "CREATE TABLE \(quoted(table.name)) (\"owner\" INTEGER NOT NULL, \"target\" INTEGER NOT NULL, "
                    + "PRIMARY KEY (\"owner\", \"target\")) WITHOUT ROWID"
            )
            try connection.execute(
                "CREATE INDEX \(quoted(table.name + "_target_index")) ON \(quoted(table.name)) (\"target\")")
            guard let (destination, column) = table.formerLinks else { continue }
            let hadColumn = try count(
                "SELECT count(*) FROM pragma_table_info(\(sqlStringLiteral(destination))) "
                    + "WHERE name = \(sqlStringLiteral(column))")
            guard hadColumn > 0 else { continue }
            try connection.execute(
                "INSERT OR IGNORE INTO \(quoted(table.name)) (\"owner\", \"target\") SELECT \(quoted(column)), "
                    + "\(quoted(SQLTableLayout.primaryKey)) FROM \(quoted(destination)) WHERE \(quoted(column)) IS NOT NULL"
            )
        }
        for table in changes.dropped {
            try connection.execute("DROP TABLE IF EXISTS \(quoted(table))")
        }
    }

    private func count(_ sql: String) throws -> Int {
        guard case .integer(let value) = try connection.statement(sql).rows().first?.first else { return 0 }
        return Int(value)
    }
}
