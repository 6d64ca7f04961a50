internal import SwiftData

extension PostgreSQLTables {
    /// Brings a database's tables from the schema it records to this one, when the change only adds: new entities
    /// (tables), new optional attributes and to-one relationships (nullable columns), new many-to-many
    /// relationships (join tables), and new indexes and uniqueness constraints. Rows keep every value, and the
    /// columns they did not have read as `nil`. It runs in the caller's transaction, which holds the creation lock.
    ///
    /// Any other change — a removed or renamed entity or property, a changed type, a new required attribute — needs
    /// a migration the PostgreSQL store does not perform yet, and is refused before anything is written.
    ///
    /// - Throws: `PostgreSQLError.foreignSchema` saying which change cannot be made; what the server throws.
    func migrateAdditively(_ connection: PostgreSQLConnection, from stored: StoredSchema) throws {
        var statements: [String] = []
        let expectedNames = Set(storedSchema.entities.map(\.name))
        for entity in stored.entities where !expectedNames.contains(entity.name) {
            throw refusal("the code no longer has \(entity.name)", connection)
        }
        let storedByName = Dictionary(stored.entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for expected in storedSchema.entities {
            guard let entity = entities.first(where: { $0.name == expected.name }), let layout = layouts[entity.name]
            else { continue }
            guard let old = storedByName[expected.name] else {
                statements += createStatements(entity: entity, layout: layout)
                statements += Self.joinTables(of: entity).flatMap(joinTableStatements)
                continue
            }
            let table = dialect.quoted(layout.tableName)
            for column in old.columns where !expected.columns.contains(column) {
                throw refusal("\(expected.name).\(column.property) was removed or changed", connection)
            }
            for column in expected.columns where !old.columns.contains(where: { $0.name == column.name }) {
                guard column.isNullable else {
                    throw refusal(
                        "\(expected.name).\(column.property) is new and required; rows stored before have no value",
                        connection)
                }
                statements.append("ALTER TABLE \(table) ADD COLUMN \(dialect.quoted(column.name)) \(column.sqlType)")
                if column.isForeignKey { statements.append(foreignKeyIndex(on: column.name, of: layout)) }
            }
            for joinTable in old.joinTables where !expected.joinTables.contains(joinTable) {
                throw refusal("\(expected.name) no longer has the relationship of \(joinTable)", connection)
            }
            for joinTable in expected.joinTables where !old.joinTables.contains(joinTable) {
                statements += joinTableStatements(joinTable)
            }
            for constraint in old.uniquenessConstraints where !expected.uniquenessConstraints.contains(constraint) {
                throw refusal("\(expected.name) no longer has the uniqueness constraint \(constraint)", connection)
            }
            for constraint in expected.uniquenessConstraints where !old.uniquenessConstraints.contains(constraint) {
                statements.append(uniqueIndex(on: constraint, of: entity, layout: layout))
            }
            for index in expected.indices where !old.indices.contains(index) {
                statements.append(self.index(on: index, of: entity, layout: layout))
            }
        }
        for statement in statements { try connection.execute(statement) }
        let metadata = dialect.quoted(PostgreSQLModelStore.metadataTable)
        let update = "UPDATE \(metadata) SET \"value\" = $2 WHERE \"key\" = $1"
        try connection.execute(update, [.text("model"), .text(try storedSchema.encoded())])
        try connection.execute(update, [.text("schemaVersion"), .text(version.description)])
    }

    /// The error for a change of schema the store cannot make.
    private func refusal(_ change: String, _ connection: PostgreSQLConnection) -> PostgreSQLError {
        PostgreSQLError(
            .foreignSchema, server: connection.server,
            message: "the database holds another schema, and \(change): the PostgreSQL store migrates only "
                + "schemas that add entities, optional properties, relationships and indexes")
    }
}
