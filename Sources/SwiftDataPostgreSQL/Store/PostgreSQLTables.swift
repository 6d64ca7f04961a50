internal import Foundation
internal import SwiftData

/// The tables of a PostgreSQL store's schema: their names checked, created in a new database, and compared with
/// what an existing database holds.
struct PostgreSQLTables {
    let entities: [Schema.Entity]
    let layouts: [String: SQLTableLayout]
    let version: Schema.Version
    let dialect: PostgreSQLDialect

    /// The schema as the metadata table records it, to compare with a database's.
    var storedSchema: StoredSchema { StoredSchema(entities: entities, layouts: layouts, version: version) }

    /// Refuses table and column names PostgreSQL would cut short (more than 63 bytes): two could become one.
    ///
    /// - Throws: `SwiftDataError.loadIssueModelContainer` naming the entity and the name.
    func checkNames(server: String) throws {
        for entity in entities {
            guard let layout = layouts[entity.name] else { continue }
            let names = [layout.tableName] + layout.columns.map(\.name) + SQLTableLayout.joinTables(of: entity)
            for name in names where name.utf8.count > PostgreSQLModelStore.longestName {
                throw SwiftDataError(
                    .loadIssueModelContainer,
                    "\(entity.name) needs the name \(name), longer than the \(PostgreSQLModelStore.longestName) "
                        + "bytes PostgreSQL keeps (store at \(server)); use @Attribute(originalName:) or a shorter name",
                    entityName: entity.name)
            }
        }
    }

    /// Opens the store in a database: creates the tables when the database has none, migrates them when they hold
    /// another schema of the app's (`PostgreSQLMigrator`), and returns the store's identifier. Another process may
    /// be opening the same database: creators take a lock in the transaction, so the first creates or migrates and
    /// the others find its tables.
    ///
    /// - Throws: `PostgreSQLError.foreignSchema` when the database holds tables of another program, or another
    ///   schema and the store is read-only; `MigrationRefusal` or `SwiftDataError` when the migration cannot be
    ///   made; what the server throws.
    func open(
        _ connection: PostgreSQLConnection, configuration: PostgreSQLConfiguration,
        migrationPlan: (any SchemaMigrationPlan.Type)?
    ) throws -> String {
        let allowsCreating = configuration.allowsSave
        try checkServer(connection)
        let found = try existingStore(connection)
        if let found, found.schema.entities == storedSchema.entities, try hasHistory(connection) || !allowsCreating {
            return found.identifier
        }
        guard allowsCreating else {
            throw PostgreSQLError(
                .foreignSchema, server: connection.server,
                message: found == nil
                    ? "the database has no SwiftData tables, and the store is read-only"
                    : "the database holds another schema, and a read-only store cannot migrate it")
        }
        try connection.executeScript("BEGIN")
        do {
            // One creator per schema at a time (advisory locks belong to the whole database).
            try connection.execute(
                "SELECT pg_advisory_xact_lock(hashtextextended('swiftdata-create:' || current_schema(), 0))")
            let identifier: String
            if let found = try existingStore(connection) {
                if found.schema.entities != storedSchema.entities {
                    try PostgreSQLMigrator(
                        connection: connection, stored: found.schema, target: self, plan: migrationPlan,
                        configuration: configuration, storeIdentifier: found.identifier
                    ).migrate()
                }
                // A store made before it recorded history gets the table.
                if try !hasHistory(connection) { try connection.execute(PostgreSQLHistory.createSQL) }
                identifier = found.identifier
            } else {
                identifier = try create(connection)
            }
            try connection.executeScript("COMMIT")
            return identifier
        } catch {
            try? connection.executeScript("ROLLBACK")
            throw error
        }
    }

    /// True when the database has the history table.
    private func hasHistory(_ connection: PostgreSQLConnection) throws -> Bool {
        let result = try connection.execute(
            "SELECT to_regclass($1) IS NOT NULL", [.text(dialect.quoted(PostgreSQLHistory.tableName))])
        return result.integer(row: 0, column: 0) == 1
    }

    /// Refuses a server whose strings cannot compare as Swift's: one whose encoding is not UTF-8, or older than
    /// PostgreSQL 13, which has no `normalize`.
    private func checkServer(_ connection: PostgreSQLConnection) throws {
        let result = try connection.execute(
            "SELECT current_setting('server_encoding'), current_setting('server_version_num')::bigint")
        let encoding = result.text(row: 0, column: 0) ?? ""
        let version = result.integer(row: 0, column: 1) ?? 0
        guard encoding == "UTF8", version >= 130_000 else {
            throw PostgreSQLError(
                .unsupportedServer, server: connection.server,
                message: "the database's encoding is \(encoding) and the server's version \(version); SwiftData needs "
                    + "UTF8 and PostgreSQL 13 or later")
        }
    }

    /// The identifier and recorded schema of the store the database holds, or nil when it holds no table at all.
    ///
    /// - Throws: `PostgreSQLError.foreignSchema` when the database holds tables of another program.
    private func existingStore(_ connection: PostgreSQLConnection) throws -> (identifier: String, schema: StoredSchema)?
    {
        let tables = try connection.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename")
        let names = (0..<tables.rowCount).compactMap { tables.text(row: $0, column: 0) }
        guard names.contains(PostgreSQLModelStore.metadataTable) else {
            if names.isEmpty { return nil }
            throw PostgreSQLError(
                .foreignSchema, server: connection.server,
                message: "the database holds tables of another program (\(names.joined(separator: ", ")))")
        }
        let rows = try connection.execute(
            "SELECT \"key\", \"value\" FROM \(dialect.quoted(PostgreSQLModelStore.metadataTable))")
        var metadata: [String: String] = [:]
        for row in 0..<rows.rowCount {
            if let key = rows.text(row: row, column: 0), let value = rows.text(row: row, column: 1) {
                metadata[key] = value
            }
        }
        guard let identifier = metadata["storeIdentifier"], let model = metadata["model"],
            var stored = try? StoredSchema.decoded(model)
        else {
            throw PostgreSQLError(
                .foreignSchema, server: connection.server, message: "the store's metadata table is incomplete")
        }
        stored.version = metadata["schemaVersion"] ?? stored.version
        return (identifier, stored)
    }

    /// Creates the tables, indexes, key sequence and metadata, and returns the new store's identifier.
    private func create(_ connection: PostgreSQLConnection) throws -> String {
        let identifier = UUID().uuidString
        let metadata = dialect.quoted(PostgreSQLModelStore.metadataTable)
        try connection.execute("CREATE TABLE \(metadata) (\"key\" text PRIMARY KEY, \"value\" text NOT NULL)")
        try connection.execute("CREATE SEQUENCE \(dialect.quoted(PostgreSQLModelStore.keySequence))")
        try connection.execute(PostgreSQLHistory.createSQL)
        for entity in entities {
            if entity.tableName == entity.name, let layout = layouts[entity.name] {
                for statement in createStatements(entity: entity, layout: layout) { try connection.execute(statement) }
            }
            for table in SQLTableLayout.joinTables(of: entity) {
                for statement in joinTableStatements(table) { try connection.execute(statement) }
            }
        }
        let insert = "INSERT INTO \(metadata) (\"key\", \"value\") VALUES ($1, $2)"
        try connection.execute(insert, [.text("storeIdentifier"), .text(identifier)])
        try connection.execute(insert, [.text("schemaVersion"), .text(version.description)])
        try connection.execute(insert, [.text("model"), .text(try storedSchema.encoded())])
        return identifier
    }

    /// The `CREATE TABLE` of an entity's (or hierarchy's) table and its indexes.
    func createStatements(entity: Schema.Entity, layout: SQLTableLayout) -> [String] {
        let definitions =
            ["\(dialect.quoted(SQLTableLayout.primaryKey)) bigint PRIMARY KEY"]
            + layout.columns.map { "\(dialect.quoted($0.name)) \($0.sqlType)\($0.isNullable ? "" : " NOT NULL")" }
        return ["CREATE TABLE \(dialect.quoted(layout.tableName)) (\(definitions.joined(separator: ", ")))"]
            + layout.columns.filter(\.isForeignKey).map { foreignKeyIndex(on: $0.name, of: layout) }
            + entity.indices.map { index(on: $0, of: entity, layout: layout) }
            + entity.uniquenessConstraints.map { uniqueIndex(on: $0, of: entity, layout: layout) }
    }

    /// The index on a to-one relationship's column, which loads the models that name a target.
    func foreignKeyIndex(on column: String, of layout: SQLTableLayout) -> String {
        "CREATE INDEX \(dialect.quoted(indexName(layout.tableName, column))) ON \(dialect.quoted(layout.tableName)) "
            + "(\(dialect.quoted(column)))"
    }

    /// The index an `#Index` declares.
    func index(on properties: [String], of entity: Schema.Entity, layout: SQLTableLayout) -> String {
        "CREATE INDEX \(dialect.quoted(indexName(layout.tableName, properties.joined(separator: "_")))) ON "
            + "\(dialect.quoted(layout.tableName)) "
            + "(\(Self.indexedExpressions(properties, entity: entity, layout: layout, dialect: dialect)))"
    }

    /// The unique index of a uniqueness constraint.
    func uniqueIndex(on properties: [String], of entity: Schema.Entity, layout: SQLTableLayout) -> String {
        "CREATE UNIQUE INDEX \(dialect.quoted(indexName(layout.tableName, properties.joined(separator: "_"), unique: true))) "
            + "ON \(dialect.quoted(layout.tableName)) "
            + "(\(Self.indexedExpressions(properties, entity: entity, layout: layout, dialect: dialect)))"
    }

    /// The join table a many-to-many relationship owns, and its index on targets.
    func joinTableStatements(_ table: String) -> [String] {
        [
            "CREATE TABLE \(dialect.quoted(table)) (\"owner\" bigint NOT NULL, \"target\" bigint NOT NULL, "
                + "PRIMARY KEY (\"owner\", \"target\"))",
            "CREATE INDEX \(dialect.quoted(indexName(table, "target"))) ON \(dialect.quoted(table)) (\"target\")",
        ]
    }

    /// What an index over some properties indexes: each column of each property (a composite attribute has one per
    /// field), strings in the NFC form that predicates compare (see `PostgreSQLDialect`), in the order sorts use, so
    /// that an index serves them and a unique index takes canonically equivalent strings for one value, as Swift
    /// does.
    static func indexedExpressions(
        _ properties: [String], entity: Schema.Entity, layout: SQLTableLayout, dialect: PostgreSQLDialect
    ) -> String {
        // NULLS FIRST: the order sorts ask for (`nil` first ascending, last descending), which an index in the
        // default order cannot give.
        layout.columns(of: properties, in: entity).map { column in
            (column.sqlType.hasPrefix("text")
                ? "(\(dialect.comparedForm(of: dialect.quoted(column.name))))" : dialect.quoted(column.name))
                + " NULLS FIRST"
        }.joined(separator: ", ")
    }

    /// An index's name: the table's and the columns', cut to fit PostgreSQL's names with a hash of the whole so
    /// that two long names stay apart.
    func indexName(_ table: String, _ columns: String, unique: Bool = false) -> String {
        let name = "\(table)_\(columns)_\(unique ? "unique" : "index")"
        guard name.utf8.count > PostgreSQLModelStore.longestName else { return name }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        let suffix = "_" + String(hash, radix: 16)
        var prefix = Substring(name)
        while prefix.utf8.count + suffix.utf8.count > PostgreSQLModelStore.longestName { prefix = prefix.dropLast() }
        return prefix + suffix
    }
}
