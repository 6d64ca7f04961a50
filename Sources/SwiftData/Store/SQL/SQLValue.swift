/// A value as an SQL store keeps it in one column: one of the five storage classes SQLite has, which every SQL store
/// maps its column types to.
package enum SQLValue: Hashable, Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
}
