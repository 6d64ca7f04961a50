internal import CSQLite

/// A prepared SQLite statement. Owned and cached by its `SQLiteConnection`.
package final class SQLiteStatement {
    let handle: OpaquePointer
    let sql: String
    private unowned let connection: SQLiteConnection

    init(connection: SQLiteConnection, sql: String) throws {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(connection.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else { throw connection.error(code, sql: sql) }
        self.handle = statement
        self.sql = sql
        self.connection = connection
    }

    deinit { sqlite3_finalize(handle) }

    // MARK: - Binding

    /// Resets the statement and binds the values to parameters 1…n.
    func bind(_ values: [SQLValue]) throws {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        for (offset, value) in values.enumerated() { try bind(value, at: Int32(offset + 1)) }
    }

    func bind(_ value: SQLValue, at index: Int32) throws {
        let code: Int32
        switch value {
        case .null: code = sqlite3_bind_null(handle, index)
        case .integer(let number): code = sqlite3_bind_int64(handle, index, number)
        case .real(let number): code = sqlite3_bind_double(handle, index, number)
        case .text(let text): code = bindText(text, at: index)
        case .blob(let bytes):
            code = bytes.withUnsafeBytes {
                sqlite3_bind_blob(
                    handle, index, $0.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32($0.count),
                    csqlite_transient())
            }
        }
        guard code == SQLITE_OK else { throw connection.error(code, sql: sql) }
    }

    /// Binds a string's UTF-8 bytes where the string keeps them (a `String` passed as a C string is first copied
    /// into a new array), with their length, so that a string with an embedded NUL is stored whole.
    private func bindText(_ text: String, at index: Int32) -> Int32 {
        var text = text
        return text.withUTF8 { bytes in
            // A null pointer would bind NULL: an empty string is bound from a literal.
            guard let start = bytes.baseAddress, !bytes.isEmpty else {
                return sqlite3_bind_text(handle, index, "", 0, csqlite_transient())
            }
            return start.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                sqlite3_bind_text(handle, index, $0, Int32(bytes.count), csqlite_transient())
            }
        }
    }

    // MARK: - Stepping

    /// Advances to the next row; false when the statement is done.
    func step() throws -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let error = connection.error(code, sql: sql)
            sqlite3_reset(handle)
            throw error
        }
    }

    /// Runs the statement to completion with the given values.
    package func execute(_ values: [SQLValue] = []) throws {
        try bind(values)
        while try step() {}
        sqlite3_reset(handle)
    }

    /// The rows the statement returns for the given values.
    package func rows(_ values: [SQLValue] = []) throws -> [[SQLValue]] {
        try bind(values)
        var rows: [[SQLValue]] = []
        let count = sqlite3_column_count(handle)
        while try step() {
            rows.append((0..<count).map { column($0) })
        }
        sqlite3_reset(handle)
        return rows
    }

    // MARK: - Reading Columns

    func column(_ index: Int32) -> SQLValue {
        switch sqlite3_column_type(handle, index) {
        case SQLITE_NULL: return .null
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, index))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, index))
        case SQLITE_TEXT:
            // Read by length, not up to a NUL: faster, and it keeps an embedded NUL.
            guard let text = sqlite3_column_text(handle, index) else { return .text("") }
            let count = Int(sqlite3_column_bytes(handle, index))
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        default:
            let count = Int(sqlite3_column_bytes(handle, index))
            guard count > 0, let bytes = sqlite3_column_blob(handle, index) else { return .blob([]) }
            return .blob([UInt8](UnsafeRawBufferPointer(start: bytes, count: count)))
        }
    }

    func int64(_ index: Int32) -> Int64 { sqlite3_column_int64(handle, index) }

    /// Ends the current run of the statement, keeping its bindings.
    func reset() { sqlite3_reset(handle) }
}
