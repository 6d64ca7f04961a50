/// The SQL that differs from one SQL store to another, as the predicate and sort translators and a store's read
/// queries write it.
///
/// `PredicateTranslation` and `SortTranslation` write SQL through a dialect, so every SQL store reuses them whole.
/// Each token whose spelling or meaning differs between SQLite and PostgreSQL is a requirement here; what the
/// translators write themselves reads the same in both: `AND`, `OR`, `NOT`, `CASE WHEN`, `COALESCE`, `EXISTS`,
/// `IN (SELECT …)`, `IS NULL`, `count(*)`, `+ - * / %` and subqueries over aliased tables. `SQLiteDialect` is
/// SQLite's dialect.
///
/// A dialect is asked while SQL text is built: once per fetch for a predicate, a sort or a read query, and once per
/// entity for a statement a save prepares; never once per row.
///
/// Values never appear in SQL text: they are bound to the placeholders a dialect writes, as `SQLValue`s that
/// `ValueCodec` makes the same way for every store (a `Bool` is the integer 0 or 1, a `Date` the real number of
/// seconds since 2001-01-01). A save encodes each value of each row, where a dialect must not be asked; a store maps
/// these values to its own column types when it binds and reads them. What a dialect says about booleans and dates
/// is how their columns are declared (`columnType(for:)`), how a condition reads as a constant (`literal(_:)`) and
/// how a condition's truth is tested (`isTrue(_:)`).
package protocol SQLDialect: Sendable {
    // MARK: - Names and Literals

    /// An identifier (a table, column or alias name) quoted so that it reads as exactly that name, even when it is
    /// a keyword or holds a quote: SQLite writes `"name"`, with each `"` inside doubled.
    func quoted(_ identifier: String) -> String

    /// A string literal whose value is exactly `text`, for SQL that names a value it does not bind (the class names
    /// a type test compares with): SQLite writes `'text'`, with each `'` inside doubled.
    func stringLiteral(_ text: String) -> String

    /// A constant condition, always true or always false, that also equals the stored value of that `Bool`
    /// (`$0.flag == captured.isEmpty`): SQLite writes `1` and `0`.
    func literal(_ flag: Bool) -> String

    /// The placeholder of the bound value at `position`, counting from 1: the store binds `bindings[position - 1]`
    /// to it. SQLite writes `?1`, `?2`…
    func placeholder(_ position: Int) -> String

    /// The placeholder of a bound value whose Swift type's values a column of `kind` holds (nil for `nil`), for a
    /// value the SQL around it may not type: a captured value compared with another captured value. A dialect
    /// whose parameters carry no type says so here (PostgreSQL writes `$1::bigint`); the default is
    /// `placeholder(_:)`.
    func placeholder(_ position: Int, kind: SQLColumnKind?) -> String

    // MARK: - Comparing Values

    /// `lhs` compared with `rhs` as Swift compares them.
    ///
    /// - `.isEqual` and `.isNotEqual` are null-safe, like `==` and `!=` on optionals: NULL equals NULL and differs
    ///   from every value, and the result is never NULL. SQLite writes `lhs IS rhs` and `lhs IS NOT rhs`.
    /// - The orderings are SQL's `<`, `<=`, `>` and `>=`.
    /// - With `asStrings`, both operands are strings and compare as Swift's `String` does: by canonical
    ///   equivalence (`"é"` equals `"e\u{301}"`) and in its order. The comparison must say so itself: a string
    ///   column may bring a collation, but an expression such as `COALESCE(…)` brings none. SQLite appends
    ///   ` COLLATE SWIFTDATA` (see `SQLiteFunctions`) to `rhs`.
    ///
    /// The result needs no parentheses around it: the translator puts it in parentheses, or joins it to another
    /// with `AND`.
    func comparison(_ lhs: String, _ comparison: SQLComparison, _ rhs: String, asStrings: Bool) -> String

    /// The condition that `element` equals one of `values` (one or more placeholders), with strings compared as in
    /// `comparison(_:_:_:asStrings:)`. The values are never NULL. SQLite writes `element IN (?1, ?2)`, with
    /// ` COLLATE SWIFTDATA` after `element` for strings.
    ///
    /// The result needs no parentheses around it, as for `comparison(_:_:_:asStrings:)`.
    func membership(of element: String, in values: [String], asStrings: Bool) -> String

    /// The condition that `condition` is true: false when it is false or NULL. SQLite writes `(condition) IS 1`.
    func isTrue(_ condition: String) -> String

    /// The condition that `condition` is not true: it is false or NULL. SQLite writes `(condition) IS NOT 1`.
    func isNotTrue(_ condition: String) -> String

    // MARK: - Swift Operations

    /// The expression that gives what the Swift operation gives for `arguments` (SQL expressions, in the order
    /// `SQLSwiftOperation` lists for each case). SQLite calls the functions `SQLiteFunctions` registers, such as
    /// `swiftdata_contains(a, b)`.
    ///
    /// - Throws: `UnsupportedPredicateNode` when the store cannot compute the operation exactly as Swift does: the
    ///   fetch then evaluates the predicate in memory.
    func expression(for operation: SQLSwiftOperation, _ arguments: [String]) throws -> String

    // MARK: - Ordering and Limiting Rows

    /// One term of an `ORDER BY` clause that sorts rows by `expression` as `SortDescriptor` sorts by its value:
    /// `nil` before every value when ascending, after every value when descending; with `asStrings`, strings in
    /// Swift's `String` order. SQLite writes `expression ASC` or `expression DESC`: its NULLs come first when
    /// ascending, and the translator sorts strings only by their columns, which are declared with the `SWIFTDATA`
    /// collation.
    func orderingTerm(_ expression: String, ascending: Bool, asStrings: Bool) -> String

    /// One term of an `ORDER BY` clause that sorts strings by `expression` as a `SortDescriptor` with a localized
    /// comparator (`.localizedStandard` or `.localized`) does, `nil` first when ascending; nil when the dialect
    /// cannot reproduce the order exactly, and the sort then runs in memory. SQLite writes
    /// `expression COLLATE SWIFTDATA_LOCALIZED_STANDARD ASC`, a collation that calls Foundation's comparison.
    func localizedOrderingTerm(_ expression: String, ascending: Bool, order: LocalizedStringOrder) -> String?

    /// The end of a `SELECT` that skips its first `offset` rows (none when nil or 0) and returns at most `limit` of
    /// the others (all when nil): empty when there is nothing to limit, else starting with a space. The numbers are
    /// parameters, appended to `parameters`, so that every page of a paged fetch is one statement. SQLite writes
    /// ` LIMIT ?3 OFFSET ?4`, with -1 for no limit and 0 for no offset. A negative limit or offset counts as 0.
    func limitClause(limit: Int?, offset: Int?, parameters: inout [SQLValue]) -> String

    // MARK: - Declaring Columns

    /// The type, with its collation if any, of a column that holds a kind of value. Strings compare in such a
    /// column as `comparison(_:_:_:asStrings:)` compares them. SQLite writes `TEXT COLLATE SWIFTDATA` for strings,
    /// `TEXT`, `INTEGER` for integers and booleans, `REAL` for reals and dates, and `BLOB`.
    func columnType(for kind: SQLColumnKind) -> String

    // MARK: - Writing Rows

    /// The clause after `INSERT INTO … (…) VALUES (…)` that, when the inserted row's values of `conflictColumns`
    /// (which have a unique index and cannot be NULL; one column per field of a composite attribute) are taken,
    /// updates the row that holds them: each of `updatedColumns` takes the inserted row's value, and when there are
    /// none, the statement does nothing. Names are given unquoted. SQLite writes
    /// ` ON CONFLICT("name") DO UPDATE SET "a" = excluded."a", …` and ` ON CONFLICT("name") DO NOTHING`.
    func upsertClause(conflictColumns: [String], updatedColumns: [String]) -> String
}

extension SQLDialect {
    /// `placeholder(_:)`: the value's type needs no saying.
    package func placeholder(_ position: Int, kind: SQLColumnKind?) -> String { placeholder(position) }
}

/// How `SQLDialect.comparison(_:_:_:asStrings:)` compares two values.
package enum SQLComparison: Sendable {
    /// Null-safe equality, as Swift's `==`.
    case isEqual
    /// Null-safe inequality, as Swift's `!=`.
    case isNotEqual
    case lessThan
    case lessThanOrEqual
    case greaterThan
    case greaterThanOrEqual
}

/// A Swift operation that a predicate uses and that no standard SQL expression evaluates with Swift's result.
///
/// Each gives NULL when an argument is NULL, except as noted. "Stops the query" means the statement fails with an
/// error that the store turns into `StoreCannotEvaluate`, so the fetch evaluates the predicate in memory, where
/// Swift decides.
package enum SQLSwiftOperation: Sendable {
    /// `string.contains(other)` over characters, with `(string, other)`: a condition.
    case contains
    /// `string.starts(with: prefix)` over characters, with `(string, prefix)`: a condition.
    case startsWith
    /// `string.localizedStandardContains(other)`, with `(string, other)`: a condition.
    case localizedStandardContains
    /// `string.caseInsensitiveCompare(other)`, with `(string, other)`: the `ComparisonResult`'s raw value, -1, 0
    /// or 1.
    case caseInsensitiveCompare
    /// `string.localizedCompare(other)`, with `(string, other)`: the `ComparisonResult`'s raw value, -1, 0 or 1.
    case localizedCompare
    /// `string.count`, with `(string)`: its number of characters (extended grapheme clusters).
    case characterCount
    /// `string.isEmpty`, with `(string)`: a condition.
    case isEmpty
    /// `lhs / rhs` on floating-point values, with `(lhs, rhs)`: the quotient; a zero divisor stops the query.
    case floatDivide
    /// `lhs / rhs` on integers, with `(lhs, rhs)`: the quotient, truncated toward zero; NULL for a zero divisor,
    /// where Swift traps (so the row does not match).
    case integerDivide
    /// `lhs % rhs` on integers, with `(lhs, rhs)`: the remainder, with the sign of `lhs`; NULL for a zero
    /// divisor, where Swift traps.
    case integerRemainder
    /// `value!`, with `(value)`: the value; NULL stops the query.
    case forceUnwrap
}

/// What a column holds, which says how it is declared (`SQLDialect.columnType(for:)`).
package enum SQLColumnKind: Sendable {
    /// Swift `String`s, compared as Swift compares them.
    case string
    /// Other text, compared by its bytes: URLs, UUIDs, decimals, JSON and class names.
    case text
    /// Integers.
    case integer
    /// `Bool`s, stored as the integers 0 and 1.
    case boolean
    /// Floating-point numbers.
    case real
    /// `Date`s, stored as the real number of seconds since 2001-01-01.
    case date
    /// Bytes.
    case blob
}
