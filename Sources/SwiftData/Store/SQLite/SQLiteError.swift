internal import CSQLite

/// A failure reported by SQLite, with its result codes, message and statement. Bound values are never included.
struct SQLiteError: Error, CustomStringConvertible {
    let resultCode: Int32
    let extendedResultCode: Int32
    let message: String
    let sql: String?

    var description: String {
        var text = "SQLite error \(resultCode) (extended \(extendedResultCode)): \(message)"
        if let sql { text += " — in: \(sql)" }
        return text
    }

    /// True for SQLITE_CONSTRAINT and its extended codes.
    var isConstraintViolation: Bool { resultCode == SQLITE_CONSTRAINT }
}
