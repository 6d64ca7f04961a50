internal import CSQLite

extension SQLiteConnection {
    /// The SQL function an upsert statement's update calls with the key of the row it overwrites (see
    /// `SQLiteStore.upsertSQL(for:)`): it records the key in `overwrittenRowKey` and returns true, so the update
    /// goes ahead. SQLite evaluates the update's `WHERE` only when the inserted row conflicts, so a statement that
    /// inserts calls nothing, and one that overwrites a row names it without a lookup of its unique value.
    static let overwrittenRowFunction = "swiftdata_overwritten_row"

    /// Registers `overwrittenRowFunction` on the connection. Only SQL a statement names can call it, not a
    /// trigger or a view (`SQLITE_DIRECTONLY`).
    ///
    /// Related SQLite documentation: https://www.sqlite.org/c3ref/create_function.html
    func registerOverwrittenRowFunction() {
        // Unretained: the connection closes the database, and with it the function, before it goes.
        sqlite3_create_function_v2(
            handle, Self.overwrittenRowFunction, 1, SQLITE_UTF8 | SQLITE_DIRECTONLY,
            Unmanaged.passUnretained(self).toOpaque(),
            { context, _, arguments in
                guard let context, let arguments, let data = sqlite3_user_data(context) else { return }
                let connection = Unmanaged<SQLiteConnection>.fromOpaque(data).takeUnretainedValue()
                connection.overwrittenRowKey = sqlite3_value_int64(arguments[0])
                sqlite3_result_int(context, 1)
            }, nil, nil, nil)
    }
}
