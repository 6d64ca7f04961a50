internal import CLibPQ
internal import Foundation
package import SwiftData

/// The rows a statement returned, in text form, read into `SQLValue`s by each column's type.
package final class PostgreSQLResult {
    private let result: OpaquePointer
    /// The number of rows.
    package let rowCount: Int
    /// The number of columns of each row.
    package let columnCount: Int
    /// How each column's text reads, by its type.
    private let kinds: [ColumnKind]

    /// The type of PostgreSQL's `bytea`, which parameters of bytes are sent as.
    static let byteaType: Oid = 17

    private enum ColumnKind {
        case boolean, integer, real, bytes, text
    }

    init(_ result: OpaquePointer) {
        self.result = result
        rowCount = Int(PQntuples(result))
        columnCount = Int(PQnfields(result))
        kinds = (0..<Int32(PQnfields(result))).map { column in
            switch PQftype(result, column) {
            case 16: .boolean
            case 20, 21, 23, 26: .integer
            case 700, 701: .real
            case Self.byteaType: .bytes
            default: .text
            }
        }
    }

    deinit {
        PQclear(result)
    }

    /// The number of rows the statement changed (`UPDATE`, `DELETE`, `INSERT`).
    var changedRowCount: Int {
        Int(String(cString: PQcmdTuples(result))) ?? 0
    }

    /// The value at a row and column.
    package func value(row: Int, column: Int) -> SQLValue {
        let (row32, column32) = (Int32(row), Int32(column))
        if PQgetisnull(result, row32, column32) != 0 { return .null }
        let text = PQgetvalue(result, row32, column32)!
        switch kinds[column] {
        case .boolean: return .integer(text.pointee == CChar(UInt8(ascii: "t")) ? 1 : 0)
        case .integer: return .integer(Int64(strtoll(text, nil, 10)))
        case .real: return .real(Double(String(cString: text)) ?? .nan)
        case .bytes:
            var length = 0
            guard let bytes = PQunescapeBytea(UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self), &length)
            else { return .blob([]) }
            defer { PQfreemem(bytes) }
            return .blob(Array(UnsafeBufferPointer(start: bytes, count: length)))
        case .text:
            let length = Int(PQgetlength(result, row32, column32))
            return .text(
                String(
                    decoding: UnsafeRawBufferPointer(start: text, count: length).bindMemory(to: UInt8.self),
                    as: UTF8.self))
        }
    }

    /// The integer at a row and column, for keys and counts.
    package func integer(row: Int, column: Int) -> Int64? {
        guard case .integer(let number) = value(row: row, column: column) else { return nil }
        return number
    }

    /// The text at a row and column.
    package func text(row: Int, column: Int) -> String? {
        guard case .text(let text) = value(row: row, column: column) else { return nil }
        return text
    }
}
