internal import SwiftData

/// PostgreSQL's SQL, for the shared predicate and sort translators and the PostgreSQL store's queries.
///
/// Swift's semantics without functions of our own on the server:
/// - Strings compare as Swift's `String` does by comparing their NFC forms (`normalize(…, NFC)`): two strings are
///   canonically equivalent exactly when their NFC forms are equal, and Swift orders strings by the Unicode scalars
///   of their NFC forms, which is the byte order of their UTF-8 (`COLLATE "C"`).
/// - Booleans are PostgreSQL's `boolean`, so a condition and a stored `Bool` compare as they do in Swift.
/// - `nil` sorts first ascending and last descending, as `SortDescriptor` sorts it.
/// - The Swift operations PostgreSQL has no exact equivalent for (`contains` and `starts(with:)` over characters,
///   localized and case-insensitive comparisons, character counts, floating-point division, force unwraps) are
///   refused, and the fetch evaluates the predicate in memory.
///
/// Related PostgreSQL documentation: <https://www.postgresql.org/docs/current/functions-string.html>
struct PostgreSQLDialect: SQLDialect {
    // MARK: - Names and Literals

    func quoted(_ identifier: String) -> String {
        "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    func stringLiteral(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }

    func literal(_ flag: Bool) -> String { flag ? "TRUE" : "FALSE" }

    func placeholder(_ position: Int) -> String { "$\(position)" }

    /// `$1::bigint` and the like: parameters are sent without a type, and a captured value compared with another
    /// (`(flag ? 10 : 9) > minimum`) would otherwise compare as text.
    func placeholder(_ position: Int, kind: SQLColumnKind?) -> String {
        guard let kind else { return placeholder(position) }
        let type =
            switch kind {
            case .string, .text: "text"
            case .integer: "bigint"
            case .boolean: "boolean"
            case .real, .date: "double precision"
            case .blob: "bytea"
            }
        return "$\(position)::\(type)"
    }

    // MARK: - Comparing Values

    func comparison(_ lhs: String, _ comparison: SQLComparison, _ rhs: String, asStrings: Bool) -> String {
        let symbol =
            switch comparison {
            case .isEqual: "IS NOT DISTINCT FROM"
            case .isNotEqual: "IS DISTINCT FROM"
            case .lessThan: "<"
            case .lessThanOrEqual: "<="
            case .greaterThan: ">"
            case .greaterThanOrEqual: ">="
            }
        guard asStrings else { return "\(lhs) \(symbol) \(rhs)" }
        return "\(normalized(lhs)) \(symbol) \(normalized(rhs))"
    }

    func membership(of element: String, in values: [String], asStrings: Bool) -> String {
        guard asStrings else { return "\(element) IN (\(values.joined(separator: ", ")))" }
        return "\(normalized(element)) IN (\(values.map(normalized).joined(separator: ", ")))"
    }

    func isTrue(_ condition: String) -> String { "(\(condition)) IS TRUE" }

    func isNotTrue(_ condition: String) -> String { "(\(condition)) IS NOT TRUE" }

    // MARK: - Swift Operations

    func expression(for operation: SQLSwiftOperation, _ arguments: [String]) throws -> String {
        switch operation {
        case .integerDivide:
            // PostgreSQL stops at a zero divisor, where SQLite gives NULL: NULLIF gives NULL too.
            return "(\(arguments[0]) / NULLIF(\(arguments[1]), 0))"
        case .integerRemainder:
            return "(\(arguments[0]) % NULLIF(\(arguments[1]), 0))"
        case .isEmpty:
            // PostgreSQL's text holds no NUL, so a string of no characters is exactly one of length 0.
            return "(length(\(arguments[0])) = 0)"
        case .contains, .startsWith, .localizedStandardContains, .caseInsensitiveCompare, .localizedCompare,
            .characterCount, .floatDivide, .forceUnwrap:
            throw UnsupportedPredicateNode(reason: "PostgreSQL has no exact form of \(operation); it runs in memory")
        }
    }

    // MARK: - Ordering and Limiting Rows

    func orderingTerm(_ expression: String, ascending: Bool, asStrings: Bool) -> String {
        let value = asStrings ? normalized(expression) : expression
        return ascending ? "\(value) ASC NULLS FIRST" : "\(value) DESC NULLS LAST"
    }

    /// Nil: no collation of the server orders text as Foundation's localized comparators do, so such sorts run in
    /// memory.
    func localizedOrderingTerm(_ expression: String, ascending: Bool, order: LocalizedStringOrder) -> String? {
        nil
    }

    func limitClause(limit: Int?, offset: Int?, parameters: inout [SQLValue]) -> String {
        guard limit != nil || (offset ?? 0) > 0 else { return "" }
        // Both, always (a NULL limit is none): every page of a paged fetch, the first included, is one statement.
        // A negative limit or offset counts as 0, as a fetch that pages in memory counts it.
        parameters.append(limit.map { .integer(Int64(max($0, 0))) } ?? .null)
        parameters.append(.integer(Int64(max(offset ?? 0, 0))))
        return " LIMIT \(placeholder(parameters.count - 1, kind: .integer))"
            + " OFFSET \(placeholder(parameters.count, kind: .integer))"
    }

    // MARK: - Declaring Columns

    func columnType(for kind: SQLColumnKind) -> String {
        switch kind {
        case .string: "text COLLATE \"C\""
        case .text: "text COLLATE \"C\""
        case .integer: "bigint"
        case .boolean: "boolean"
        case .real, .date: "double precision"
        case .blob: "bytea"
        }
    }

    // MARK: - Writing Rows

    func upsertClause(conflictColumns: [String], updatedColumns: [String]) -> String {
        let action =
            updatedColumns.isEmpty
            ? "DO NOTHING"
            : "DO UPDATE SET " + updatedColumns.map { "\(quoted($0)) = EXCLUDED.\(quoted($0))" }.joined(separator: ", ")
        return " ON CONFLICT (\(conflictColumns.map(quoted).joined(separator: ", "))) " + action
    }

    // MARK: - Internal

    /// A string expression in the form comparisons compare: its NFC form, in byte order. Indexes over string
    /// columns index this form, so that comparisons use them.
    func comparedForm(of expression: String) -> String {
        "normalize(\(expression), NFC) COLLATE \"C\""
    }

    private func normalized(_ expression: String) -> String { comparedForm(of: expression) }
}
