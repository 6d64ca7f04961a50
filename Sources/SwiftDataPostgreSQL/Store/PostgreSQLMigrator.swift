internal import Foundation
internal import SwiftData

/// Brings a database written with an older schema up to the code's, inside the transaction of
/// `PostgreSQLTables.open`, which holds the creation lock: PostgreSQL changes tables in transactions, so a
/// migration that fails anywhere leaves the database as it was, openable with the old schema.
///
/// With a migration plan, every step from the database's version to the code's runs in order (`MigrationStep`,
/// shared with the SQLite store): a lightweight stage changes the tables; a custom stage runs `willMigrate` on a
/// context over the old models, changes the tables with new required columns left open, runs `didMigrate` on a
/// context over the new models, and then requires every such column to have a value. Without a plan, or when the
/// steps end short of the code's schema, the remaining change is inferred.
///
/// Tables change in place (`ALTER TABLE`), with the rules of the SQLite store's migrations: a property renamed
/// with `originalName` keeps its values; a removed property's column is dropped; a new optional column is NULL;
/// a new required column takes its declared default, or a custom stage's values, and is refused when stored rows
/// would need a value none gives; an entity a stage's version no longer has is dropped, and one the code no
/// longer has is refused while it has rows; a changed column type, or a to-one relationship that became to-many,
/// is refused.
struct PostgreSQLMigrator {
    let connection: PostgreSQLConnection
    let stored: StoredSchema
    let target: PostgreSQLTables
    let plan: (any SchemaMigrationPlan.Type)?
    let configuration: PostgreSQLConfiguration
    let storeIdentifier: String

    private var dialect: PostgreSQLDialect { target.dialect }

    /// Runs the migration and records the code's schema in the metadata table.
    ///
    /// - Throws: `MigrationRefusal` for a change that would invent or lose data; `SwiftDataError` for a plan that
    ///   does not fit the database, a stage's failure or a value a custom stage left out; what the server throws.
    func migrate() throws {
        var current = stored
        if let plan {
            let steps = try MigrationStep.steps(
                of: plan, from: stored.version, to: target.version.description, location: connection.server)
            for step in steps { current = try run(step, current: current) }
        }
        if !current.hasSameShape(as: target.storedSchema) {
            _ = try alter(from: current, to: target, leavingRequiredColumnsOpen: false, dropsRemovedEntities: false)
        } else {
            // An attribute whose type changed but not its column's leaves the tables' shape as it was, so no
            // `alter` checks it.
            for entity in target.storedSchema.entities {
                if let stored = current.entity(named: entity.name) {
                    try checkAttributeTypes(of: entity, against: stored)
                }
            }
        }
        let metadata = dialect.quoted(PostgreSQLModelStore.metadataTable)
        let update = "UPDATE \(metadata) SET \"value\" = $2 WHERE \"key\" = $1"
        try connection.execute(update, [.text("model"), .text(try target.storedSchema.encoded())])
        try connection.execute(update, [.text("schemaVersion"), .text(target.version.description)])
    }

    // MARK: - Stages

    /// Runs one step of the plan and returns the schema the tables have after it.
    private func run(_ step: MigrationStep, current: StoredSchema) throws -> StoredSchema {
        let next = try tables(of: step.to)
        guard case .custom(_, _, let willMigrate, let didMigrate) = step.stage else {
            _ = try alter(from: current, to: next, leavingRequiredColumnsOpen: false, dropsRemovedEntities: true)
            return next.storedSchema
        }
        if let willMigrate { try runContext(on: try tables(of: step.from), willMigrate) }
        let open = try alter(from: current, to: next, leavingRequiredColumnsOpen: true, dropsRemovedEntities: true)
        if let didMigrate { try runContext(on: next, didMigrate) }
        let stage = "\(step.from.versionIdentifier) → \(step.to.versionIdentifier)"
        for column in open {
            let table = dialect.quoted(column.table)
            let name = dialect.quoted(column.name)
            let missing = try count("SELECT count(*) FROM \(table) WHERE \(name) IS NULL")
            guard missing == 0 else {
                throw SwiftDataError(
                    .loadIssueModelContainer,
                    "migration stage \(stage) left \(column.entity).\(column.property) without a value in \(missing) "
                        + "row(s); fill it in didMigrate")
            }
            try connection.execute("ALTER TABLE \(table) ALTER COLUMN \(name) SET NOT NULL")
        }
        return next.storedSchema
    }

    /// The tables of a version of the plan.
    private func tables(of version: any VersionedSchema.Type) throws -> PostgreSQLTables {
        let entities = Schema(versionedSchema: version).modelEntities
        return PostgreSQLTables(
            entities: entities, layouts: try PostgreSQLModelStore.layouts(of: entities),
            version: version.versionIdentifier, dialect: dialect)
    }

    /// Runs a stage's closure with a context over the tables as they are now, and saves what it changed, in the
    /// migration's transaction.
    private func runContext(on tables: PostgreSQLTables, _ body: (ModelContext) throws -> Void) throws {
        connection.nestsTransactions = true
        defer { connection.nestsTransactions = false }
        let store = PostgreSQLModelStore(
            migratingWith: connection, tables: tables, identifier: storeIdentifier, configuration: configuration)
        let schema = Schema(tables.entities.compactMap(\.modelType))
        let context = ModelContext(ModelContainer(migrating: store, configuration: configuration, schema: schema))
        try body(context)
        if context.hasChanges { try context.save() }
    }

    // MARK: - Changing Tables

    /// A required column left open for a custom stage's `didMigrate` to fill.
    private struct OpenColumn {
        let table: String
        let name: String
        let entity: String
        let property: String
    }

    /// Changes the tables from one schema to another's and returns the required columns it left open.
    private func alter(
        from old: StoredSchema, to new: PostgreSQLTables, leavingRequiredColumnsOpen: Bool,
        dropsRemovedEntities: Bool
    ) throws -> [OpenColumn] {
        let sources = old.sources(for: new.entities, layouts: new.layouts)
        try old.checkHierarchyMoves(of: new.entities)
        try old.checkRelationshipStorage(of: new.entities, sources: sources)
        let expected = new.storedSchema
        var open: [OpenColumn] = []
        for entity in new.entities where entity.tableName == entity.name {
            guard let layout = new.layouts[entity.name] else { continue }
            guard let source = sources[entity.name] else {
                for statement in new.createStatements(entity: entity, layout: layout) {
                    try connection.execute(statement)
                }
                continue
            }
            if let described = expected.entity(named: entity.name) {
                try checkAttributeTypes(of: described, against: source)
                // A table stored exactly as the code stores it needs nothing.
                if source.name == described.name && source.hash == described.hash { continue }
            }
            open += try alter(
                source, to: entity, layout: layout, tables: new, leavingRequiredColumnsOpen: leavingRequiredColumnsOpen,
                dropsRemovedValues: dropsRemovedEntities)
        }
        let kept = Set(sources.values.map(\.name))
        for entity in old.entities
        where !kept.contains(entity.name) && !new.entities.contains(where: { $0.name == entity.name }) {
            let rows = try count("SELECT count(*) FROM \(dialect.quoted(entity.name))")
            if rows > 0 && !dropsRemovedEntities {
                throw MigrationRefusal(
                    "the store holds \(rows) \(entity.name) row(s) and the code has no \(entity.name) model; "
                        + "remove it in a migration plan's stage to drop them")
            }
            try connection.execute("DROP TABLE IF EXISTS \(dialect.quoted(entity.name))")
        }
        try alterJoinTables(from: old, to: new, sources: sources, dropsRemovedValues: dropsRemovedEntities)
        return open
    }

    /// Changes one entity's (or hierarchy's) table: renamed after the entity, its columns renamed, dropped,
    /// added and made optional or required as the code's layout says, and its indexes made anew.
    private func alter(
        _ source: StoredSchema.Entity, to entity: Schema.Entity, layout: SQLTableLayout, tables: PostgreSQLTables,
        leavingRequiredColumnsOpen: Bool, dropsRemovedValues: Bool
    ) throws -> [OpenColumn] {
        let table = dialect.quoted(layout.tableName)
        if source.name != layout.tableName {
            try connection.execute("ALTER TABLE \(dialect.quoted(source.name)) RENAME TO \(table)")
        }
        try dropIndexes(of: layout.tableName)
        let rowCount = try count("SELECT count(*) FROM \(table)")
        if rowCount > 0 && !leavingRequiredColumnsOpen {
            // A new required to-one relationship: the stored rows would have no target.
            for property in entity.persistedProperties where !property.isOptional {
                guard let info = property.relationshipInfo, !info.isToMany else { continue }
                let names = [property.name, property.schemaProperty.originalName]
                guard !source.columns.contains(where: { $0.isForeignKey && names.contains($0.property) }) else {
                    continue
                }
                throw MigrationRefusal(
                    "\(entity.name).\(property.name) is new and required; the \(rowCount) stored row(s) have no value")
            }
        }

        // Which stored column each of the layout's columns takes its values from, decided before any changes.
        let sources = try source.columnSources(for: layout, entity: entity, among: tables.entities)
        let previousColumns = sources.columns
        let used = Set(previousColumns.values.map(\.name))
        for column in source.columns where !used.contains(column.name) {
            let name = dialect.quoted(column.name)
            if !dropsRemovedValues {
                try refuseDropping("\(source.name).\(column.property)", rows: "FROM \(table) WHERE \(name) IS NOT NULL")
            }
            try connection.execute("ALTER TABLE \(table) DROP COLUMN \(name)")
        }
        // Renames go through temporary names, so that a column may take the name another one gives up (`b`
        // renamed from `a` while `c` is renamed from `b`).
        let renamed = layout.columns.compactMap { column -> (from: String, to: String)? in
            guard let previous = previousColumns[column.name], previous.name != column.name else { return nil }
            return (previous.name, column.name)
        }
        for (index, rename) in renamed.enumerated() {
            try connection.execute(
                "ALTER TABLE \(table) RENAME COLUMN \(dialect.quoted(rename.from)) TO "
                    + dialect.quoted("_swiftdata_renaming_\(index)"))
        }
        for (index, rename) in renamed.enumerated() {
            try connection.execute(
                "ALTER TABLE \(table) RENAME COLUMN \(dialect.quoted("_swiftdata_renaming_\(index)")) TO "
                    + dialect.quoted(rename.to))
        }

        var open: [OpenColumn] = []
        for column in layout.columns {
            let name = dialect.quoted(column.name)
            guard let property = SQLTableLayout.owningProperty(of: column, in: entity, among: tables.entities) else {
                // A hierarchy's type column: kept, or, for a table that becomes a hierarchy's, the root's name.
                if previousColumns[column.name] == nil {
                    try connection.execute(
                        "ALTER TABLE \(table) ADD COLUMN \(name) \(column.sqlType) NOT NULL DEFAULT "
                            + dialect.stringLiteral(entity.name))
                    try connection.execute("ALTER TABLE \(table) ALTER COLUMN \(name) DROP DEFAULT")
                }
                continue
            }
            let described = "\(entity.name).\(property.name)"
            let defaultValue = try SQLTableLayout.defaultValue(of: property, column: column)
            let missing: Int
            if let previous = previousColumns[column.name] {
                guard previous.sqlType == column.sqlType, previous.isForeignKey == column.isForeignKey else {
                    throw MigrationRefusal.typeChanged(described, from: previous.sqlType, to: column.sqlType)
                }
                if column.isNullable {
                    if !previous.isNullable {
                        try connection.execute("ALTER TABLE \(table) ALTER COLUMN \(name) DROP NOT NULL")
                    }
                    continue
                }
                guard previous.isNullable else { continue }
                missing = try count("SELECT count(*) FROM \(table) WHERE \(name) IS NULL")
            } else {
                try connection.execute("ALTER TABLE \(table) ADD COLUMN \(name) \(column.sqlType)")
                if sources.presentValues.contains(column.name) {
                    try connection.execute("UPDATE \(table) SET \(name) = 1")
                }
                if column.isNullable { continue }
                missing = rowCount
            }
            // A column that becomes required: its default fills the rows that have no value, or a custom stage does.
            if missing > 0, let defaultValue {
                try connection.execute(
                    "UPDATE \(table) SET \(name) = \(dialect.placeholder(1, kind: nil)) WHERE \(name) IS NULL",
                    [defaultValue])
            } else if missing > 0 {
                guard leavingRequiredColumnsOpen else {
                    throw previousColumns[column.name] == nil
                        ? MigrationRefusal.newAndRequired(described, rows: missing)
                        : MigrationRefusal.becomesRequired(described, missing: missing)
                }
                open.append(
                    OpenColumn(table: layout.tableName, name: column.name, entity: entity.name, property: property.name)
                )
                continue
            }
            try connection.execute("ALTER TABLE \(table) ALTER COLUMN \(name) SET NOT NULL")
        }
        for statement in tables.createStatements(entity: entity, layout: layout).dropFirst() {
            do {
                try connection.execute(statement)
            } catch let error as PostgreSQLError where error.kind == .statementFailed(sqlState: "23505") {
                throw MigrationRefusal(
                    "\(entity.name)'s stored rows break a uniqueness constraint (\(error.message)); remove the "
                        + "duplicates in a custom stage's willMigrate")
            }
        }
        return open
    }

    /// Drops every index of a table but its primary key's, to make them anew under the code's names.
    private func dropIndexes(of table: String) throws {
        let result = try connection.execute(
            "SELECT index.relname FROM pg_index JOIN pg_class index ON index.oid = pg_index.indexrelid "
                + "WHERE pg_index.indrelid = to_regclass($1) AND NOT pg_index.indisprimary",
            [.text(dialect.quoted(table))])
        for row in 0..<result.rowCount {
            guard let name = result.text(row: row, column: 0) else { continue }
            try connection.execute("DROP INDEX \(dialect.quoted(name))")
        }
    }

    /// Keeps the join tables that still exist (renaming them after a relationship's `originalName`), creates new
    /// ones (with the links a relationship kept in its inverse's foreign key before) and drops the rest.
    private func alterJoinTables(
        from old: StoredSchema, to new: PostgreSQLTables, sources: [String: StoredSchema.Entity],
        dropsRemovedValues: Bool
    ) throws {
        let changes = old.joinTableChanges(for: new.entities, sources: sources)
        for (from, to) in changes.renamed {
            try connection.execute("ALTER TABLE \(dialect.quoted(from)) RENAME TO \(dialect.quoted(to))")
        }
        for table in changes.created {
            // A table a migration kept earlier may exist already.
            guard try !exists(table.name) else { continue }
            for statement in new.joinTableStatements(table.name) { try connection.execute(statement) }
            guard let (destination, column) = table.formerLinks else { continue }
            let hadColumn = try count(
                "SELECT count(*) FROM information_schema.columns WHERE table_schema = current_schema() "
                    + "AND table_name = $1 AND column_name = $2", [.text(destination), .text(column)])
            guard hadColumn > 0 else { continue }
            try connection.execute(
                "INSERT INTO \(dialect.quoted(table.name)) (\"owner\", \"target\") SELECT \(dialect.quoted(column)), "
                    + "\(dialect.quoted(SQLTableLayout.primaryKey)) FROM \(dialect.quoted(destination)) "
                    + "WHERE \(dialect.quoted(column)) IS NOT NULL ON CONFLICT DO NOTHING")
        }
        for table in changes.dropped {
            if !dropsRemovedValues {
                try refuseDropping("the relationship of \(table)", rows: "FROM \(dialect.quoted(table))")
            }
            try connection.execute("DROP TABLE IF EXISTS \(dialect.quoted(table))")
        }
    }

    /// Refuses to drop what a removed property holds without a plan: several versions of an app may open one
    /// database in turn (a deploy runs old and new processes side by side), and an older version's inferred
    /// migration would drop what a newer one added. A plan's stage drops it; an empty column or table goes.
    ///
    /// - Throws: `MigrationRefusal` naming the property and how many rows hold values.
    private func refuseDropping(_ property: String, rows: String) throws {
        let holding = try count("SELECT count(*) " + rows)
        guard holding == 0 else {
            throw MigrationRefusal(
                "\(property) is no longer in the code, and \(holding) stored row(s) hold values; without a migration "
                    + "plan the PostgreSQL store does not drop them (an older version of the app opening a newer "
                    + "database would drop what the newer one added): drop them in a plan's lightweight stage")
        }
    }

    /// Refuses attributes that keep their names and column types but change what they hold (a `String` that
    /// became a `URL`): their stored values may not be values of the new type.
    private func checkAttributeTypes(of expected: StoredSchema.Entity, against old: StoredSchema.Entity) throws {
        // Whether a value may be nil is the column's nullability, which the table's change handles.
        func wrapped(_ type: String) -> Substring {
            type.hasPrefix("Optional<") && type.hasSuffix(">") ? type.dropFirst(9).dropLast() : Substring(type)
        }
        for attribute in old.attributes ?? [] {
            guard let new = expected.attributes?.first(where: { $0.name == attribute.name }) else { continue }
            guard wrapped(new.type) == wrapped(attribute.type) else {
                throw MigrationRefusal(
                    "\(expected.name).\(attribute.name) changed from \(attribute.type) to \(new.type); convert it "
                        + "in a custom migration stage through a new property")
            }
        }
    }

    /// True when the database has a table of this name in the store's schema.
    private func exists(_ table: String) throws -> Bool {
        try count(
            "SELECT count(*) FROM pg_tables WHERE schemaname = current_schema() AND tablename = $1",
            [
                .text(table)
            ]) > 0
    }

    private func count(_ sql: String, _ parameters: [SQLValue] = []) throws -> Int {
        Int(try connection.execute(sql, parameters).integer(row: 0, column: 0) ?? 0)
    }
}
