extension SQLTableLayout {
    /// The `CREATE TABLE` statement and its indexes, in SQLite.
    func createStatements(entity: Schema.Entity) -> [String] {
        let definitions =
            [SQLiteKeySequence.primaryKeyDefinition]
            + columns.map { "\(quoted($0.name)) \($0.sqlType)\($0.isNullable ? "" : " NOT NULL")" }
        var statements = ["CREATE TABLE \(quoted(tableName)) (\(definitions.joined(separator: ", ")))"]
        for column in columns where column.isForeignKey {
            statements.append(
                "CREATE INDEX \(quoted("\(tableName)_\(column.name)_index")) ON \(quoted(tableName)) (\(quoted(column.name)))"
            )
        }
        // Each column of each property: a composite attribute has one per field. (The property's name alone
        // names no column of a composite attribute, and SQLite reads such a name as a string: an index of it
        // holds one value for every row.)
        for index in entity.indices {
            let name = "\(tableName)_\(index.joined(separator: "_"))_index"
            let columnList = columns(of: index, in: entity).map { quoted($0.name) }.joined(separator: ", ")
            guard !columnList.isEmpty else { continue }
            statements.append("CREATE INDEX \(quoted(name)) ON \(quoted(tableName)) (\(columnList))")
        }
        for constraint in entity.uniquenessConstraints {
            let name = "\(tableName)_\(constraint.joined(separator: "_"))_unique"
            let columnList = columns(of: constraint, in: entity).map { quoted($0.name) }.joined(separator: ", ")
            guard !columnList.isEmpty else { continue }
            statements.append("CREATE UNIQUE INDEX \(quoted(name)) ON \(quoted(tableName)) (\(columnList))")
        }
        if let spotlight = SpotlightIndex(entity: entity) {
            statements.append("DROP TABLE IF EXISTS \(quoted(spotlight.tableName))")
            statements.append(spotlight.createSQL)
            statements.append(spotlight.fillSQL)
        }
        return statements
    }
}
