internal import CSQLite
internal import Foundation

/// SQL functions and the `SWIFTDATA` collation, registered on every connection, that run Swift's own semantics
/// inside SQLite so predicates and sorts can be pushed down without changing their results.
///
/// - `SWIFTDATA` collation: orders and compares text as Swift's `String` does (canonical equivalence: "é" and
///   "e\u{301}" are equal). String columns are declared with it.
/// - `SWIFTDATA_LOCALIZED_STANDARD` and `SWIFTDATA_LOCALIZED` collations: order text by
///   `localizedStandardCompare(_:)` and `localizedCompare(_:)`, as sort descriptors with the `.localizedStandard`
///   and `.localized` comparators do, so such a sort (and its limit and offset) runs in SQL in `sorted(using:)`'s
///   order.
/// - `swiftdata_contains(a, b)`, `swiftdata_starts_with(a, b)`: `a.contains(b)` and `a.starts(with: b)` over
///   characters, as `#Predicate` evaluates them.
/// - `swiftdata_localized_standard_contains(a, b)`, `swiftdata_case_insensitive_compare(a, b)`,
///   `swiftdata_localized_compare(a, b)`: Foundation's string operations (comparisons return -1, 0 or 1).
/// - `swiftdata_character_count(a)`: `a.count`.
/// - `swiftdata_unwrap(x)`, `swiftdata_float_divide(a, b)`: where Swift would fail or give a value SQL cannot hold
///   (`nil!`, division by zero), they stop the query with `SQLiteFunctions.evaluateInMemory`, and the fetch runs
///   the predicate in memory instead, where Swift decides.
enum SQLiteFunctions {
    /// The error message that asks the fetch to evaluate its predicate in memory.
    static let evaluateInMemory = "swiftdata: evaluate in memory"

    /// The collation that orders text as a localized sort does.
    static func collation(for order: LocalizedStringOrder) -> String {
        switch order {
        case .localizedStandard: "SWIFTDATA_LOCALIZED_STANDARD"
        case .localized: "SWIFTDATA_LOCALIZED"
        }
    }

    static func register(on db: OpaquePointer) {
        sqlite3_create_collation_v2(
            db, "SWIFTDATA", SQLITE_UTF8, nil,
            { _, length1, bytes1, length2, bytes2 in
                compareText(bytes1, Int(length1), bytes2, Int(length2))
            }, nil)
        sqlite3_create_collation_v2(
            db, "SWIFTDATA_LOCALIZED_STANDARD", SQLITE_UTF8, nil,
            { _, length1, bytes1, length2, bytes2 in
                compareText(bytes1, Int(length1), bytes2, Int(length2)) { $0.localizedStandardCompare($1) }
            }, nil)
        sqlite3_create_collation_v2(
            db, "SWIFTDATA_LOCALIZED", SQLITE_UTF8, nil,
            { _, length1, bytes1, length2, bytes2 in
                compareText(bytes1, Int(length1), bytes2, Int(length2)) { $0.localizedCompare($1) }
            }, nil)
        let flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC
        sqlite3_create_function_v2(
            db, "swiftdata_contains", 2, flags, nil,
            { context, _, arguments in
                withTwoStrings(context, arguments) { genericContains($0, $1) ? 1 : 0 }
            }, nil, nil, nil)
        sqlite3_create_function_v2(
            db, "swiftdata_starts_with", 2, flags, nil,
            { context, _, arguments in
                withTwoStrings(context, arguments) { genericStartsWith($0, $1) ? 1 : 0 }
            }, nil, nil, nil)
        sqlite3_create_function_v2(
            db, "swiftdata_localized_standard_contains", 2, flags, nil,
            { context, _, arguments in
                withTwoStrings(context, arguments) { $0.localizedStandardContains($1) ? 1 : 0 }
            }, nil, nil, nil)
        sqlite3_create_function_v2(
            db, "swiftdata_case_insensitive_compare", 2, flags, nil,
            { context, _, arguments in
                withTwoStrings(context, arguments) { Int64($0.caseInsensitiveCompare($1).rawValue) }
            }, nil, nil, nil)
        sqlite3_create_function_v2(
            db, "swiftdata_localized_compare", 2, flags, nil,
            { context, _, arguments in
                withTwoStrings(context, arguments) { Int64($0.localizedCompare($1).rawValue) }
            }, nil, nil, nil)
        sqlite3_create_function_v2(
            db, "swiftdata_character_count", 1, flags, nil,
            { context, _, arguments in
                guard let value = arguments?[0], let text = string(value) else { return sqlite3_result_null(context) }
                sqlite3_result_int64(context, Int64(text.count))
            }, nil, nil, nil)
        sqlite3_create_function_v2(
            db, "swiftdata_unwrap", 1, flags, nil,
            { context, _, arguments in
                guard let value = arguments?[0], sqlite3_value_type(value) != SQLITE_NULL else {
                    return sqlite3_result_error(context, "swiftdata: evaluate in memory", -1)
                }
                sqlite3_result_value(context, value)
            }, nil, nil, nil)
        sqlite3_create_function_v2(
            db, "swiftdata_float_divide", 2, flags, nil,
            { context, _, arguments in
                guard let lhs = arguments?[0], let rhs = arguments?[1] else { return }
                if sqlite3_value_type(lhs) == SQLITE_NULL || sqlite3_value_type(rhs) == SQLITE_NULL {
                    return sqlite3_result_null(context)
                }
                let divisor = sqlite3_value_double(rhs)
                guard divisor != 0 else { return sqlite3_result_error(context, "swiftdata: evaluate in memory", -1) }
                sqlite3_result_double(context, sqlite3_value_double(lhs) / divisor)
            }, nil, nil, nil)
    }
}

// MARK: - Helpers

/// Compares UTF-8 text as Swift's `String` does, with a byte comparison when both are ASCII.
private func compareText(
    _ bytes1: UnsafeRawPointer?,
    _ length1: Int,
    _ bytes2: UnsafeRawPointer?,
    _ length2: Int
) -> Int32 {
    let first = UnsafeRawBufferPointer(start: bytes1, count: length1)
    let second = UnsafeRawBufferPointer(start: bytes2, count: length2)
    if first.allSatisfy({ $0 < 0x80 }) && second.allSatisfy({ $0 < 0x80 }) {
        for (a, b) in zip(first, second) where a != b { return a < b ? -1 : 1 }
        return length1 == length2 ? 0 : (length1 < length2 ? -1 : 1)
    }
    let a = String(decoding: first, as: UTF8.self)
    let b = String(decoding: second, as: UTF8.self)
    return a == b ? 0 : (a < b ? -1 : 1)
}

/// Compares UTF-8 text with a comparison of Foundation's.
private func compareText(
    _ bytes1: UnsafeRawPointer?,
    _ length1: Int,
    _ bytes2: UnsafeRawPointer?,
    _ length2: Int,
    by compare: (String, String) -> ComparisonResult
) -> Int32 {
    let a = String(decoding: UnsafeRawBufferPointer(start: bytes1, count: length1), as: UTF8.self)
    let b = String(decoding: UnsafeRawBufferPointer(start: bytes2, count: length2), as: UTF8.self)
    switch compare(a, b) {
    case .orderedAscending: return -1
    case .orderedSame: return 0
    case .orderedDescending: return 1
    }
}

private func string(_ value: OpaquePointer) -> String? {
    guard sqlite3_value_type(value) != SQLITE_NULL, let text = sqlite3_value_text(value) else { return nil }
    let length = Int(sqlite3_value_bytes(value))
    return String(decoding: UnsafeBufferPointer(start: text, count: length), as: UTF8.self)
}

/// Calls `body` with two text arguments and returns its integer result; NULL when either argument is NULL.
private func withTwoStrings(
    _ context: OpaquePointer?,
    _ arguments: UnsafeMutablePointer<OpaquePointer?>?,
    _ body: (String, String) -> Int64
) {
    guard let first = arguments?[0], let second = arguments?[1], let a = string(first), let b = string(second)
    else { return sqlite3_result_null(context) }
    sqlite3_result_int64(context, body(a, b))
}

/// `Collection.contains(_:)` as `#Predicate` reaches it, in a generic context.
private func genericContains<Base: Collection, Other: Collection>(_ base: Base, _ other: Other) -> Bool
where Base.Element == Other.Element, Base.Element: Equatable {
    base.contains(other)
}

/// `Sequence.starts(with:)` as `#Predicate` reaches it, in a generic context.
private func genericStartsWith<Base: Sequence, Prefix: Sequence>(_ base: Base, _ prefix: Prefix) -> Bool
where Base.Element == Prefix.Element, Base.Element: Equatable {
    base.starts(with: prefix)
}
