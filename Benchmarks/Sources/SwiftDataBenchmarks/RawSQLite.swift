import CSQLiteBench
import Foundation

/// The baseline: the SQLite C API used as efficiently as a careful programmer would, on the same kind of table.
final class RawSQLite {
    let db: OpaquePointer

    init(path: String) {
        var handle: OpaquePointer?
        sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil)
        db = handle!
        exec("PRAGMA journal_mode = WAL")
    }

    deinit { sqlite3_close_v2(db) }

    func exec(_ sql: String) {
        let code = sqlite3_exec(db, sql, nil, nil, nil)
        precondition(code == SQLITE_OK, String(cString: sqlite3_errmsg(db)))
    }

    func prepare(_ sql: String) -> OpaquePointer {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(db, sql, -1, &statement, nil)
        precondition(code == SQLITE_OK, String(cString: sqlite3_errmsg(db)))
        return statement!
    }

    /// Binds a string's UTF-8 bytes where the string keeps them: passing a `String` as a C string argument
    /// copies it into a new array first.
    func bindText(_ statement: OpaquePointer, _ index: Int32, _ text: String) {
        var text = text
        text.withUTF8 { bytes in
            _ = bytes.withMemoryRebound(to: CChar.self) {
                sqlite3_bind_text(statement, index, $0.baseAddress, Int32($0.count), csqlitebench_transient())
            }
        }
    }

    func text(_ statement: OpaquePointer, _ index: Int32) -> String {
        String(cString: sqlite3_column_text(statement, index))
    }

    /// A scalar integer query.
    func integer(_ sql: String) -> Int64 {
        let statement = prepare(sql)
        defer { sqlite3_finalize(statement) }
        sqlite3_step(statement)
        return sqlite3_column_int64(statement, 0)
    }
}
