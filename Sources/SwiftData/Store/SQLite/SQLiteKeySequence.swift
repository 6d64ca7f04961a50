/// The highest primary key each table has given out, kept so that the key of a deleted row is never given to
/// another: a `PersistentIdentifier` kept from before the deletion must not come to name a different model.
///
/// The save writer assigns keys itself. Tables used to be declared `AUTOINCREMENT`, which keeps the same guarantee
/// through `sqlite_sequence` but writes that table once for every inserted row, a fifth of the cost of an insert;
/// the writer now records the highest key once per table and save, in `_swiftdata_sequence`. Tables of stores
/// created before keep `AUTOINCREMENT`, and their `sqlite_sequence` entries are still read.
enum SQLiteKeySequence {
    static let tableName = "_swiftdata_sequence"

    /// The primary key column's definition in a new table.
    static let primaryKeyDefinition = "\(quoted(SQLTableLayout.primaryKey)) INTEGER PRIMARY KEY"

    /// Creates the table of recorded keys in a store that does not have it yet.
    static func prepare(_ connection: SQLiteConnection) throws {
        try connection.execute(
            "CREATE TABLE IF NOT EXISTS \(quoted(tableName)) (\"name\" TEXT PRIMARY KEY, \"seq\" INTEGER NOT NULL)"
        )
    }

    /// The highest key `table` has held or given out: the greatest of its rows' keys and the keys recorded here
    /// and in `sqlite_sequence`. `prepare(_:)` must have run on the connection.
    static func highestKey(of table: String, _ connection: SQLiteConnection) throws -> Int64 {
        var highest: Int64 = 0
        let recorded = try connection.statement(
            "SELECT max(coalesce((SELECT max(\(quoted(SQLTableLayout.primaryKey))) FROM \(quoted(table))), 0), "
                + "coalesce((SELECT \"seq\" FROM \(quoted(tableName)) WHERE \"name\" = ?1), 0))"
        ).rows([.text(table)])
        if case .integer(let value) = recorded.first?.first { highest = value }
        if try hasAutoincrementTables(connection) {
            let sequence = try connection.statement("SELECT \"seq\" FROM sqlite_sequence WHERE \"name\" = ?1")
                .rows([.text(table)])
            if case .integer(let value) = sequence.first?.first { highest = max(highest, value) }
        }
        return highest
    }

    /// Records that `table` has given out keys up to `key`; a lower key than the recorded one changes nothing.
    static func record(_ key: Int64, for table: String, _ connection: SQLiteConnection) throws {
        try connection.statement(
            "INSERT INTO \(quoted(tableName)) (\"name\", \"seq\") VALUES (?1, ?2) "
                + "ON CONFLICT (\"name\") DO UPDATE SET \"seq\" = max(\"seq\", excluded.\"seq\")"
        ).execute([.text(table), .integer(key)])
    }

    /// True when the store has `sqlite_sequence`: it has, or had, a table declared `AUTOINCREMENT`.
    private static func hasAutoincrementTables(_ connection: SQLiteConnection) throws -> Bool {
        try !connection.statement("SELECT 1 FROM sqlite_schema WHERE \"name\" = 'sqlite_sequence'").rows().isEmpty
    }
}
