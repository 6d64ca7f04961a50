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
                continue
            }
            try checkProperties(of: expected, against: old, connection)
            let table = dialect.quoted(layout.tableName)
            for column in old.columns {
                guard let new = expected.columns.first(where: { $0.name == column.name }),
                    new.property == column.property, new.sqlType == column.sqlType,
                    new.isForeignKey == column.isForeignKey, new.isNullable || !column.isNullable
                else {
                    throw refusal("\(expected.name).\(column.property) was removed or changed", connection)
                }
                // A property that became optional: its column takes NULL from now on.
                if new.isNullable && !column.isNullable {
                    statements.append("ALTER TABLE \(table) ALTER COLUMN \(dialect.quoted(column.name)) DROP NOT NULL")
                }
            }
            let oldProperties = Set(old.columns.map(\.property))
            for column in expected.columns where !old.columns.contains(where: { $0.name == column.name }) {
                // A new field of a stored composite attribute: its stored values lack it.
                guard !oldProperties.contains(column.property) else {
                    throw refusal("\(expected.name).\(column.property) has a new field", connection)
                }
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
            for constraint in old.uniquenessConstraints where !expected.uniquenessConstraints.contains(constraint) {
                throw refusal("\(expected.name) no longer has the uniqueness constraint \(constraint)", connection)
            }
            // An index or constraint the database may hold already (one a version between dropped) is kept.
            for constraint in expected.uniquenessConstraints where !old.uniquenessConstraints.contains(constraint) {
                statements.append(ifNotExists(uniqueIndex(on: constraint, of: entity, layout: layout)))
            }
            for index in expected.indices where !old.indices.contains(index) {
                statements.append(ifNotExists(self.index(on: index, of: entity, layout: layout)))
            }
        }
        // Join tables of every entity, subclasses' included, that the database lacks.
        for table in Set(entities.flatMap { Self.joinTables(of: $0) }).sorted() {
            let exists = try connection.execute("SELECT to_regclass($1) IS NOT NULL", [.text(dialect.quoted(table))])
            if exists.integer(row: 0, column: 0) != 1 { statements += joinTableStatements(table) }
        }
        for statement in statements { try connection.execute(statement) }
        let metadata = dialect.quoted(PostgreSQLModelStore.metadataTable)
        let update = "UPDATE \(metadata) SET \"value\" = $2 WHERE \"key\" = $1"
        try connection.execute(update, [.text("model"), .text(try storedSchema.encoded())])
        try connection.execute(update, [.text("schemaVersion"), .text(version.description)])
    }

    /// Refuses properties that keep their names and columns but change what they hold: an attribute of another
    /// type (a `String` that became a `UUID` shares its column type), a relationship to another entity or of
    /// another kind, and a new required to-one relationship (its column takes NULL for the stored rows).
    private func checkProperties(
        of expected: StoredSchema.Entity, against old: StoredSchema.Entity, _ connection: PostgreSQLConnection
    ) throws {
        for attribute in old.attributes ?? [] {
            guard let new = expected.attributes?.first(where: { $0.name == attribute.name }) else { continue }
            guard new.type == attribute.type else {
                throw refusal(
                    "\(expected.name).\(attribute.name) changed from \(attribute.type) to \(new.type)", connection)
            }
        }
        for relationship in expected.relationships ?? [] {
            guard let previous = old.relationships?.first(where: { $0.name == relationship.name }) else {
                guard relationship.isToMany || relationship.isOptional else {
                    throw refusal(
                        "\(expected.name).\(relationship.name) is new and required; rows stored before have no value",
                        connection)
                }
                continue
            }
            guard previous.destination == relationship.destination, previous.isToMany == relationship.isToMany
            else {
                throw refusal("\(expected.name).\(relationship.name) relates to another entity now", connection)
            }
        }
    }

    /// A `CREATE INDEX` or `CREATE UNIQUE INDEX` that does nothing when the index exists.
    private func ifNotExists(_ statement: String) -> String {
        for head in ["CREATE UNIQUE INDEX ", "CREATE INDEX "] where statement.hasPrefix(head) {
            return head + "IF NOT EXISTS " + statement.dropFirst(head.count)
        }
        return statement
    }

    /// The error for a change of schema the store cannot make.
    private func refusal(_ change: String, _ connection: PostgreSQLConnection) -> PostgreSQLError {
        PostgreSQLError(
            .foreignSchema, server: connection.server,
            message: "the database holds another schema, and \(change): the PostgreSQL store migrates only "
                + "schemas that add entities, optional properties, relationships and indexes")
    }
}
