internal import SwiftData

/// The statements a connection prepared, by their SQL and parameter types, so that a statement run again is parsed
/// and planned by the server once, as a raw client's prepared statements are.
///
/// Bounded: the least recently used statement is forgotten when a new one would exceed `limit`, and deallocated on
/// the server once no transaction is open (`evicted`), so that SQL that varies (predicates built at run time)
/// cannot grow the server's memory without end.
struct PostgreSQLStatementCache {
    /// A prepared statement's key: its SQL and the types its parameters were declared with.
    struct Key: Hashable {
        let sql: String
        let types: [UInt32]
    }

    /// The most statements kept prepared on one connection.
    static let limit = 128

    /// Each statement's name.
    private var names = LeastRecentlyUsedCache<Key, String>(limit: limit)
    private var nextNumber = 0
    /// Names of statements forgotten here and still prepared on the server.
    private(set) var evicted: [String] = []

    /// The name a statement is prepared under, or nil when it is not, noting it as just used.
    mutating func name(of key: Key) -> String? { names.value(for: key) }

    /// Records a statement about to be prepared and returns its new name; the least recently used statement, when
    /// the cache is full, joins `evicted`.
    mutating func add(_ key: Key) -> String {
        nextNumber += 1
        let name = "swiftdata_\(nextNumber)"
        if let oldest = names.insert(name, for: key) { evicted.append(oldest.value) }
        return name
    }

    /// Forgets a statement: its preparation failed (`deallocating` false), or its plan no longer fits the tables.
    mutating func remove(_ key: Key, deallocating: Bool) {
        if let name = names.removeValue(for: key), deallocating { evicted.append(name) }
    }

    /// The names in `evicted`, which the caller deallocates now.
    mutating func takeEvicted() -> [String] {
        defer { evicted = [] }
        return evicted
    }

    /// Forgets every statement: the server forgot them (the connection was reset).
    mutating func removeAll() {
        names.removeAll()
        evicted = []
    }
}
