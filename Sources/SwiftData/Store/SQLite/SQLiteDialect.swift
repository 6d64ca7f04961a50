/// SQLite's SQL, for the predicate and sort translators and the SQLite store's queries.
///
/// Swift's semantics come from the collation and functions that `SQLiteFunctions` registers on every connection:
/// strings compare with the `SWIFTDATA` collation, and the Swift operations call `swiftdata_*` functions.
///
/// Related SQLite documentation: <https://www.sqlite.org/lang_expr.html>
struct SQLiteDialect: SQLDialect {
    // MARK: - Names and Literals

    func quoted(_ identifier: String) -> String { SwiftData.quoted(identifier) }

    func stringLiteral(_ text: String) -> String { sqlStringLiteral(text) }

    func literal(_ flag: Bool) -> String { flag ? "1" : "0" }

    func placeholder(_ position: Int) -> String { "?\(position)" }

    // MARK: - Comparing Values

    func comparison(_ lhs: String, _ comparison: SQLComparison, _ rhs: String, asStrings: Bool) -> String {
        let symbol =
            switch comparison {
            case .isEqual: "IS"
            case .isNotEqual: "IS NOT"
            case .lessThan: "<"
            case .lessThanOrEqual: "<="
            case .greaterThan: ">"
            case .greaterThanOrEqual: ">="
            }
        return "\(lhs) \(symbol) \(rhs)\(collation(asStrings))"
    }

    func membership(of element: String, in values: [String], asStrings: Bool) -> String {
        "\(element)\(collation(asStrings)) IN (\(values.joined(separator: ", ")))"
    }

    func isTrue(_ condition: String) -> String { "(\(condition)) IS 1" }

    func isNotTrue(_ condition: String) -> String { "(\(condition)) IS NOT 1" }

    // MARK: - Swift Operations

    func expression(for operation: SQLSwiftOperation, _ arguments: [String]) throws -> String {
        let function: String
        switch operation {
        case .contains: function = "swiftdata_contains"
        case .startsWith: function = "swiftdata_starts_with"
        case .localizedStandardContains: function = "swiftdata_localized_standard_contains"
        case .caseInsensitiveCompare: function = "swiftdata_case_insensitive_compare"
        case .localizedCompare: function = "swiftdata_localized_compare"
        case .characterCount: function = "swiftdata_character_count"
        case .isEmpty:
            // `length` counts the code points before the first NUL, so it is 0 for the empty string (and, a case
            // left as it was, for text that starts with a NUL).
            return "(length(\(arguments[0])) = 0)"
        case .floatDivide: function = "swiftdata_float_divide"
        case .integerDivide: return "(\(arguments[0]) / \(arguments[1]))"
        case .integerRemainder: return "(\(arguments[0]) % \(arguments[1]))"
        case .forceUnwrap: function = "swiftdata_unwrap"
        }
        return "\(function)(\(arguments.joined(separator: ", ")))"
    }

    // MARK: - Ordering and Limiting Rows

    func orderingTerm(_ expression: String, ascending: Bool, asStrings: Bool) -> String {
        "\(expression) \(ascending ? "ASC" : "DESC")"
    }

    func localizedOrderingTerm(_ expression: String, ascending: Bool, order: LocalizedStringOrder) -> String? {
        "\(expression) COLLATE \(SQLiteFunctions.collation(for: order)) \(ascending ? "ASC" : "DESC")"
    }

    func limitClause(limit: Int?, offset: Int?, parameters: inout [SQLValue]) -> String {
        guard limit != nil || (offset ?? 0) > 0 else { return "" }
        // Both, always: every page of a paged fetch, the first included, is then one statement. A negative limit
        // or offset counts as 0, as a fetch that pages in memory counts it.
        parameters.append(.integer(Int64(limit.map { max($0, 0) } ?? -1)))
        parameters.append(.integer(Int64(max(offset ?? 0, 0))))
        return " LIMIT \(placeholder(parameters.count - 1)) OFFSET \(placeholder(parameters.count))"
    }

    // MARK: - Declaring Columns

    func columnType(for kind: SQLColumnKind) -> String {
        switch kind {
        case .string: "TEXT COLLATE SWIFTDATA"
        case .text: "TEXT"
        case .integer, .boolean: "INTEGER"
        case .real, .date: "REAL"
        case .blob: "BLOB"
        }
    }

    // MARK: - Writing Rows

    func upsertClause(conflictColumns: [String], updatedColumns: [String]) -> String {
        // A table of the unique columns alone has nothing to update.
        let action =
            updatedColumns.isEmpty
            ? "DO NOTHING"
            : "DO UPDATE SET " + updatedColumns.map { "\(quoted($0)) = excluded.\(quoted($0))" }.joined(separator: ", ")
        return " ON CONFLICT(\(conflictColumns.map(quoted).joined(separator: ", "))) " + action
    }

    // MARK: - Internal

    /// ` COLLATE SWIFTDATA` for strings, which makes SQLite compare them as Swift's `String` does.
    private func collation(_ asStrings: Bool) -> String { asStrings ? " COLLATE SWIFTDATA" : "" }
}
